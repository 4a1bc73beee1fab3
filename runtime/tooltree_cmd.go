package runtime

import "sort"

// CommandTiming is the modeled latency of one command through the tool's tree: from the
// front-end issuing it until the last daemon has applied it to its compute nodes (Down),
// and until the reduced answer is back at the front-end (RoundTrip). Virtual ns.
type CommandTiming struct {
	Op              Op
	Daemons         int
	Down, RoundTrip int64
}

// CommandTiming models a command sent to the daemons of perIO (I/O node -> ranks it
// applies to) down the covering subtree and answered back up, each process handling one
// message at a time: a parent sends to its covered children one after the other and
// receives their answers in arrival order. Commands go while the session acts, so the
// model starts from idle processes; the answers are not reduced by a filter call of
// their own (merging is part of the receive cost).
func (t *toolTree) CommandTiming(op Op, perIO map[int]int) CommandTiming {
	nb := t.topo.Backends()
	daemons := map[int]int{} // topology rank -> ranks
	for r := nb; r < t.topo.Size(); r++ {
		if p := t.proc(r); p.kind == procDaemon {
			if n := perIO[p.index]; n > 0 {
				daemons[r] = n
			}
		}
	}
	ct := CommandTiming{Op: op, Daemons: len(daemons)}
	var visit func(r int, arrive int64) (answer int64, covered bool)
	visit = func(r int, arrive int64) (int64, bool) {
		p := t.proc(r)
		if p.kind == procDaemon {
			n, ok := daemons[r]
			if !ok {
				return 0, false
			}
			applied := arrive + t.costs.ns(daemonRecv) + int64(n)*t.costs.ns(daemonCmdRank)
			ct.Down = max(ct.Down, applied)
			return applied + t.costs.ns(daemonFwd) + t.costs.ns(ioLatency), true
		}
		at := arrive
		if p.kind == procFrontEnd {
			at += t.costs.ns(feCmd)
		} else {
			at += t.costs.ns(commRecv)
		}
		var answers []int64
		for _, c := range t.topo.Children(r) {
			send := at + t.sendCostCmd(p)
			a, ok := visit(c, send+t.linkCost(p, nil))
			if !ok {
				continue
			}
			at = send
			answers = append(answers, a)
		}
		if len(answers) == 0 {
			return 0, false
		}
		sort.Slice(answers, func(i, j int) bool { return answers[i] < answers[j] })
		busy := at
		for _, a := range answers {
			busy = max(busy, a) + t.recvCmd(p)
		}
		if p.kind == procFrontEnd {
			return busy, true
		}
		return busy + t.costs.ns(commFwd) + t.costs.ns(commLatency), true
	}
	root := t.topo.Root()
	if rt, ok := visit(root, 0); ok {
		ct.RoundTrip = rt
	}
	return ct
}

func (t *toolTree) sendCostCmd(p *toolProc) int64 {
	if p.kind == procComm {
		return t.costs.ns(commFwd)
	}
	return 0
}

func (t *toolTree) recvCmd(p *toolProc) int64 {
	if p.kind == procComm {
		return t.costs.ns(commRecv)
	}
	return t.costs.ns(feRecv)
}
