package bgl

import (
	"fmt"
	"slices"
)

// runSet keeps the nodes a window may run, so a step visits those instead of scanning
// every node of the job twice: on the full machine most ranks sit blocked in MPI or
// in a shipped call for most windows, and have ended by the last ones.
//
// Its invariant is that every runnable node is listed (in listed or in woken); a listed
// node may have stopped being runnable since, and runnable drops it then. A node leaves
// the runnable state only inside a window, on its own (it blocks, exits, faults or hits
// a breakpoint), and enters it only between windows, where wake lists it: a shipped or
// MPI call's reply delivered (deliver), Continue and Start. The list is in rank order,
// which keeps the windows' order of everything (the outboxes moved to the queue, the
// events) what a scan of every node gave.
type runSet struct {
	built  bool    // listed has been filled from the job's nodes
	listed []*node // in rank order
	woken  []*node // listed since the last runnable, in the order they woke
	spare  []*node // the buffer the next runnable builds its result in
	// calls and visited count runnable's calls and the nodes they looked at: what the
	// scheduler costs between windows.
	calls, visited uint64
}

// verifyRunSet makes every runnable call compare its result with a scan of every node
// and panic when they differ. The package's tests set it.
var verifyRunSet bool

// wake lists n after something outside a window may have made it runnable.
func (j *Job) wake(n *node) {
	if !n.listed {
		n.listed = true
		j.runs.woken = append(j.runs.woken, n)
	}
}

// runnable returns the nodes that can run now, in rank order. The slice stays valid
// until the call after next.
func (j *Job) runnable() []*node {
	s := &j.runs
	s.calls++
	var out []*node
	switch {
	case !s.built || len(s.woken)*8 > len(j.nodes):
		// Waking many nodes (a launch, a collective's end): one pass over every node
		// costs less than sorting them into the list.
		out = j.scanRunnable(s.spare[:0])
		s.built = true
		s.visited += uint64(len(j.nodes))
	default:
		s.visited += uint64(len(s.listed) + len(s.woken))
		out = s.merge(s.spare[:0])
	}
	s.woken = s.woken[:0]
	s.spare, s.listed = s.listed, out
	if verifyRunSet {
		j.checkRunSet(out)
	}
	return out
}

// scanRunnable appends every runnable node to out, in rank order, and lists only those.
func (j *Job) scanRunnable(out []*node) []*node {
	for _, n := range j.nodes {
		if n == nil {
			continue
		}
		n.listed = n.runnable()
		if n.listed {
			out = append(out, n)
		}
	}
	return out
}

// merge appends to out the listed and woken nodes that are runnable, in rank order, and
// unlists the others.
func (s *runSet) merge(out []*node) []*node {
	woken := s.woken
	slices.SortFunc(woken, func(a, b *node) int { return a.rank - b.rank })
	i, k := 0, 0
	for i < len(s.listed) || k < len(woken) {
		var n *node
		if k == len(woken) || i < len(s.listed) && s.listed[i].rank < woken[k].rank {
			n, i = s.listed[i], i+1
		} else {
			n, k = woken[k], k+1
		}
		if n.runnable() {
			out = append(out, n)
		} else {
			n.listed = false
		}
	}
	return out
}

// checkRunSet panics when got is not every runnable node in rank order.
func (j *Job) checkRunSet(got []*node) {
	var want []int
	for _, n := range j.nodes {
		if n != nil && n.runnable() {
			want = append(want, n.rank)
		}
	}
	ranks := make([]int, len(got))
	for i, n := range got {
		ranks[i] = n.rank
	}
	if !slices.Equal(ranks, want) {
		panic(fmt.Sprintf("bgl: the kept runnable set %v is not the runnable nodes %v", ranks, want))
	}
}
