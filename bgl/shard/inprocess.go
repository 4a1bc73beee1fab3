package shard

import (
	"fmt"
	"runtime"
	"sync"
	"time"
)

// InProcess returns the Exchangers of a run of n processes played by n goroutines of
// this one, each driving its own part: the in-memory twin of the MPI build, so that a
// sharded run can be checked against one process without a launcher. Abort ends the
// calling goroutine (runtime.Goexit) and makes every other's next call fail with the
// message.
func InProcess(n int) []Exchanger {
	h := &hub{n: n, slots: make([]any, n)}
	h.cond = sync.NewCond(&h.mu)
	out := make([]Exchanger, n)
	for r := range out {
		out[r] = &member{h: h, rank: r}
	}
	return out
}

// hub is where the members meet: each collective call deposits a contribution, and
// when all n have, every member reads all of them.
type hub struct {
	mu      sync.Mutex
	cond    *sync.Cond
	n       int
	gen     uint64
	arrived int
	slots   []any // this round's contributions
	result  []any // the last complete round's
	aborted error
}

// meet deposits v for rank and returns every member's contribution to this round.
func (h *hub) meet(rank int, v any) ([]any, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.aborted != nil {
		return nil, h.aborted
	}
	gen := h.gen
	h.slots[rank] = v
	h.arrived++
	if h.arrived == h.n {
		h.result, h.slots, h.arrived = h.slots, make([]any, h.n), 0
		h.gen++
		h.cond.Broadcast()
	}
	for h.gen == gen && h.aborted == nil {
		h.cond.Wait()
	}
	if h.gen == gen {
		return nil, h.aborted
	}
	// The next round cannot complete before this member joins it: result is this round's.
	return h.result, nil
}

type member struct {
	h     *hub
	rank  int
	held  string
	stats Stats
}

func (m *member) Rank() int { return m.rank }
func (m *member) Size() int { return m.h.n }

func (m *member) meet(v any) ([]any, error) {
	start := time.Now()
	defer func() { m.stats.Wait += time.Since(start) }()
	return m.h.meet(m.rank, v)
}

func (m *member) Exchange(out [][]byte) ([][]byte, error) {
	if err := checkOut(out, m.h.n); err != nil {
		return nil, err
	}
	all, err := m.meet(out)
	if err != nil {
		return nil, err
	}
	in := make([][]byte, m.h.n)
	for p, v := range all {
		b := v.([][]byte)[m.rank]
		in[p] = append([]byte(nil), b...)
		if p != m.rank {
			m.stats.BytesReceived += uint64(len(b))
			m.stats.BytesSent += uint64(len(out[p]))
		}
	}
	m.stats.Exchanges++
	return in, nil
}

func (m *member) Allreduce(op Op, vals []int64) error {
	if opNames[op] == "" {
		return fmt.Errorf("shard: allreduce with unknown operation %v", op)
	}
	m.stats.Reductions++
	all, err := m.meet(append([]int64(nil), vals...))
	if err != nil {
		return err
	}
	for i := range vals {
		acc := all[0].([]int64)[i]
		for _, v := range all[1:] {
			acc = op.apply(acc, v.([]int64)[i])
		}
		vals[i] = acc
	}
	return nil
}

func (m *member) Barrier() error {
	m.stats.Reductions++
	_, err := m.meet(nil)
	return err
}

func (m *member) Hold(what string) { m.held = what }

func (m *member) Abort(code int, msg string) {
	h := m.h
	h.mu.Lock()
	if h.aborted == nil {
		h.aborted = fmt.Errorf("shard: %s aborted with status %d: %s", describe(m.rank, h.n, m.held), code, msg)
	}
	h.cond.Broadcast()
	h.mu.Unlock()
	runtime.Goexit()
}

func (m *member) Stats() Stats { return m.stats }
func (m *member) Close() error { return nil }
