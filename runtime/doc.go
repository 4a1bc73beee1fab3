// Package runtime is the DPCL runtime of dpclsh (DPCL on BG/L, seed 000): an Application
// over a simulated Blue Gene/L job, a tool daemon in every I/O node's slot, the command
// protocol between the front-end and the daemons, probe handles with their lifecycle, and
// the data path from a probe's send through the reduction tree to the session.
//
// Usage:
//
//	a, _ := runtime.Launch(runtime.Options{Exe: "jacobi.elf", Nodes: 1024, PerIO: 8})
//	defer a.Close()
//	n, _ := a.Var(probes.Int)
//	f, _ := a.Prog.Lookup("MPI_Allreduce")
//	pts, _ := a.Prog.Points(f, probes.PointEntry)
//	inc := probes.Assign(n, probes.Binary(probes.KAdd, probes.Ref(n), probes.IntConst(1)))
//	h, _ := a.Install(pts, probes.Seq(inc, probes.Send(probes.Ref(n))),
//		runtime.InstallOptions{Filter: &netreduce.FilterSpec{Name: "sum"}})
//	h.Activate()                        // DPCL semantics: installed probes start inactive
//	a.Start()
//	for !a.Done() {
//		b, _ := a.Step(ctx, ^uint64(0)) // the machine advances only here
//		for _, m := range b.Messages { ... }
//	}
//
// # Structure
//
// The front-end (App) compiles each probe expression once (one Target per handle: the
// handle's id is the tag its sends carry), lays out every trampoline at one address of
// the instrumentation region, the same on every node, and turns install, activate,
// deactivate, remove, execute, suspend and resume into Commands: typed values, never
// encoded in-process. A command reaches each daemon whose ranks it concerns once (the
// covering subtree), which applies it to those ranks through the I/O node's debug
// interface and answers for them; the answers merge into one (ranks done, failed ranks
// with their reasons, trampolines freed).
//
// The Daemon is one tool process: it owns its netreduce.Node (its place in the tool's
// tree, where its streams' filters run), carries out the commands that reach it, and
// validates what its ranks send. It is a state machine that returns its effects, as
// etcd raft's Ready: Step (a command or a protocol message in, the messages it sends
// out) and Packet (an ais_send packet in, what to push up and what it rejected out).
// It holds no lock, starts no goroutine, and is tested with a plain twin of the debug
// interface. A patch writes, per rank, the point's new trampoline with each
// snippet's toggle on only when its handle covers the rank and is active; points where
// no handle covers the rank keep (or get back) their original word. A rank's writes of
// one command go to its memory as one batch (patchbatch.go): ranks given the same writes
// share the batch, which hands every rank starting from the same shared text the table
// the first one ended with (ppc.PokeBatch), so installing ~300 probes on 4,096 ranks
// writes them about once instead of 4,096 times. What a daemon records of the rank's
// trampolines (the one at each point, the handles whose code each holds) is a layout
// (layout.go) shared by the ranks patched alike, made once per command and starting
// layout: a map pair per rank of every point was most of a profiled job's heap (below).
// The command's images and batches are dropped when it is done. Replaced trampolines
// are unlinked and freed (zero-filled) by the next patch that finds no PC, LR, saved
// return address or trampoline-saved LR of the node inside them.
//
// Memory per rank, dpclsh profile of hello_mpi (limpio's defaults, 64 ranks per I/O
// node), peak RSS less a 64-rank run's, over the ranks; 2 cores shared at load 12-25:
//
//	                                        4,096 ranks  8,192 ranks
//	before the batched install (88819fd)    267 KiB      275 KiB
//	libmpi of 390 MPI functions             389 KiB      386 KiB
//	shared layouts                          200 KiB      201 KiB
//
// libmpi grew from 332 MPI functions to 390 (sessions, generalized requests,
// neighbourhood collectives, large-count calls), so limpio places 780 trampolines per
// rank, not 664. The per-rank maps of placed trampolines and their owners were the
// largest part of the live heap and grew 40 % with them (at 2,048 ranks, the peak's
// live heap of 426 MiB held 177 MiB of them, 89 KiB a rank); the process's peak is
// about twice the live heap, the collector's default GOGC of 100, until dpclsh's soft
// limit of 3/4 of the host's memory binds, as it did at 65,536 ranks (20.0 GiB, where
// 88819fd took 14.3 GB). Shared, the heap profile at 2,048 ranks keeps per rank the
// CPU's entry marks (18 KiB: a map of 780 addresses) and the daemons' trampoline
// images while the install command runs (26 KiB a rank, one copy per I/O node; the
// same bytes in each daemon).
//
// Replace (function replacement) is an ordinary probe at the function's entry, installed
// and activated at once, whose snippet is probes.Jump: it shares install, contexts,
// loop-head redirects and safe removal with every probe instead of a patch of its own.
//
// # The tool's tree inside the simulation
//
// The tree's leaves are the ranks, level 2 the I/O-node daemons, then the comm nodes of
// the topology, then the front-end (toolTree). Every tool process is a netreduce.Process
// (a Node, or a Node inside its handler: the daemons, and the comm nodes and front-end,
// which relay commands and merge answers) stepped by netreduce's deterministic Driver,
// etcd-raft style (step a message, take what the process returns, deliver it), in the
// order (virtual time, priority, sequence), on the goroutine that drives the machine. A probe's ais_send packet
// reaches its I/O node one collective-network latency after the send (the machine's);
// the daemon decodes it and pushes it up at once: it enters the daemon's Node, whose
// stream filter runs there, and what comes out travels to the parent. Each hop costs
// what the cost model (Costs, costs.go, with the sources of its numbers) says: a receive
// cost per packet plus per byte, plus the event loop's scan of every child connection
// (so a process's receive cost grows with its fan-out) and, at a daemon, CIOD's carrying
// of the compute node's socket write; a filter call and per-value cost when the stream
// has a filter, a forward cost per packet sent, link latency and bandwidth; a process busy
// with one packet delays the next (queueing), and links are FIFO. Nothing is buffered
// at the front-end and lifted; there are no barriers.
//
// Before that, the tool's processes are created (App.Instantiation, instantiate.go), as
// MRNet's first mode does it: each parent starts its children one after the other by
// remote exec (launch_remote_exec), each child starts (launch_proc_start), connects and
// authenticates (two link round trips, launch_handshake) and gets its subtree's part of
// the configuration; subtrees grow concurrently and each reports its end-points up when
// complete. This is computed from the costs when the tree is built and precedes the
// job's time 0, so it moves no later time: a flat tree's front-end creates every daemon
// itself and its instantiation grows with the daemons, a k-ary tree's with its depth.
//
// # Time and order
//
// The machine advances only inside Step, in quanta of virtual time (Options.QuantumNS,
// 10 us by default); after each quantum the tree handles every message due before the
// machine's clock (in the tree's own time: see how ranks and commands interleave,
// below), and Step returns (StopPaused) as soon as something reached the front-end.
// Message.Time is the job time it reached the front-end (after the front-end's own
// cost); messages are delivered once the machine's clock has passed it,
// sorted by (time, handle, rank). When the machine cannot move any more (the job ended,
// or every live rank is held) the tree runs until it is quiet, so the last messages
// arrive at virtual times after the job's end. Callbacks therefore run with the machine
// paused at most one quantum after their message arrived, and a script's output does
// not depend on GOMAXPROCS or host load. Exit and fault events stop the machine at
// their window's end.
//
// # Choices where DESIGN.md is silent
//
//   - The tree above the daemons: Options.Topology "b:F" (default b:16) is netreduce's
//     bgl:N:PER_IO:F generator; any other generator spec or an MRNet topology file must
//     have one back-end per I/O node, and the I/O nodes' ranks are grafted under them
//     (netreduce.Graft).
//   - Commands travel the tree. A command enters the front-end as a message at the
//     virtual time it is issued (fe_cmd), goes down to every comm node and daemon
//     whose subtree holds ranks it concerns (comm_recv at a comm node, comm_fwd per
//     child sent to; link latency per hop, the same both ways of a link), and each
//     daemon carries it out (daemon_recv, then daemon_cmd_rank per compute node) and
//     answers (daemon_fwd, its link). Comm nodes merge the answers of their children
//     (comm_recv each) and send one up when the last is in (comm_fwd); the front-end
//     takes each (fe_recv) and the merged answer is the command's. Commands and packets
//     share processes and links: a command queues behind packets that reached a
//     process before it, at each process it crosses, and behind them on FIFO links.
//     App.LastCommand reports what happened: when the command reached each daemon,
//     when each had applied it (Down: the last), and when the answer was back
//     (RoundTrip). Command bodies are not charged per byte.
//   - How ranks and commands interleave. The machine advances only inside Step; a
//     command is issued while it is paused at job time t (the session acts: a call, a
//     callback, a phase firing at a quantum's end). The job stands still while the
//     command is out: the call runs the tool's tree alone (every message in order,
//     packets already on their way included) until the merged answer is back at the
//     front-end, and no rank executes meanwhile, so each daemon applies the command to
//     its ranks where they stand at t, as DPCL's daemon does when it stops its ranks,
//     patches and resumes them. The tree therefore keeps its own clock, ahead of the
//     job's by the round trips of the commands so far (toolTree.shift): a packet a
//     rank sends at job time t' enters the tree at t' + shift, and every time shown
//     (Message.Time, a filter's packet stamps, protocol clocks, handle stats) is job
//     time; what reaches the front-end while a command is out is stamped t. So a
//     command leaves the tree idle behind it, packets sent after it never wait for it,
//     and the ranks' execution is exactly what it was when commands took no time. Both
//     clocks depend only on the inputs: runs stay deterministic.
//   - Ended ranks leave the tree through their daemon (Node's Died message) one
//     collective-network latency after their exit or fault, behind every packet they sent
//     (a long packet sent just before the end, which the machine hands over after the
//     notice was queued, moves the notice behind it), so open waves close with the ranks
//     that sent (Message.Count). A tree node all of
//     whose ranks have ended then leaves its parent's waves by itself, as netreduce does
//     for any node without a live child. When the last rank ends, the machine still hands
//     the daemons what its ranks sent just before (a probe on _exit delivers). Terminate
//     holds the live ranks for good and counts them as killed by signal 9.
//   - Handle stats: Sent counts packets as their daemon takes them from the machine (all
//     of them: the machine delivers every packet sent before a rank ended), Delivered the
//     ranks' packets merged into delivered messages; they are equal once every wave has
//     closed, unless a filter failed the stream. Messages counts what the front-end
//     received (a message a filter merged counts once): what a tool's scaling is judged
//     by. First and Last are the virtual arrival
//     times of the first and last message, Busy the front-end's time on the stream.
//   - A filter error fails its handle only: the Node marks the stream failed on the way
//     up and the front-end gets the fault once; the handle turns "failed", FailedAt
//     names the tree node ("daemon of I/O node 3", "comm node 1", "front-end") and why,
//     and the Batch reports it once (Batch.Failures). The job and other handles go on.
//   - Clocks (Options.Clocks): each daemon and comm node may get a seeded offset; a
//     process stamps what it receives with its own clock (Packet.Time as a filter sees
//     it), the front-end's clock is the reference, App.TreeNodes gives the truth. With
//     offsets, timeout waves at a node also run on its clock.
//   - Only a handle's own code sends on its stream: the machine gives each ais_send
//     packet the address of its sc, and the daemon forwards it only when that address
//     lies in a trampoline (or one-shot trampoline) holding the handle's snippet on that
//     rank. Other packets (the program calling the hypercall itself, a probe the rank
//     does not carry, a malformed packet) are dropped, counted (App.Rejected) and
//     reported in the batch (Batch.Rejected); the stream goes on.
//   - Execute writes, per rank, a trampoline for the instruction the rank will execute
//     next (same address on every node, contents per node since the displaced instruction
//     differs), and points the PC there; a rank blocked in a call gets a breakpoint at its
//     resume address and runs the snippet when the call returns.
//   - An entry that is also a loop head inside its function gets the loop's branches
//     redirected (probes.BuildRedirect) to its trampoline's Resume, rebuilt with it, so
//     the entry probes fire once per call. Every piece, redirects included, is built at
//     the address alloc returns (a reused piece as often as fresh memory): building first
//     and allocating after once put a redirect where the next trampoline then went.
//   - Trampoline memory: the front-end knows, per piece, which ranks hold it (placed, or
//     unlinked and not yet freed) and whether a point still branches to it; daemons free
//     pieces on every command they carry out, answers say which, ended ranks drop out,
//     and a piece nobody holds returns to a first-fit free list. A one-shot trampoline is
//     unlinked from the start and freed once its node has left it; one built for a rank
//     stopped inside another (a phase firing that meets a rank still in the last
//     firing's, blocked in its send) goes back into that one, which stays as long as it
//     does. A freed piece keeps its owners for the packet check until another takes its
//     place: its snippet's packets may reach the daemon after the free.
//   - Execute on a blocked rank arms breakpoints on every successor of the instruction it
//     resumes at (a node resuming at a breakpoint would run past it). Snippets of other
//     probes (two phases) that come while it waits join it and all run at the return,
//     each trampoline going back into the one before.
//   - Whether a point ran (ran.go): every trampoline a daemon writes has an entry mark
//     at its first word (bgl.Debug.MarkEntry), which the node records without stopping
//     or spending a cycle, so results and virtual times are those of an unmarked run. A
//     daemon reads a trampoline's mark when it replaces or removes it; App.NeverRan reads
//     the rest when the job has ended and lists the installed probes none of whose
//     points any rank reached.
//   - Probe data: app arrays and stacks are slots of the variable window (the same address
//     on every node); ReadValues and SumCounter read them back through the debug
//     interface, after a rank ended too. Each point's trampoline gets the handle's code
//     with point() and func() filled in for that point (Code.ForPoint), so the size
//     planned does not change. Code that touches program memory gets a per-process fault
//     counter slot (Stats.Faults sums it over the handle's ranks) and its trampolines'
//     fixups are registered, identically, on every I/O node's fault redirection when the
//     trampoline is planned (Job.Exec while the machine stands still), replacing what the
//     same region bytes held before; a one-shot snippet's fixups are computed from the
//     trampoline layout the daemons will build.
//   - C probe modules (LoadModule): the object is laid out, linked (probes/cobj) against
//     the program's functions and data objects (Program.Symbol) and checked completely
//     before one write command carries the whole image, zero-filled data included, to
//     every live rank: a refused object changes no rank and gives its memory back. The
//     memory comes from the trampoline allocator and is never freed (the program may keep
//     pointers into module data). One image, one address: each rank holds its own copy of
//     the module's data, so counters are per process, as DPCL's ProbeModule data is.
//     Modules are named by file name without ".o"; a second module of that name (or the
//     same file) is refused. A module resolves against itself and the program only, not
//     against modules loaded before it; probe points stay in the program's functions.
//     Module text is written per rank (4 KiB per rank and page of module, not shared
//     copy-on-write like the executable's pages).
//   - Naming code (codenames.go): the App is the machine's Symbolizer, so fault events,
//     their reports (Event.FaultReport), the MPI engine's end message and
//     Process.Backtrace name the tool's code too: "module NAME: function+0xOFF" in a C
//     module; "probe N's snippet at POINT" in a trampoline, where the walk ends (a
//     trampoline keeps no standard frame); an instruction a trampoline displaced is named
//     and walked as the program's own, "[displaced into the trampoline at 0xBASE]", since
//     it runs with the program's registers. Trampoline memory of no current point (a
//     one-shot snippet's, one replaced and not yet freed) is "a probe trampoline at 0x...".
//   - Attach (attach*.go, machine.go): the App drives a machine interface, the bgl.Job
//     methods it uses with the debug interface behind an interface, so that the job may
//     be in this process (Launch, AttachJob) or in another (Attach). Publisher is the
//     job's side: it accepts a tool that proves the secret with netreduce's handshake,
//     answers one byte (refused or accepted) and, at the end of the job's current quantum
//     (the job's choice of the attach moment), sends the proctable and how the job was
//     launched; the tool loads the program from the proctable's path. The job then
//     stands still between requests (gob-encoded, one reply each): debug calls, sampling,
//     and runs to a virtual time, whose reply carries the packets and events the machine
//     handed the tool, in order; the job pauses at the window end of every event, as a
//     tool's listener pausing it in-process does, and the tool replays them to its
//     daemons and listeners, so an attached App behaves as a launched one from the attach
//     on (a round trip per quantum and per debug call is the price). Ranks that ended
//     before the attach leave the tree at once. Detach removes every handle, phase,
//     watch and profile through the usual commands and empties the daemon slots; a tool
//     that drops without detaching has its breakpoints, watches, holds and sampling undone
//     by the job, whose probes stay (their sends get ENOTCONN) and which runs on. An
//     attached App's Close detaches; it never ends the job. Fault reports the job prints
//     name the program's code only (the tool's Symbolizer stays with the tool).
//   - Sharded jobs (Options.Shard, machine_shard.go; mpiexec -n P dpclsh --shards
//     SCRIPT.lua): every process runs the same session, App and tree, so every decision
//     is taken alike from the same inputs; each daemon acts only on the process owning
//     its I/O node, which sends every process its answer to each command (and which of
//     its points ran), and what it made of its ranks' packets, exchanged before the next
//     event reaches the listeners or RunUntil returns and applied in (arrival, rank)
//     order: the order one process's machine hands packets over. Other debug calls (a
//     Process's, fault fixups, watchpoints) are carried out by the owner and its reply
//     goes to every process. Sampling refuses: it does not run across shards yet.
//
// Errors: those the package makes start "runtime: " and are an *Error (wrapping the cause) or
// one of its own types carrying the rank, address or position it concerns; each has
// Package and Unprefixed, which the Lua host uses to name the Lua function instead.
package runtime
