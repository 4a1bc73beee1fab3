package runtime

import "sort"

// Instantiation is the creation of the tool's processes as MRNet's first mode does it
// (seed 004 section 2.5): the front-end starts the processes of the first level with a
// remote exec (rsh) each; every new process connects to its parent, authenticates, and
// gets the part of the configuration that describes its subtree; it then creates its
// own children the same way. A parent creates its children one after the other (each
// remote exec, start, connect and handshake before the next), but subtrees in different
// branches grow concurrently. When a subtree is up its root reports the end-points
// below it to its parent; the network is up when the front-end has every report. The
// I/O-node daemons are MRNet's back-ends: they are created last, by their parents, and
// report at once.
//
// It is computed in virtual time from the cost model (launch_* parameters, the links'
// latencies and per-byte costs, the parents' receive costs) when the job's tree is
// built, and it precedes the job's time 0: the job's clock, and so every later command,
// round trip and packet, starts with the network up.
type Instantiation struct {
	TotalNS int64              // until the front-end has every subtree's report
	Procs   []InstantiatedProc // the processes below the front-end, depth first in creation order
	byRank  map[int]int        // topology rank -> index in Procs
}

// InstantiatedProc is one tool process's instantiation, in ns from the front-end's start.
type InstantiatedProc struct {
	Name, Parent string
	LaunchNS     int64 // its parent starts the remote exec
	ConnectedNS  int64 // it has its configuration: started, connected, authenticated
	ReadyNS      int64 // its parent has read its subtree's report
}

// Sizes of the instantiation's messages: a configuration line per process of the
// subtree (host name, port, rank, parent, as in an MRNet topology file), and an
// end-point per back-end in a report (host, port, rank).
const (
	configBytesPerProc    = 64
	reportBytesPerBackend = 16
)

// instantiate computes the tree's instantiation from its costs.
func (t *toolTree) instantiate() Instantiation {
	c, topo := t.costs, t.topo
	in := Instantiation{byRank: map[int]int{}}
	procs, daemons := map[int]int{}, map[int]int{}
	var count func(r int)
	count = func(r int) {
		procs[r] = 1
		if t.proc(r).kind == procDaemon {
			daemons[r] = 1
			return
		}
		for _, k := range topo.Children(r) {
			count(k)
			procs[r] += procs[k]
			daemons[r] += daemons[k]
		}
	}
	count(topo.Root())
	// link is the one-way latency and per-byte cost of the link from r to its parent.
	link := func(r int) (int64, costKey) {
		if t.proc(r).kind == procDaemon {
			return c.ns(ioLatency), ioPerByte
		}
		return c.ns(commLatency), commPerByte
	}
	recv := func(r int) int64 {
		if t.proc(r).kind == procFrontEnd {
			return c.ns(feRecv)
		}
		return c.ns(commRecv)
	}
	// grow creates r's subtree, r having its configuration at connected; it returns when
	// r has read every child's report.
	var grow func(r int, connected int64) int64
	grow = func(r int, connected int64) int64 {
		if t.proc(r).kind == procDaemon {
			return connected
		}
		type report struct {
			child int
			at    int64
		}
		var reports []report
		at := connected
		for _, k := range topo.Children(r) {
			lat, perByte := link(k)
			launch := at
			at += c.ns(launchRemoteExec) + c.ns(launchProcStart)
			// The child's connect takes a round trip (SYN, SYN-ACK); authentication
			// another (the parent's nonce, the child's answer) and both ends' handling.
			at += 4*lat + c.ns(launchHandshake)
			// The parent writes the child's part of the configuration and moves on.
			at += c.bytes(perByte, configBytesPerProc*procs[k])
			in.add(k, InstantiatedProc{Name: t.name(k), Parent: t.name(r), LaunchNS: launch, ConnectedNS: at + lat})
			up := grow(k, at+lat)
			reports = append(reports, report{k, up + lat + c.bytes(perByte, reportBytesPerBackend*daemons[k])})
		}
		// The parent reads the reports in their order of arrival, one at a time.
		sort.SliceStable(reports, func(i, j int) bool { return reports[i].at < reports[j].at })
		busy := at
		for _, rp := range reports {
			busy = max(busy, rp.at) + recv(r)
			in.Procs[in.byRank[rp.child]].ReadyNS = busy
		}
		return busy
	}
	in.TotalNS = grow(topo.Root(), 0)
	return in
}

func (in *Instantiation) add(rank int, p InstantiatedProc) {
	in.byRank[rank] = len(in.Procs)
	in.Procs = append(in.Procs, p)
}

// Instantiation is how the job's tool processes were created (see Instantiation).
func (a *App) Instantiation() Instantiation { return a.inst }
