package runtime

import (
	"slices"

	"github.com/dpclsh/dpclsh/netreduce"
)

// CommandReport is what happened to one command in the tool's tree, in virtual ns from
// the moment it reached the front-end: until the last daemon had applied it to its
// compute nodes (Down) and until the merged answer was back at the front-end
// (RoundTrip), with each daemon's arrival and application (Daemons of them, in I/O-node
// order).
type CommandReport struct {
	Op              Op
	Daemons         int
	Down, RoundTrip int64
	Arrivals        []DaemonArrival
}

// DaemonArrival is when a command reached one daemon and when that daemon had applied it
// (virtual ns from the moment the front-end got the command).
type DaemonArrival struct {
	IONode           int
	Arrived, Applied int64
}

// cmdMsg is a command on its way down the tree (Answer nil) or its merged answer on
// the way up, the body of a netreduce.MsgUser whose Seq is the command's.
type cmdMsg struct {
	cmd    *Command
	ranks  *netreduce.RankSet // the ranks it concerns
	answer *Answer
}

// cmdRun is the command the tree is carrying: when the front-end got it (tree time),
// what the daemons did with it, and its answer once back.
type cmdRun struct {
	seq    uint64
	sent   int64
	report CommandReport
	answer *Answer
}

// relay is a comm node or the front-end: a netreduce Node for the data, and the
// command path. A command goes on to the children whose subtree holds some of its
// ranks; their answers are merged, and the merge goes up when the last is in (DPCL's
// reduced acknowledgements).
type relay struct {
	node *netreduce.Node
	topo *netreduce.Topology
	open map[uint64]*pendingAnswer
	tree *toolTree // its clock stamps, for OpClock
}

type pendingAnswer struct {
	want   int
	answer *Answer
}

// Step implements netreduce.Process.
func (r *relay) Step(m netreduce.Msg) []netreduce.Msg {
	if m.Kind != netreduce.MsgUser {
		r.node.Step(m)
		return r.node.Take()
	}
	rank := int32(r.node.Rank())
	up := netreduce.Msg{Kind: netreduce.MsgUser, From: rank, To: int32(r.topo.Parent(int(rank))), Seq: m.Seq}
	cm := m.Body.(*cmdMsg)
	if cm.answer == nil {
		var out []netreduce.Msg
		for _, c := range r.topo.Children(int(rank)) {
			if lo, hi := r.topo.BackendRange(c); cm.ranks.AnyIn(lo, hi) {
				out = append(out, netreduce.Msg{Kind: netreduce.MsgUser, From: rank, To: int32(c), Seq: m.Seq, Body: cm})
			}
		}
		if len(out) == 0 {
			up.Body = &cmdMsg{cmd: cm.cmd, answer: &Answer{}}
			return []netreduce.Msg{up}
		}
		r.open[m.Seq] = &pendingAnswer{want: len(out), answer: &Answer{}}
		return out
	}
	p := r.open[m.Seq]
	if cm.cmd.Op == OpClock {
		cm.answer.shiftClocks(r.tree.linkOffset(m.Seq, int(m.From), int(rank)))
	}
	p.answer.Merge(cm.answer)
	if p.want--; p.want > 0 {
		return nil
	}
	delete(r.open, m.Seq)
	up.Body = &cmdMsg{cmd: cm.cmd, answer: p.answer}
	return []netreduce.Msg{up}
}

// commandCost is what taking a command or an answer costs process rank, which it
// reached at tree time at: the front-end builds and multicasts it (fe_cmd) and
// receives each answer (fe_recv); a comm node receives it and each answer (comm_recv);
// a daemon receives it and carries it out on each of its compute nodes it concerns
// (daemon_recv + n daemon_cmd_rank). Merging answers is part of receiving them.
func (t *toolTree) commandCost(rank int, p *procInfo, m *netreduce.Msg, at int64) int64 {
	cm := m.Body.(*cmdMsg)
	switch {
	case p.kind == procDaemon:
		n := t.daemons[p.index].count(cm.ranks)
		c := t.costs.ns(daemonRecv) + int64(n)*t.costs.ns(daemonCmdRank)
		if r := t.cmd; r != nil && r.seq == m.Seq {
			applied := max(at, t.drv.BusyUntil(rank)) + c
			r.report.Arrivals = append(r.report.Arrivals, DaemonArrival{IONode: p.index, Arrived: at - r.sent, Applied: applied - r.sent})
			r.report.Down = max(r.report.Down, applied-r.sent)
		}
		return c
	case cm.answer == nil && p.kind == procFrontEnd:
		return t.costs.ns(feCmd)
	case cm.answer == nil || p.kind == procComm:
		return t.costs.ns(commRecv)
	}
	return t.costs.ns(feRecv)
}

// answered takes a command's merged answer, back above the front-end at tree time at.
func (t *toolTree) answered(m netreduce.Msg, at int64) {
	if r := t.cmd; r != nil && r.seq == m.Seq {
		r.answer = m.Body.(*cmdMsg).answer
		r.report.RoundTrip = at - r.sent
	}
}

// Command sends c, for ranks, into the front-end at job time now and runs the tree
// until the merged answer is back: the job stands still meanwhile (the machine is
// paused while the session acts), so every daemon applies c to its ranks where they
// stand, and the tree's time moves on by the round trip (shift). Whatever was already
// on its way through the tree is handled in virtual-time order with it: c queues
// behind packets at each process and on each link.
func (t *toolTree) Command(c *Command, ranks *netreduce.RankSet, now int64) (*Answer, CommandReport) {
	t.Advance(now)
	root := t.topo.Root()
	sent := now + t.shift
	t.cmd = &cmdRun{seq: c.Seq, sent: sent, report: CommandReport{Op: c.Op}}
	t.stoppedAt = now
	t.drv.Push(root, sent, 0, netreduce.Msg{Kind: netreduce.MsgUser, From: -1, To: int32(root), Seq: c.Seq,
		Body: &cmdMsg{cmd: c, ranks: ranks}})
	t.drv.AdvanceWhile(func() bool { return t.cmd.answer == nil })
	r := t.cmd
	t.cmd, t.stoppedAt = nil, -1
	t.shift += r.report.RoundTrip
	r.report.Daemons = len(r.report.Arrivals)
	slices.SortFunc(r.report.Arrivals, func(x, y DaemonArrival) int { return x.IONode - y.IONode })
	if r.answer == nil {
		r.answer = &Answer{}
	}
	return r.answer, r.report
}

// LastCommand is what happened to the last command sent to the daemons.
func (a *App) LastCommand() CommandReport { return a.lastCmd }

// command sends c down the tool's tree to the daemons serving ranks (the covering
// subtree) and waits for their merged answer (see toolTree.Command).
func (a *App) command(c *Command, ranks []int) (*Answer, error) {
	if len(ranks) == 0 {
		return &Answer{}, nil
	}
	a.seq++
	c.Seq = a.seq
	set := netreduce.NewRankSet(a.Size())
	for _, r := range ranks {
		set.Add(r)
	}
	ans, rep := a.tree.Command(c, set, int64(a.m.Now()))
	a.lastCmd = rep
	a.released(ans.Freed)
	return ans, nil
}
