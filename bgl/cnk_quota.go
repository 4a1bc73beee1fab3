package bgl

import (
	"fmt"
	"math"
	"runtime/debug"
	"sync/atomic"

	"github.com/dpclsh/dpclsh/ppc"
)

// Memory of a compute node. BG/L's CNK maps a node's memory statically and does not
// overcommit, so the bound is on what a process has asked for (image, stack, heap and
// anonymous mmaps), checked in brk/mmap: a request past it fails with ENOMEM (brk returns
// the old break), as on the real machine, and the host never pays for it.
const (
	DefaultMemoryMB = 512  // a BG/L compute node
	MaxMemoryMB     = 4095 // what a 32-bit address space can hold
	minMemoryMB     = 16

	// nodeFreeCommit is what a node may commit without drawing on the job's host pool:
	// ordinary programs (a glibc hello commits a few hundred KiB) never touch the pool,
	// so a 65,536-node job is not refused memory it will not use.
	nodeFreeCommit = 16 << 20
	// defaultHostPool bounds what all nodes together may commit beyond nodeFreeCommit
	// when no Go memory limit says otherwise: eight nodes at their full 512 MiB fit.
	defaultHostPool = 8 << 30
)

// hostPool is the job-wide budget of memory committed beyond each node's free share: it
// keeps a job of many large ranks (each within its node's memory) from exhausting the
// host. Nodes draw on it concurrently from the scheduler's workers.
type hostPool struct {
	left atomic.Int64
}

// newHostPool sizes the pool: mb when given, else half the Go soft memory limit when one
// is set, else defaultHostPool.
func newHostPool(mb int) *hostPool {
	p := &hostPool{}
	switch lim := debug.SetMemoryLimit(-1); {
	case mb > 0:
		p.left.Store(int64(mb) << 20)
	case lim != math.MaxInt64:
		p.left.Store(lim / 2)
	default:
		p.left.Store(defaultHostPool)
	}
	return p
}

// take reserves n bytes, or reports false leaving the pool unchanged.
func (h *hostPool) take(n int64) bool {
	if h.left.Add(-n) < 0 {
		h.left.Add(n)
		return false
	}
	return true
}

func (h *hostPool) give(n int64) { h.left.Add(n) }

func checkMemoryMB(mb int) error {
	if mb < minMemoryMB || mb > MaxMemoryMB {
		return errorf("memory of %d MiB per node: want %d..%d", mb, minMemoryMB, MaxMemoryMB)
	}
	return nil
}

// committed is what the process has asked for: image and stack, heap, anonymous mmaps,
// and what the MPI engine holds on its behalf (requests, messages not yet received).
func (p *Proc) committed() uint64 {
	c := p.layout.fixed + pageUp(p.brk) - pageUp(p.brkStart) + p.mpiHeld
	for _, m := range p.maps {
		c += uint64(m.size)
	}
	return c
}

// memLimitBytes is the node's memory (DefaultMemoryMB when the Proc was built without one).
func (p *Proc) memLimitBytes() uint64 {
	if p.memLimit == 0 {
		return DefaultMemoryMB << 20
	}
	return p.memLimit
}

// Bounds a commitment can exceed, as messages name them.
const (
	boundNode = "the node's memory"
	boundPool = "the job's host memory pool"
)

// commit accounts for a change of delta bytes in what the process has asked for; growth
// past the node's memory or the job's host pool is refused (false, nothing changed) with
// one EventNoMemory.
func (p *Proc) commit(delta int64) bool {
	if bound := p.reserve(delta); bound != "" {
		p.noMemory(delta, bound)
		return false
	}
	return true
}

// reserve draws delta bytes from the node's memory and the job's host pool, or returns
// the bound the growth would exceed, leaving everything unchanged. The caller then
// changes what committed counts by delta.
func (p *Proc) reserve(delta int64) string {
	before := p.committed()
	after := uint64(int64(before) + delta)
	if delta > 0 && after > p.memLimitBytes() {
		return boundNode
	}
	if p.pool == nil {
		return ""
	}
	// Only the part beyond nodeFreeCommit draws on the pool.
	over := func(c uint64) int64 { return int64(max(c, nodeFreeCommit) - nodeFreeCommit) }
	d := over(after) - over(before)
	switch {
	case d > 0 && !p.pool.take(d):
		return boundPool
	case d < 0:
		p.pool.give(-d)
	}
	return ""
}

// release returns everything the process drew from the pool (it exited or faulted).
func (p *Proc) release() {
	if p.pool != nil {
		if c := p.committed(); c > nodeFreeCommit {
			p.pool.give(int64(c - nodeFreeCommit))
		}
		p.pool = nil
	}
}

// noMemory records one event the first time a request is refused, so the user learns why
// malloc returned NULL.
func (p *Proc) noMemory(delta int64, what string) {
	if p.memRefused {
		return
	}
	p.memRefused = true
	p.events = append(p.events, Event{Kind: EventNoMemory, Rank: p.Rank, PC: p.pc, Sysno: p.curCall,
		Note: fmt.Sprintf("%s: ENOMEM: %d more bytes exceed %s (%d MiB committed of %d MiB)",
			p.curCall.Name(), delta, what, p.committed()>>20, p.memLimitBytes()>>20)})
}

// imageBytes is what every process of img holds before it runs: its segments and stack.
func imageBytes(img *ppc.Image) uint64 {
	n := uint64(img.Stack.Size)
	for _, s := range img.Segments {
		n += pageUp(s.Vaddr+s.Memsz) - uint64(s.Vaddr&^pageMask)
	}
	return n
}
