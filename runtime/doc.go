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
// deactivate, remove, execute, suspend and resume into Commands. A command travels down a
// control stream of the tree whose communicator is exactly the live ranks it concerns, so
// only the covering subtree sees it; at the leaves each rank's daemon applies it through
// the I/O node's debug interface and answers; the answers are reduced on the way up by
// the AnswerFilter (ranks done, failed ranks with their reasons, trampolines freed), so
// the front-end gets one answer per command.
//
// The Daemon is a state machine: Handle(machine, rank, command) in, Answer out; Packet
// in, Outgoing out. It never starts a goroutine and is tested with a plain twin of the
// debug interface. It decodes a command once and reuses it for its other ranks. A patch
// writes, per rank, the point's new trampoline with each snippet's toggle on only when its
// handle covers the rank and is active; points where no handle covers the rank keep (or
// get back) their original word. Replaced trampolines are unlinked and freed (zero-filled)
// by the next patch that finds no PC, LR, saved return address or trampoline-saved LR of
// the node inside them.
//
// # Time and order
//
// The machine advances only inside Step, in quanta of virtual time (Options.QuantumNS,
// 10 µs by default). A probe's ais_send packet reaches the I/O node's slot one tree
// latency later and waits in the daemon; at the end of the quantum Step forwards the daemons' packets to the tree in I/O-node
// order (BackendSend, as the rank's back-end), waits for the tree to process them with its
// virtual clock moved to the machine's (Network.AdvanceTo, a barrier), and returns what
// reached the front-end sorted by (packet time, handle, rank), keeping each stream's own
// order. Callbacks therefore run with the machine paused at the window where their message
// completed (at most one quantum after it), and a script's output does not depend on
// GOMAXPROCS or host load. Exit and fault events stop the machine at their window's end.
//
// # Choices where DESIGN.md is silent
//
//   - The tree: netreduce's bgl:N:PER_IO:F generator; Options.Topology "b:F" sets F.
//   - Ended ranks leave the tree (Network.Kill) one tree latency after their exit or fault
//     event, when none of their packets can still be on the way, so open waves close with
//     the ranks that sent (Message.Count). A tree node all of whose ranks have ended
//     (all of an I/O node's ranks, say) then leaves its parent's waves by itself, as
//     netreduce does for any node without a live child. Terminate holds the live ranks for
//     good and
//     counts them as killed by signal 9.
//   - Handle stats: Sent counts packets forwarded into the tree, Delivered the ranks'
//     packets merged into delivered messages; they are equal once every wave has closed.
//     A probe removed while some of its ranks are ahead by one send leaves a partial wave
//     that closes when those ranks end.
//   - Message.Time is when the message's (last) packet reached its I/O node; the tree
//     adds no latency of its own (netreduce leaves stamping to its driver).
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
//     unlinked from the start and freed once its node has left it.
//   - Execute on a blocked rank arms breakpoints on every successor of the instruction it
//     resumes at (a node resuming at a breakpoint would run past it).
//   - The tree runs in-process (netreduce.InProcess); its internal nodes are goroutines.
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
package runtime
