// Package netreduce is dpclsh's MRNet-style multicast/reduction tree: topologies,
// networks, communicators, streams, typed packets, filters and transports. It imports
// only the standard library.
//
// Usage:
//
//	topo, _ := netreduce.Generate("b:4^3")           // or ParseTopology(MRNet file)
//	net, _ := netreduce.New(topo, netreduce.Options{
//		Backend: func(rank int, p *netreduce.Packet) ([]*netreduce.Packet, error) {
//			return []*netreduce.Packet{{Values: []any{int64(rank)}}}, nil
//		}})
//	defer net.Close()
//	s, _ := net.NewStream(net.Broadcast(), netreduce.StreamConfig{Up: &netreduce.FilterSpec{Name: "sum"}})
//	s.Send(netreduce.FirstAppTag, "%d", 1)
//	p, _ := s.Recv(ctx)                              // p.Values[0] == int64(2016)
//
// # Structure
//
// Node is the protocol of one front-end or internal node as a pure state machine (messages
// in, messages out; no goroutines, no clock, no I/O), tested by driving whole trees in one
// goroutine with random interleavings. Driver steps the Nodes of a whole tree (each one
// a Process: a Node, or a Node inside a handler of the driver's user) deterministically
// in virtual time on the caller's goroutine: events in the order (time, priority,
// sequence), a process busy with one message delays the next, links are FIFO both ways,
// and what each hop costs is the user's DriverCosts (nil: nothing, every message stepped
// at once). The runtime steps a job's tool tree with it, costs and commands included; an
// in-process Network (InProcess) steps its tree with it at no cost, so a Send returns
// once the tree has done everything that follows from it. Over TCP, a runner feeds the
// front-end's Node from two bounded inboxes (from the parent, from the children) and
// queues its output per destination, and each internal node is a `dpclsh comm` process
// running the same runner: goroutines live only there. The front-end lives in the
// caller's process, and so do the back-ends unless TCP.Backend makes each one an OS
// process (RunBackend, `dpclsh comm --backend`, MRNet's CreateNetworkBE). Back-ends in
// the caller's process are not goroutines: the node that delivers to a back-end runs its
// BackendHandler inline, so 65,536 back-ends cost a few hundred bytes each.
//
// # Choices where DESIGN.md is silent
//
//   - Graft(upper, per) hangs per[i] new back-ends under upper's back-end i: a job's tree
//     is a user's topology above the I/O nodes with the machine's compute nodes below.
//     The runtime drives such a tree with the Driver (not a Transport); Network and its
//     transports serve netreduce.new and `dpclsh comm`.
//   - MsgUser is a message of the Driver's user (the runtime's commands and answers),
//     never of the protocol: Node ignores it, the user's Process handles it, and it is
//     never encoded. Msg.Body carries it.
//   - Ranks: back-ends 0..N-1 in depth-first order of the topology (so every subtree's
//     back-ends are a contiguous range), internal nodes breadth-first, front-end last.
//   - Generators: b:F^D, b:FxGxH, flat:N, k:K@N (N nodes in all, leaves are back-ends),
//     g:F:a,b,c (one field per level, one fan-out per node), bgl:N:PER_IO:FANOUT.
//   - Virtual time: packets carry virtual ns; a node's clock is the largest packet or
//     ping time it has seen. The tree itself adds no latency: whoever drives it (the
//     runtime, from the simulated machine) stamps packets. Network.AdvanceTo(t) sends a
//     ping carrying t down every live link; nodes close expired timeout waves when the
//     pongs of all their children are back, so virtual time advances leaves first and a
//     wave that times out below still reaches a parent with the same deadline.
//     Stream.RecvTimeout(d) first waits for the tree to be quiet (a ping/pong barrier),
//     then advances the clock by d.
//   - waitforall: a wave is ready when every live child has a packet queued; a dead
//     child's queued packets still count, and its absence never blocks a wave again.
//     timeout: the same, or Timeout ns after the wave's first packet. dontwait: each
//     packet on its own.
//   - Filters keep partial forms on the way up and the front-end finalizes them: avg
//     carries weighted sums (the packet count is the weight), concat carries ranks and
//     lengths, eqclass carries (value, ranks) pairs, histogram carries counts. eqclass
//     keys on a packet's first value; with params {key = K} on its first K values (a
//     row), and the values after them are summed per class (EqClass.Sums), so a tree
//     node keeps one row per class, never one per rank. histogram clamps values outside [min, max) into
//     the edge bins. mapmerge (mapmerge.go) merges bpftrace-style maps by key for dpclsh
//     trace: a rank sends a dense table of slots, a node keeps one entry per non-empty
//     key, so a merged map's size is its number of keys, never the number of ranks.
//     topk (topk.go) carries concat's form cut to the k rows with the greatest value at
//     one position (ties to the higher rank): k rows per node whatever the ranks below.
//   - A filter error fails its stream at that node; the fault travels up, every node on
//     the way marks the stream failed and drops later packets, and the front-end gets it
//     once. Other streams are not affected.
//   - Failure: Network.Kill (or, over TCP, a broken link) tells the parent; it drops the
//     child from every wave and reports the back-ends below it as lost (Network.Lost).
//   - Back-pressure (TCP): every queue is bounded. A node stops reading its children while
//     its upstream output is backed up and its parent while either direction is; waits
//     then point only toward the front-end upstream and toward the back-ends downstream,
//     so they cannot form a cycle. A front-end that does not read its streams slows the
//     back-ends down; nothing is dropped. In-process there are no queues between nodes:
//     the caller's goroutine steps the tree, and a stream's packets wait for Recv at the
//     front-end, unbounded (a bound could never drain).
//   - TCP: the front-end listens on loopback unless told otherwise; every connection
//     proves knowledge of a shared secret (HMAC-SHA256 over a fresh nonce) before anything
//     else; the secret reaches comm processes through the DPCLSH_COMM_SECRET environment
//     variable. Comm processes are started by the front-end (TCP.Command) or by hand
//     (TCP.Manual); each registers with the front-end, which sends it the topology and
//     its parent's address. Source filters (Lua) travel inside the stream's creation
//     message and are compiled by each process once.
//   - TCP back-end processes (TCP.Backend): the front-end starts one process per back-end,
//     one after the other, after its comm processes, each once its parent has
//     registered where it listens; each dials its parent (the front-end or a comm
//     process, which learns from its configuration to wait for them before it reports
//     ready), answers the challenge, and then answers packets with a named behaviour
//     (BackendBehaviours: burst, rank, pid), since code cannot follow it into another
//     process. The tree is up when every back-end has authenticated, so its
//     instantiation is real process creation, connection and handshake, in host time.
//     A killed back-end process is a broken link: its parent reports it lost.
//   - TCP availability: idle links carry a heartbeat frame every 250 ms; every read and
//     write of a link has a deadline renewed on each call (TCP.Liveness, default 10 s;
//     the start-up bound until the first frame arrives), so a frozen comm process
//     (SIGSTOP), a peer gone without a FIN or one stalled halfway through a frame breaks
//     its link and is handled like a killed node: its subtree is lost, the rest of the
//     tree goes on. Handshakes have deadlines and run concurrently (a connection that
//     never answers the challenge holds up nobody); accept loops back off on EMFILE,
//     ENFILE and similar passing errors instead of giving the listener up.
//   - Clock skew (ClockHosts): a standalone tree's hosts have seeded clock offsets and
//     costed links; MeasureClocks runs MRNet's two-phase detection over the links
//     (timestamped probes down and back, each link's offset from its least-delayed round
//     trip, offsets summed up the tree) and recovers the offsets from the readings alone.
//
// Errors: those the package makes start "netreduce: " and are an *Error (wrapping the cause) or
// one of its own types carrying the rank, address or position it concerns; each has
// Package and Unprefixed, which the Lua host uses to name the Lua function instead.
package netreduce
