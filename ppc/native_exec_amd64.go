//go:build linux

package ppc

import (
	"sync"
	"syscall"
	"unsafe"
)

// Executable memory and the entry stub.

// nativeSupported: this build translates blocks to machine code.
const nativeSupported = true

// nativeEnter calls translated code with the CPU in rdi and returns what it returns
// (native_enter_amd64.s).
//
//go:noescape
func nativeEnter(entry uintptr, c *CPU) uint64

// codeArena hands out executable memory. Chunks are a memfd mapped twice: translations
// are copied into the read-write view, each at a fresh 64-byte line, and run from the
// read-execute view, so no mapping is ever writable and executable, no code another
// goroutine may be running is ever written or changes protection, and adding a
// translation costs no system call (an mprotect per translation, with the TLB shootdown
// it takes, was a sixth of a short run). Where the kernel refuses a memfd or an executable
// mapping of one (vm.memfd_noexec), each translation gets pages of its own, made
// read-execute by Mprotect before use. Code is never unmapped: a block dropped because
// its page was written leaves its translation behind, unreachable.
var codeArena struct {
	sync.Mutex
	w      []byte  // the current dual-mapped chunk's writable view
	x      uintptr // the address of its executable view
	used   int
	single bool   // no dual mapping on this host: page-per-translation chunks
	chunk  []byte // the current chunk of single mode
}

const arenaChunk = 1 << 20

// sysMemfdCreate is memfd_create(2) on amd64 (the frozen syscall package lacks it).
const sysMemfdCreate = 319

// mapDual returns a writable and an executable view of n new bytes.
func mapDual(n int) ([]byte, uintptr, error) {
	name := []byte("dpclsh-code\x00")
	const mfdCloexec = 1
	fd, _, errno := syscall.Syscall(sysMemfdCreate, uintptr(unsafe.Pointer(&name[0])), mfdCloexec, 0)
	if errno != 0 {
		return nil, 0, errno
	}
	defer syscall.Close(int(fd))
	if err := syscall.Ftruncate(int(fd), int64(n)); err != nil {
		return nil, 0, err
	}
	w, err := syscall.Mmap(int(fd), 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil, 0, err
	}
	x, err := syscall.Mmap(int(fd), 0, n, syscall.PROT_READ|syscall.PROT_EXEC, syscall.MAP_SHARED)
	if err != nil {
		syscall.Munmap(w)
		return nil, 0, err
	}
	return w, uintptr(unsafe.Pointer(&x[0])), nil
}

// installCode copies code into executable memory and returns its address.
func installCode(code []byte) (uintptr, error) {
	a := &codeArena
	if !a.single {
		n := (len(code) + 63) &^ 63
		if a.used+n > len(a.w) {
			w, x, err := mapDual(max(arenaChunk, n))
			if err != nil {
				a.single = true
				return installPages(code)
			}
			a.w, a.x, a.used = w, x, 0
		}
		copy(a.w[a.used:], code)
		entry := a.x + uintptr(a.used)
		a.used += n
		return entry, nil
	}
	return installPages(code)
}

// installPages copies code into pages of its own made read-execute.
func installPages(code []byte) (uintptr, error) {
	n := (len(code) + PageSize - 1) &^ (PageSize - 1)
	a := &codeArena
	if len(a.chunk) < n {
		m, err := syscall.Mmap(-1, 0, max(arenaChunk, n), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
		if err != nil {
			return 0, err
		}
		a.chunk = m
	}
	mem := a.chunk[:n]
	copy(mem, code)
	if err := syscall.Mprotect(mem, syscall.PROT_READ|syscall.PROT_EXEC); err != nil {
		return 0, err
	}
	a.chunk = a.chunk[n:]
	return uintptr(unsafe.Pointer(&mem[0])), nil
}

// translate makes b's translation once: concurrent CPUs sharing the block wait for the
// first.
func translate(b *block) *nativeCode {
	codeArena.Lock()
	defer codeArena.Unlock()
	if nc := b.native.Load(); nc != nil {
		return nc
	}
	nc := &nativeCode{}
	if code, n := translateCode(b, nc); n > 0 {
		if entry, err := installCode(code); err == nil {
			nc.entry, nc.insts = entry, n
			b.native.Store(nc)
			return nc
		}
	}
	b.native.Store(noNative)
	return noNative
}
