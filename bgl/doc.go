// Package bgl is the simulated Blue Gene/L: a partition of compute nodes running real
// PowerPC 440 ELF programs on package ppc's interpreter under a Compute Node Kernel (CNK),
// I/O nodes running the CIOD that executes the function-shipped file calls, a conservative
// windowed scheduler in virtual time, SLURM-like job launch with an MPIR proctable, and the
// generic tool hooks the BG/L paper's DPCL port builds on: a daemon slot per I/O node and a
// debug interface (stop/continue, memory, registers, single-step, breakpoints, entry
// marks that cost the node nothing, trap redirection, access-fault redirection, exit and
// fault events). bgl knows nothing of
// probes or trees: a fault redirection is a plain table "faulting instruction -> new PC"
// per I/O node, consulted only for access faults (unmapped or protected memory), as a
// kernel's exception table is; the tool fills it for the instructions it may let fault.
//
// Usage:
//
//	res, err := bgl.Run(bgl.JobConfig{Exe: "hello.elf", Nodes: 1024, PerIO: 64, Stdout: os.Stdout})
//	fmt.Println(res.ExitStatus())
//
//	j, _ := bgl.Launch(bgl.JobConfig{Exe: "app.elf", Nodes: 256, Stopped: true})
//	j.SetDaemon(0, myDaemon)               // gets ais_send packets and events of ranks 0..63
//	j.Exec(func(d *bgl.Debug) error { ... }) // every I/O node's slot, machine still
//	j.Start(); j.RunUntil(1_000_000)       // virtual ns
//
// The model, and what was chosen where DESIGN.md is silent:
//
//   - Partition: ranks map to compute nodes in order, node n to I/O node n/PerIO; the torus
//     is the most cubic X>=Y>=Z factorisation of the node count (64x32x32 for 65,536),
//     node n at x = n%X, y = n/X%Y, z = n/(X*Y). JobConfig.Partition makes the block
//     larger than the job and JobConfig.Place puts ranks on chosen nodes, as mpirun's
//     -mapping and map files do (placement.go), so 8 tasks can sit under 1 to 8 I/O
//     nodes; each I/O node's ranks stay consecutive (the tool's tree is built so).
//   - Time: a node's clock is its timebase, TBBase + Count.Cycles at 700 MHz; time spent
//     blocked or held is added to TBBase, so mftb and every clock syscall see it while the
//     cycle counter counts only executed cycles. CLOCK_REALTIME adds JobConfig.Epoch.
//   - Scheduler: a window starts at the earliest runnable clock or pending message and is
//     DefaultWindowNS (2 µs) long, below the 2.5 µs tree latency. Messages due before the
//     window's end are delivered first in (arrival, source, sequence) order; then the
//     runnable nodes run to the window's end on GOMAXPROCS workers (chunks of 32 nodes),
//     each touching only its own state; what they sent is queued. Blocked and held nodes
//     are not run, nor looked at: the job keeps its runnable nodes in rank order
//     (sched_set.go), a node dropping out inside a window on its own and listed again
//     between windows by what can make it runnable (a reply delivered, Continue, Start).
//     A lone runnable node with nothing in flight runs up to 10 ms at once.
//     Results depend on inputs only, never on GOMAXPROCS.
//   - CNK: one table, cnkSyscalls, {number, handler, support, note}. Function-shipped
//     calls block the node: the request reaches the I/O node one tree latency later, the
//     CIOD serves its nodes one call at a time (2 µs plus 1 ns per byte), the reply takes
//     another tree latency. Console writes reach the front-end in that serving order, i.e.
//     by (arrival at the I/O node, rank, sequence); --label prefixes "%*d: " per line as
//     srun does. getrandom and AT_RANDOM are seeded per job and rank (splitmix64). The
//     process on rank r has pid 100+r; getppid is 1 (the CIOD). Signals: handlers are
//     accepted but never run; kill/tgkill on itself ends the process by that signal (so
//     abort() gives 134 like qemu). mremap answers ENOMEM (glibc then copies);
//     mprotect(PROT_NONE) unmaps. Unknown calls: ENOSYS and EventUnsupported.
//     futex (cnk_futex.go, what libstdc++'s <iostream> set-up and glibc's locks call) has
//     one-thread semantics: WAKE wakes nobody, WAIT on a changed word is EAGAIN, a timed
//     WAIT sleeps its timeout in virtual time and is ETIMEDOUT; a WAIT with no timeout on
//     an unchanged word, which Linux would block forever, ends the rank with 128+9 after
//     an EventUnsupported naming the address and value (no thread exists to wake it).
//   - CIOD: paths resolve component by component inside the working directory (absolute
//     paths are accepted only when they lie inside it); "..", symlinks and absolute paths
//     that would leave it give EACCES, then the host call goes through an os.Root that
//     refuses escapes again. A rank sees the working directory as /job: getcwd answers
//     "/job" (never the host's path) and /job/... names the same files as the relative
//     path (host spellings of the directory are still accepted). fd 0 reads the job's stdin
//     on rank 0 and EOF elsewhere; consoles are character devices whose ioctls all answer
//     ENOTTY, so glibc buffers stdout fully, as under qemu with a pipe.
//   - Hypercalls (package abi): rank, size, I/O node, counters, ais_send (delivered to the
//     I/O node's Daemon one tree latency later; ENOTCONN with no daemon). The MPI range
//     is served by the MPI engine (mpi.go: its model, costs and job-ending rules), and
//     so is the probes' abi.HcCommInfo (mpi_probe.go: a communicator's sizes and the
//     caller's rank in it, read without creating or changing any MPI state and without
//     virtual time, from inside a window).
//   - Watchpoints (Debug.Watch, watch.go): a watched page loses its W (or R) permission;
//     an access to it faults, the node single-steps it with the page open and emits an
//     EventWatch (pc, watched address and size, old and new value) when it concerns the
//     watch. Each access to a watched page costs WatchTrapCycles (1200) more; other pages
//     and runs without watches are unchanged.
//   - Sampling (Job.SetSampling, sample.go): a profiling timer in each rank's own virtual
//     time. Every period cycles the core stops at the next instruction, the pc and the r1
//     back chain (as probes.Ustack walks it) are recorded, and the rank pays
//     SampleCostCycles (100) plus SampleFrameCycles (8) per frame walked; a run without
//     sampling is unchanged. Job.TakeSamples collects them.
//   - Faults stop the node with an EventFault (rank, pc, word, address, signal; status
//     128+signal); the job goes on. Run prints one line per killed rank on stderr:
//     "dpclsh: rank R: uncaught signal S (NAME) at pc 0xPC in F (file:line); called from
//     F1 (file:line) <- F2+0xOFF ..." (Event.FaultReport). The frames (Event.Frames, at
//     most 8) are walked as the event is delivered (fault.go, ppc.Backtrace) and named by
//     the job's Symbolizer: the image's symbols and DWARF lines unless a tool set one
//     that also knows its own code; functions without line information print as
//     name+0xOFF. The MPI engine's end message names the innermost frame:
//     "rank R: killed by signal S (NAME) in F (file:line): ending the job".
//   - Debug: the interface is bound to one I/O node and refuses other ranks; it must be
//     used from the goroutine driving the job (callbacks, Exec, between Run calls).
//     Backtrace walks a node's stack as fault reports do (up to 64 frames). A
//     continued node's clock catches up with the machine's. WriteMem patches text copy-on-
//     write, so only that node sees the change.
//   - Memory (cnk_quota.go): each node has JobConfig.MemoryMB (default BG/L's 512 MiB).
//     The CNK does not overcommit, so the bound is on what the process asked for (image,
//     stack, heap, anonymous mmaps, MAP_FIXED anywhere included), checked in brk and mmap
//     — not in ppc's page allocator: past it brk keeps the old break and mmap gives
//     ENOMEM, with one EventNoMemory per rank; sysinfo reports the node's memory and what
//     is left. Beyond 16 MiB per node, commitments also draw on a job-wide host pool
//     (HostPoolMB; default half the Go memory limit, else 8 GiB), so many large ranks get
//     ENOMEM instead of the host running out. Which rank meets an empty pool first
//     depends on the workers' order: the pool trades determinism for the host's survival
//     and only matters when the job would otherwise exhaust it.
//     What the MPI engine holds for a rank counts too (mpi_mem.go): 256 bytes per live
//     request (Isend, Irecv, until Wait/Test frees it) and, for every message not yet
//     received, its payload plus 64 bytes, charged to the sender until a receive takes
//     it. A call past the node's memory or the pool fails with MPI_ERR_NO_MEM (34, MPICH's
//     class), which ends the job like any MPI error: "rank 1: MPI_Isend at pc 0x...: out
//     of memory for a message of 16384 bytes to rank 0: 16448 more bytes exceed the
//     node's memory (7259 KiB held by MPI for this rank, 16379 KiB committed of 16 MiB)
//     (MPI_ERR_NO_MEM): ending the job". A flood of requests nobody completes or messages
//     nobody receives thus ends at the node's memory instead of the host's.
//   - Host isolation (ciod_pool.go, ciod_quota.go): CIOD opens regular files and
//     directories only (FIFOs, sockets and devices in the workdir get EACCES; opens are
//     O_NONBLOCK), so no shipped call can wait on something outside the simulation.
//     Every rank has its own table of 1,024 descriptors; open descriptions keep path and
//     offset and their host files live in a job-wide LRU pool (512, or a quarter of
//     RLIMIT_NOFILE), reopened by path when needed; a path the job unlinks or renames is
//     pinned open first. File growth in the workdir is bounded by DiskQuotaMB (default
//     512 MiB, apparent size, so sparse files count): past it writes get EDQUOT, cut
//     short first when they partly fit.
//   - stdin (ciod_stdin.go): a goroutine reads the host's stdin; rank 0's read waits for
//     it with the machine stopped (so what the program reads does not depend on when the
//     host delivered it), and Pause (Ctrl-C, SIGTERM, a guard) ends the wait with EINTR.
//     Refused calls (fork, execve, clone: one process per node) and out-of-memory events
//     are printed by Run on stderr.
//   - Environment (env.go): every rank's envp is JobConfig.Env and nothing else; the host's
//     environment reaches a job only through the variables a caller names (Exporter: set
//     by value or exported, as BG/L's mpirun -env and -exp_env; dpclsh exec --env/--export),
//     since the variables change the instructions glibc's start-up executes and the stack
//     layout, so a run would otherwise depend on who starts it. RunResult.Summary, which
//     depends on the inputs only, ends with the environment's size and EnvDigest; the
//     host's wall time (RunResult.Wall) is kept out of it.
//   - Execution: ranks run ppc's translated amd64 code where the host allows it
//     (ppc.DefaultTranslation), the interpreter with JobConfig.Interp (dpclsh exec
//     --interp). Every count, time and output is the same either way; RunResult.Translated
//     says how many instructions ran translated and, like Wall, stays out of Summary,
//     since which rank translates a shared block first depends on the host's scheduling.
//   - Shards (shard_run.go, package bgl/shard): JobConfig.Shard spreads a partition over
//     the processes of an MPI run (mpiexec -n P dpclsh --shards exec ...), each owning a
//     contiguous set of psets (I/O nodes with their ranks; the others are not created).
//     Each window the processes agree on pause, the job's end, the window's start and
//     whether any process has a message due in it (one max-reduction). A window none has
//     one for is quiet: its nodes only run, nothing crosses shards, and that reduction
//     is all it costs (it also decides the lone-node shortcut). Otherwise the lone-node
//     shortcut is a sum after the deliveries, and at the window's end what crosses
//     shards (console writes to process 0, events to all) travels as length-prefixed
//     records keyed by the delivering message's (arrival, source, sequence) and is
//     applied in that order, so stdout, stderr, statuses and Summary are the bytes of one
//     process; only process 0's streams get output. The MPI engine runs across shards
//     (mpi_shard.go): each process serves its own ranks' calls, and a window's deliveries
//     go in rounds of mpiRoundNS (1 µs, the cheapest collective), each ended by an
//     exchange of the engine's records: a message for a rank of another shard (its
//     memory stays charged to the sender until the receive is reported back), a
//     collective entry with its part for the processes holding members (each completes
//     the collective at the round's end, in the order of the last entries, with one
//     process's result, time and wakes). So the windows, every delivery and every
//     output are one process's. Job.Account (RunResult's sums, collective) gives exec
//     --stats and the Lua host's --stats the whole job's line on every process and
//     process 0 every process's ShardStats, counted from the job's launch. Point to point, requests, every collective (blocking
//     and nonblocking), Comm_split, _dup, _idup, _create and _free, intercommunicators
//     (Intercomm_create and _merge, their point to point and collectives, whose groups
//     may lie on any processes) and Finalize run across shards. MPI_Comm_create_group's
//     hidden communicator, numbered in one process at its first member's call, is
//     numbered at the end of that call's round, in key order with the communicators
//     the round completes, and its members return at their call's time
//     (mpi_shard_stage.go). One-sided windows and MPI-IO end the run naming rank and
//     call ("rank 0: MPI_Win_create at pc 0x...: does not run across shards yet (run
//     without --shards)"). A job the engine ends (MPI_Abort, a failed call, a fault, a
//     nonzero exit while others run, a deadlock with its report of who waits for whom)
//     ends as in one process, with the same report, statuses, Summary and exits in the
//     same order: a deadlock's last-blocked rank exits at its own clock, as the call
//     that finds it in one process ends it (mpi_shard_end.go).
//     A job may launch stopped for a tool: runtime's shardJob (runtime/machine_shard.go)
//     drives it from every process, each running the same Lua session and tool tree, and
//     ShardOfIONode says which process carries out a daemon's commands and debug calls. Why
//     that and not process 0 alone running the session and the tree's upper levels: the
//     tool's tree is a deterministic simulation in virtual time on the driving goroutine,
//     interleaved with the machine quantum by quantum (runtime.App.Step) and with commands
//     that stop the job while they travel; running it whole everywhere makes every
//     process's session take the same decisions from the same inputs, so only what lives
//     with the ranks must cross: a command's answer from the daemon's owner (one exchange
//     per daemon and command), what a daemon made of its ranks' packets (exchanged before
//     the next event or the end of the run's quantum, applied in (arrival, rank) order),
//     and the replies of the few other debug calls. Nothing waits on process 0 to step a
//     tree the others need, and the output is one process's bytes because every process
//     computes it alike; only process 0's streams get it. Not yet across shards: sampling,
//     bgl.run and bgl.launch from Lua, dpcl.attach, app:serve, the interactive shell,
//     subcommands other than exec, profile and trace (which run sharded sessions; a file
//     a sharded session writes is written by process 0, script.WriteFile). Psets stay
//     where launch put them (equal contiguous ranges): rebalancing by the instructions
//     of past windows would move a pset mid-run, which means carrying its ranks' whole
//     state (memory, descriptors, the MPI engine's queues and requests, the daemon's
//     trampolines) through the exchange at an agreed virtual time; not done yet.
//     The exchange is the system's MPI (MPICH through cgo, `go build -tags mpi`), not a
//     mesh of sockets of our own, because that is what the users' clusters give them: the interconnect (InfiniBand,
//     Slingshot) is reached through MPI, the launcher they already use starts and wires
//     the processes through PMI (no hosts or ports to configure), and its fault model is
//     theirs: one process dying ends the job; bgl/shard's supervisor names the shard and
//     what it held when that happens (kill -9 of either of a shard's two processes:
//     "dpclsh: shard 1 of 2 (holding psets 4-7, ranks 32-63) died: killed by signal 9
//     (killed); ending the run", or "...: its supervisor (pid N) was killed; ..."; mpiexec
//     then ends the others and no process is left). The default build has no cgo and one
//     shard.
//     What a sharded run costs (examples/bench/shards.sh; its run, shards.txt, was on 2
//     cores shared with other work, load averages 12-30). hello on 65,536 ranks: 136
//     windows and, per process, 268 allreduces and 131 exchanges of records (an alltoall of
//     lengths and an alltoallv); peak RSS per process 3,361 MiB at 1 process, 1,769 at 2,
//     ~940 at 4. CoMD on 2,048 ranks, one step (16.3 G instructions; 4,096 ranks is 33 G,
//     beyond ten minutes a run here): 16,748 windows, 18,974 allreduces, 6,673 exchanges,
//     34 MB of records at 2 processes and 74 MB at 4; RSS 1,300, 700 and 397 MiB; the
//     shards' instructions agree to 0.02 %. Output is byte-identical throughout. Here
//     sharding is slower, not faster (CoMD: 524 s wall and 175 s CPU at 1 process, 801
//     and 420 at 2, 1,241 and 1,126 at 4): MPICH (ch4:ucx) polls while a process waits
//     in a collective, so with more processes than free cores the waiting one takes the
//     core the computing one needs; each process waited 428 s at 2 and ~1,050 s at 4,
//     25.6 and 62.6 ms a window, 11.5 and 30 ms a collective: the scheduler's time
//     slices, not the exchange (exchangecheck alone, 2 processes under the same load:
//     ~1 ms a collective). Even one process pays a hand-off of each call to the locked
//     MPI thread: 34 s of CoMD's 175 (1.06 ms a call under that load; exchangecheck at 1
//     process: 50 µs a call, MPI's own part 0.4 µs).
//     A model for a cluster, one core per process: T(P) = C/P + A·t_ar(P) +
//     X·(t_a2a(P) + t_a2av(P)) + (A+2X)·h, with C the compute (CPU of the 1-process run
//     less its waiting: CoMD 140.5 s, hello 23.5 s), A and X the allreduces and exchanges
//     above, h the hand-off (50 µs as measured here, a bound). The latency: an 8-byte
//     MPI_Allreduce over 128 InfiniBand hosts takes 6.01 µs host-based (Graham et al.,
//     "Scalable Hierarchical Aggregation Protocol (SHArP): A Hardware Architecture for
//     Efficient Data Reduction", COMHPC@SC 2016; 2.83 µs offloaded), 7 recursive-doubling
//     steps, so α = 0.86 µs a step and t_ar = log2(P)·α: 3.4 µs at 16, 5.2 µs at 64
//     processes; the alltoall of 4-byte lengths (Bruck's algorithm in MPICH) the same;
//     the alltoallv at most (P-1)·α, 12.9 and 54 µs; the records' bytes (2.8 KB a
//     process an exchange at 4 processes, fewer as shards shrink) add 0.2 µs an exchange
//     at 12.5 GB/s. CoMD at 4,096 ranks (64 psets, so 64 processes own one each; 2,048
//     ranks have 32, and past 32 processes some would own none), weakly scaled from the
//     run above: C = 281 s, the same windows; at 16 processes 17.6 s of compute + 0.17 s
//     of collectives + 1.6 s of hand-offs = 19.4 s, a speed-up of 14.6 over one process
//     (282.6 s); at 64 processes 4.4 + 0.49 + 1.6 = 6.5 s, 43. hello on 65,536 ranks: 530
//     collectives cost 9 ms at 64 processes and 27 ms of hand-offs, the console's lines to
//     process 0 (15 MB at 4 processes, ~20 MB at 64) 2 ms, so 23.5 s becomes ~1.5 s at 16
//     and ~0.4 s at 64 (speed-ups 16 and 58) if nothing else stays serial; what does
//     (process 0 writing the output, each process's start) is not measured here. So the
//     exchange is not what limits a cluster run: the hand-off is (calling MPI from the
//     simulating goroutine, MPI_THREAD_SERIALIZED, would remove it, CoMD's 64-process time
//     becoming ~4.9 s, 58), then load balance and the serial part.
//
// MPI (mpi*.go, target/libmpi*.c, target/mpi.h): the engine's model is in mpi.go, the
// collective costs in mpi_cost.go. What a program can call: point to point (Send, Recv,
// Isend/Irecv, Ssend/Rsend/Bsend and their I-forms, Buffer_attach/detach, Sendrecv and
// Sendrecv_replace, Isendrecv(_replace), Probe/Iprobe, Wait/Test and their all/any/some
// forms, Request_get_status (a Test that keeps the request), Cancel of a receive no
// message has matched yet (it completes cancelled, with bit 31 of MPI_Status.count set
// for Test_cancelled; a send, complete when made, is never cancelled), Get_count for
// every type, MPI_PROC_NULL anywhere a rank goes); communicators and groups (COMM_SELF,
// Comm_dup/split/create/free/compare/group, Group_incl/excl/translate_ranks/compare/
// free and the set operations union/intersection/difference/range_incl/range_excl
// (libmpi_groups.c); each communicator has its own matching and collective context;
// Comm_create_group (a collective of the group's members only: the engine names one
// hidden communicator per parent, group and tag, which the members duplicate),
// Comm_idup (a nonblocking collective whose blocking form is Comm_dup: the handle is
// written when Wait or Test completes it), Comm_set_info/get_info and
// Comm_(i)dup_with_info (no hint is acted on, so none is kept), Comm_split_type
// (MPI_COMM_TYPE_SHARED: a BG/L compute node's memory is its one rank's, so each rank's
// shared-memory communicator is itself; HW_GUIDED knows "mpi_shared_memory", the node);
// intercommunicators (mpi_inter.go,
// libmpi_inter.c): Intercomm_create over a peer communicator and leader tag,
// Intercomm_merge (the high = false group first; on a tie the group whose rank 0 has the
// lower world rank, as MPICH), Comm_remote_size/remote_group/test_inter, Comm_dup/split/
// create/compare/free of one, point-to-point ranks naming the remote group, and Barrier,
// Bcast, Reduce, Allreduce, Reduce_scatter, Gather(v), Scatter(v), Allgather(v) and
// Alltoall(v/w) with MPI_ROOT and MPI_PROC_NULL, built in libmpi from point-to-point
// calls on a hidden twin intercommunicator and the local group's collectives, as MPICH
// builds them, so they cost what those messages cost); collectives
// (Barrier, Bcast, Reduce, Allreduce, Gather(v), Allgather(v), Scatter(v), Alltoall(v),
// Reduce_scatter, Scan, Exscan, MPI_IN_PLACE where the standard allows it; the
// blocking Reduce_scatter_block and Alltoallw (derived per-peer types packed into bytes
// for the engine's exchange, libmpi_collmore.c); reduce-scatters with a user operation
// (the user reduction of the whole vector, each rank keeping its block); Reduce_local
// (user operations, and the predefined ones on the integer and floating types) and
// Op_commutative; the
// nonblocking Ibarrier, Ibcast, Ireduce, Iallreduce, Igather(v), Iallgather(v),
// Iscatter(v), Ialltoall(v/w), Iscan, Iexscan, Ireduce_scatter(_block) in mpi_icoll.go: the call enters the collective in the
// communicator's one order of collectives and returns a request that completes in a
// progressing call (Wait, Test and their forms) at or after the blocking form's
// completion time, when the results are written; predefined types and operations only);
// datatypes
// (basic and pair types with MINLOC/MAXLOC, lowest index on ties, Type_size leaving a
// pair type's padding out as MPICH does; the C99 fixed-size integers, MPI_WCHAR, the
// C and C++ booleans and complex types, and MPI_LONG_DOUBLE(_INT) and the long double
// complex types, the PowerPC's 16-byte IBM double-double, which move as data but which
// no reduction takes (mpi_types_c99.go); Type_match_size, Type_get/set_name; as many
// derived types as memory holds (the table grows); a derived type freed while a
// persistent request, a pending receive or a type built on it uses it lives until they
// are done; bounds as MPICH computes them, a resized type's moved lower bound or
// negative extent and negative strides carried through every constructor; a
// nonblocking receive of a derived type that gets a short message writes only what
// arrived; Type_contiguous/
// vector/indexed/create_struct/commit/free/size/get_extent, Get_address; the MPI-2
// constructors create_hvector/hindexed/indexed_block/hindexed_block/resized and dup,
// get_true_extent, size_x/get_extent_x/get_true_extent_x, get_envelope/get_contents
// (MPICH's combiner values; a derived type in the contents comes back as the handle the
// constructor was given, one more handle for the caller to free, as in MPICH),
// Pack/Unpack/Pack_size and MPI_PACKED (libmpi_dtcons.c); MPI 4.0's large-count (_c)
// constructors, size and extent queries and Pack/Unpack(_external)/Pack_size, whose
// MPI_Counts must fit 32 bits (libmpi_dtlarge.c; a contiguous run of any length is one
// block of the type's map, so a type of a billion bytes costs no more than one of four); Pack_external,
// Unpack_external and Pack_external_size in "external32", which on the big-endian
// PowerPC is MPI_Pack's representation except for long double, refused, and MPI_AINT,
// 8 bytes there (libmpi_packext.c); MPI_AINT, MPI_OFFSET and MPI_COUNT are datatypes of
// their own, as in MPICH (mpi_types_aint.go); datatype attributes
// (Type_create_keyval and the rest, copied by Type_dup, deleted by Type_free) and
// Get_elements(_x) (libmpi_tattr.c); derived types
// are packed and unpacked in libmpi around every call that takes a datatype, point to
// point and every collective, either side or both, in place too (libmpi_dtcoll.c): the
// engine moves bytes; a predefined operation on a derived type is MPI_ERR_OP, as in
// MPICH); operations (the
// predefined ones, logical and bitwise included, and Op_create: user functions run in
// the rank, in libmpi, in rank order); Cartesian topologies (Cart_create/get/coords/
// rank/shift/sub, Cartdim_get, Topo_test, Cart_map; Dims_create picks MPICH 4's grid,
// the least spread one, ties to the larger smallest dimensions, libmpi_dims.c; Cart_sub
// keeping no dimension gives the origin a communicator congruent to MPI_COMM_SELF and
// the others MPI_COMM_NULL, as MPICH); graph and distributed graph topologies (libmpi_graph.c:
// Graph_create/get/neighbors(_count)/map, Graphdims_get, Dist_graph_create(_adjacent)
// with MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY, Dist_graph_neighbors(_count); a general
// Dist_graph_create exchanges the named edges with Allgather(v)); matched probes
// (mpi_mprobe.go: Mprobe/Improbe take the message out of the matching queue under a
// message handle only Mrecv/Imrecv receive, MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC);
// a status's MPI_ERROR is left as the program set it, as MPICH leaves it, except in the
// empty status of MPI_REQUEST_NULL; Init/Initialized/Finalize/
// Finalized, Abort, Wtime/Wtick (virtual time, 1 ns), Pcontrol (accepted, no effect),
// Get_processor_name ("bgl-node-R"), Get_version (3.1).
// MPI 4 sessions (libmpi_session.c): Session_init/finalize/get_info/get_num_psets/
// get_nth_pset/get_pset_info/get_errhandler/set_errhandler, the process sets
// "mpi://WORLD" and "mpi://SELF" (names compared without case, as MPICH), their
// "mpi_size" in the pset info, Group_from_session_pset, and Comm_create_from_group
// (Comm_create_group over MPI_COMM_WORLD, the string tag hashed to an integer tag, the
// given handler set on the result). A session's "thread_level" is the level asked for:
// one thread per process means no two calls overlap. A program without MPI_Init starts
// the machine's MPI with its first session and ends it (MPI_Finalize's collective) with
// its last; the MPI runs once per job, so a session after that is refused. The
// large-count point-to-point calls (MPI_Send_c ... MPI_Get_count_c, libmpi_pt2pt_c.c)
// are the int forms; a count above INT_MAX, more than a node's 32-bit address space can
// hold, is MPI_ERR_COUNT. Generalized requests (mpi_greq.go, libmpi_greq.c):
// Grequest_start makes an engine request only Grequest_complete completes, so Wait, Test
// and their array forms progress it with the rest; the program's query callback (filling
// the status, with Status_set_elements(_x) and Status_set_cancelled) and free callback run
// in the rank when one of those calls frees it, the free callback at Request_free (as
// MPICH, complete or not), the cancel callback at Cancel, the query callback at
// Request_get_status; a rank waiting on one nothing completes is a deadlock, named so.
// Persistent requests (Send_init and the other modes' inits, Recv_init, Start, Startall,
// Request_free) are kept by libmpi (libmpi_persist.c) over the nonblocking calls.
// MPI_Request_free of any other request goes to the engine (mpi_req.go): the handle
// becomes MPI_REQUEST_NULL at once; an active request is detached and completes on its
// own (a freed Irecv still takes its message into its buffer; a freed Isend's message is
// still delivered), its 256-byte charge given back when it completes; a handle never
// issued or already freed, or MPI_REQUEST_NULL (as MPICH), is MPI_ERR_REQUEST naming it.
// mpi.h (and mpif.h) define MPI_ERR_NO_MEM (34), the class a job out of node memory ends with.
// Errors (mpi_errhandler.go, target/libmpi_err.c): the default handler,
// MPI_ERRORS_ARE_FATAL as in MPICH, ends the job with a line naming rank, call, pc,
// argument and class; the status is the class. MPI_Comm_set_errhandler with
// MPI_ERRORS_RETURN or a user handler (MPI_Comm_create_errhandler) makes the engine return
// the class of a failing call on that communicator instead (HcMPICommErrhandler tells it
// per rank and handle); calls without a communicator (Wait, Test...) or with an invalid
// one follow MPI_COMM_WORLD's. Duplicates and splits inherit the handler. A user handler
// runs on MPI_Comm_call_errhandler and for errors libmpi finds itself in the calls of
// libmpi_err.c, libmpi_info.c and libmpi_attr.c; an engine error returns its class
// without running it, and the datatype and operation errors of libmpi_types.c stay fatal.
// MPI_Error_string/class and MPI_Add_error_class/code/string (dynamic numbers above
// MPI_ERR_LASTCODE, 63) are in libmpi. So are MPI_Info (ordered keys), MPI_Alloc_mem
// (malloc), communicator attributes (MPI_TAG_UB 2^31-1, MPI_WTIME_IS_GLOBAL 0: each node
// has its own clock, MPI_UNIVERSE_SIZE the job's size; keyvals with copy callbacks run by
// MPI_Comm_dup and delete callbacks by MPI_Comm_free and, for MPI_COMM_SELF, first thing in
// MPI_Finalize; the MPI-1 Keyval/Attr names), communicator names, MPI_Init_thread and
// MPI_Query_thread (always MPI_THREAD_SINGLE: one thread per node) and
// MPI_Get_library_version. These cost only the instructions they execute, as
// MPI_Comm_rank on MPI_COMM_WORLD does; being MPI_FN functions, probes and limpio see them.
// Fortran (target/libmpi_f*.c, mpif.h, mpi.f90): libmpi.a's second member binds every C
// function as gfortran's mpi_xxx_, converting arguments and calling the C entry, so the
// engine and the tools see one call path; handles are the C integers, a status is C's
// MPI_Status (MPI_STATUS_SIZE 4), the sentinels are addresses in the common block
// /MPIFPRIV/, and Fortran's 1-based indices are converted. The Fortran datatypes are the
// engine's too (mpi_types_fortran.go): COMPLEX and DOUBLE COMPLEX (SUM, PROD rounded per
// operation as the target computes), LOGICAL (LAND, LOR, LXOR), 2REAL and
// 2DOUBLE_PRECISION (MINLOC, MAXLOC with an index of the value's type), 2INTEGER, the
// sized INTEGERn/REALn/COMPLEXn and CHARACTER.
// Neighbourhood collectives (mpi_neighbor.go, target/libmpi_neighbor.c):
// Neighbor_allgather(v) and Neighbor_alltoall(v/w) and their I-forms on Cartesian, graph
// and distributed graph communicators, with MPICH's neighbours in MPICH's order (per
// dimension the rank below, then above; MPI_PROC_NULL at a non-periodic edge) and derived
// types; libmpi lists the byte blocks each rank sends and receives, the engine moves
// them as one collective of the communicator costing the torus latency across it plus
// the busiest rank's injection, and a repeated neighbour's blocks match in the order
// MPICH's receives match them (Neighbor_alltoall last slot first, so a periodic ring of
// one or two ranks gets each direction's block in its own slot).
// Nonblocking reductions with a user operation (Ireduce, Iallreduce, Iscan, Iexscan,
// Ireduce_scatter(_block), target/libmpi_iuop.c): the call posts an Igather or Iallgather
// of every rank's contribution (its whole extent, so derived types too) and the Wait or
// Test that completes the request folds them as the blocking forms do, right to left over
// the ranks, so non-commutative results are MPICH's; the function is taken at the call.
// Not implemented: nonblocking collectives on intercommunicators, nonblocking
// collectives with derived types other than one run of a predefined type (which travels
// as that type, libmpi_iplain.c) except in the reductions with a user operation, threads.
// Synchronous
// sends (mpi_ssend.go: Ssend, Issend, Ssend_init's requests) are copied at the call as
// every send, but complete only once a receive or matched probe at the destination has
// taken the message (when that rank's MPI makes progress) and the news has come back, one
// small message's latency later; so Ssends waiting on each other deadlock, as under
// MPICH, and the report names them, across shards too.
// One-sided communication (mpi_win*.go, target/libmpi_win.c, libmpi_rma.c): Win_create,
// Win_allocate, Win_allocate_shared, Win_create_dynamic with Win_attach/detach,
// Win_free, Win_get_group, Win_shared_query, names, attributes (WIN_BASE, WIN_SIZE,
// WIN_DISP_UNIT, WIN_CREATE_FLAVOR, WIN_MODEL: MPI_WIN_UNIFIED) and keyvals, error
// handlers (a window's starts as MPI_ERRORS_ARE_FATAL); Put, Get, Accumulate,
// Get_accumulate, Fetch_and_op, Compare_and_swap (predefined operations, MPI_REPLACE and
// MPI_NO_OP) and Rput/Rget/Raccumulate/Rget_accumulate, with derived datatypes on the
// origin, result and target sides (libmpi flattens each into blocks of predefined types
// the engine reads and writes in place); Win_fence, Post/Start/Complete/Wait/Test,
// Lock/Unlock (exclusive, shared, MPI_MODE_NOCHECK), Lock_all/Unlock_all,
// Flush(_all/_local/_local_all) and Win_sync. A window's handle is a private duplicate
// of its communicator. An operation is checked and its origin data copied when issued;
// the target's memory is written, and fetched data written to the origin, by the engine
// at the call that completes it: the fence that ends the epoch (after every member
// entered), the Unlock, Unlock_all or Flush of the origin, its Complete (once every
// target of its Start posted), or Win_free. Operations complete in issue order, one at a
// time, so accumulates to an element are atomic. Win_lock blocks until the lock is
// granted (MPI allows it); Win_wait until every origin of the Post group completed.
// A request-based operation, valid only in a passive-target epoch, is flushed when issued
// and its request is complete. A Blue Gene/L node's shared-memory domain is its one
// rank: Win_allocate_shared over more ranks fails with MPI_ERR_RMA_FLAVOR (58), and a
// window's memory is never another rank's to load or store. Costs follow the
// point-to-point model: a call that completes operations pays, for each origin, a torus
// round trip to its farthest target (2 x (TorusLatencyNS + hops x TorusHopNS)) plus
// TorusNSPerByte per byte moved; a fence or free is a barrier (BarrierNS) plus the
// largest member's completion; Complete pays at least a round trip (its targets learn
// of it); a lock, issuing an operation and Win_sync cost MPICallNS like any call. Range, rank, lock-type and epoch errors are
// MPI_ERR_RMA_RANGE, MPI_ERR_RANK, MPI_ERR_LOCKTYPE and MPI_ERR_RMA_SYNC.
// MPI-IO (target/libmpi_io.c, libmpi_io_rw.c, mpi_io.go): File_open/close/delete,
// set_size, preallocate, get_size, get_group, get_amode, set_info/get_info (hints kept,
// none acted on), set_view/get_view (etype and filetype derived, contiguous or strided;
// datareps native, internal and external32, the same bytes on the big-endian 440),
// read/write with explicit offsets, the individual and the shared file pointer, their
// _all, _ordered, nonblocking (iread...iwrite_at_all) and split-collective forms, seek,
// get_position(_shared), get_byte_offset, sync, set_atomicity (recorded), file error
// handlers, and MPI_Type_create_subarray/darray for views. A rank does its own I/O with
// the POSIX calls the CNK ships to its I/O node, so files are the job's working
// directory's and every access pays the CIOD's costs (ciodCallNS per call plus a ns per
// byte, one call at a time per I/O node): a contiguous access is one _llseek and one read
// or write, a strided one a pair per contiguous range (a read of close ranges reads their
// span once). A file's handle is a private duplicate of its communicator; opening
// (rank 0 creates, then the others open), closing, set_view, set_size and the collective
// accesses sync the group with that communicator's barrier or broadcast, at their cost. The
// engine keeps only the shared file pointer (one CIOD call per access, taken in
// virtual-time order) and the requests of nonblocking I/O, which is done at the call: an
// independent request is complete, a collective one completes as an Ibarrier of the group
// would, never at the call. Files start with MPI_FILE_NULL's handler, MPI_ERRORS_RETURN;
// file system errors map to MPI_ERR_NO_SUCH_FILE, _FILE_EXISTS, _ACCESS, _NO_SPACE,
// _QUOTA, _READ_ONLY or _IO, a bad amode to MPI_ERR_AMODE, an etype or filetype with
// negative, decreasing or (unless read-only) overlapping pieces to MPI_ERR_IO.
//
// MPI costs (virtual ns; constants in mpi.go and mpi_cost.go). Sources: [A] Adiga et
// al., "Blue Gene/L torus interconnection network", IBM J. Res. Dev. 49(2/3), 2005;
// [G] Gara et al., "Overview of the Blue Gene/L system architecture", same issue;
// [M] Almási et al., "Design and implementation of message-passing services for the
// Blue Gene/L supercomputer", same issue; [C] Almási et al., "Optimization of MPI
// collective communication on BlueGene/L systems", ICS 2005.
//
//	parameter          value   basis
//	MPICallNS           250    per-call software overhead, order of [M]'s measured costs
//	MPISendNS          1000    sender overhead; with the torus latency a nearest-neighbour
//	                           message takes ~3.6 µs, near [M]'s ~3 µs half round trip
//	TorusLatencyNS     2500    base latency, never below the scheduler window (exactness)
//	TorusHopNS          100    per hop, order of the router delay in [A]
//	TorusNSPerByte        6    1.4 Gb/s = 175 MB/s per link direction [A]
//	TorusLinks            6    links a node injects on [A]
//	CollTreeBaseNS     1000    tree injection and software, so that a crossing of the
//	CollTreeHopNS        90    16 levels of 65,536 nodes is ~2.5 µs, the tree latency [G]
//	CollTreeNSPerByte     3    2.8 Gb/s = 350 MB/s collective network link [G]
//	BarrierNS          1500    global interrupt network, ~1.5 µs for the machine [G]
//
// A reduction or broadcast crosses the tree once (Bcast, Reduce, Gather, Scatter, Scan)
// or twice (Allreduce, Allgather, Reduce_scatter, communicator creation), so its cost
// grows with log2 of the communicator's size; an all-to-all uses the torus and costs
// the diameter's latency plus the larger of the injection and the bisection bounds, as
// [C] describes it (bisection-bound at scale). examples/bench/coll_cost.lua measures
// both against the ranks.
//
// A job tools attach to while it runs (dpclsh exec --listen, bgl.launch with listen): bgl
// offers the mechanism, the tool's runtime the protocol. JobConfig.Drive runs the started
// job in Run's place; the driver (runtime.Publisher) runs it with RunUntil in quanta of
// 10 virtual us and attaches a tool that came meanwhile only at a quantum's end, so the
// moment of the attach is a virtual time the job chose, never the middle of a window.
// While a tool is attached the machine advances only inside the tool's run requests: the
// driver then calls RunUntil for the time the tool asked and nothing else, so, from the
// attach on, the job sees the tool exactly where a tool that launched it would be seen.
// A rank waiting for host input (stdin) holds the scheduler, so a tool attaches once the
// input came. Job.Config is what a tool learns of the job (its program's absolute path,
// arguments, environment, partition and placement); SetTool records that a tool of the
// same process drives the job, so that its owner does not run it meanwhile. Without a
// daemon in its slot an I/O node answers ais_send with ENOTCONN, so a probe a dropped
// tool left in place costs its cycles and nothing else.
//
// Scale: where the time of a 65,536-rank job goes (runtime's BenchmarkFullMachine: launch
// loop.elf on 65,536 ranks, 64 per I/O node, install and activate a counting probe, run
// until the one summed value is back). On the shared 2-core VM these were measured on,
// a page of host memory costs about 12 µs of the process's CPU the first time it is
// written, however it was obtained (the hypervisor backs it then), and a page faulted
// in by the guest kernel one at a time about 8 µs more: 1 GiB written page by page took
// 5.2 s of CPU, mapped populated 0.27 s plus the 12 µs pages. So the run's CPU follows
// the memory it touches, and the profile before said so: page faults under the first
// store to each page (ppc.prefault, Memory.write), the allocation of page-table leaves
// and CPUs, the collector. What was done, in CPU seconds (user+sys) and peak RSS:
//
//	                                          CPU s   peak RSS   private B/rank
//	before                                     40.4   4,043 MiB      41,552
//	page bytes mapped populated (ppc)          31.9   3,707 MiB      38,672
//	  and 64-page leaves
//
// (one run each at load 22-27, so CPU seconds vary by some seconds between runs.) A
// merger of identical pages across ranks (as KSM) was built and measured: 2,748 MiB and
// 26,381 private bytes per rank, but no CPU saved (what it spares in new host pages it
// spends in hashing and in copying pages stored to again: at 4,096 ranks it merged 20
// pages per rank to keep 3 shared) and fewer instructions translated (93 % to 88 %: a
// merge drops the rank's page cache), so it is not in. Then the CPU's block cache was
// allocated when it first runs (a CPU of 4,224 bytes took the allocator's 4,864-byte
// size; apart, 4,352 bytes) and two sources of launch garbage went (the initial stack
// padded a byte at a time, dcbz's line escaping): measured side by side, before at load
// 23-27 and after at load 32-49,
//
//	                                          CPU s   peak RSS
//	before                                     51.5   3,636 MiB
//	lazy block cache, less launch garbage      53.9   3,519 MiB
//
// so 1.8 KiB less per rank and no CPU change that this box's load lets one see (the
// CPU seconds of both runs are inflated by the load: 31.9 s was measured at load 22).
// What the profile (at 4,096 ranks) holds now: the first stores to each rank's pages
// (ppc's Memory.write and writePage, a third: the eight pages a rank writes are 32 KiB
// of its 55 KiB), the translated code and interpreter running loop.elf, the allocator
// (a fifth: each rank's CPU, page-table root of 2.3 KiB, its private mids and leaves of
// 576 bytes), the launch (createNodes, an eighth) and the tool's App.Step (an eighth).
// Then three changes, measured at 4,096 and 16,384 ranks (runtime's BenchmarkFlowScale,
// the same flow on fewer ranks) and once at 65,536: the scheduler keeps its runnable set
// (sched_set.go) instead of scanning every node twice per window and allocating the list
// each time (at 16,384 ranks that scan was 1-2 % of the CPU, not more: the ranks of
// loop.elf are runnable in most windows); the root's 256 shared flags are a bitmask (a
// Memory takes the allocator's 2,304-byte size, not 2,688); the initial stack is built
// in one buffer (22 allocations and a kilobyte of garbage less per process). Side by
// side, CPU s (user+sys) and peak RSS, before and after: at 4,096 ranks (load 14) 1.9
// and 2.0 s, 247 and 243 MiB, no difference the load lets one see; at 16,384 (load
// 23-30) 9.4 and 8.3 s, 946 and 931 MiB; at 65,536, before at load 15-16, after at
// load 16-22 and once more right after at load 21-26,
//
//	                                          CPU s   peak RSS
//	before                                     36.6   3,734 MiB
//	runnable set, root bitmask, one stack      32.6   3,642 MiB
//	  buffer                                   42.4   3,664 MiB
//
// so 70-90 MiB less, about what the sizes say (384 bytes of root and a kilobyte of
// stack garbage per rank), and CPU seconds that follow the box's load more than the
// code: the 65,536-rank CPU is the same within what this load lets one see.
// Where the CPU goes now, from the profile at 16,384 ranks (7.6 s of samples): the first
// stores to each rank's pages, 34 % (Memory.write and writePage) and most of the 18 %
// of samples that land in the preemption handler, taken inside them: a rank of loop.elf
// copies four data pages of libc, makes two of bss and heap and the stack's two top
// pages, and the counting probe's variable makes a ninth, 36 KiB per rank, 2.3 GiB of the
// full machine; the launch (createNodes: the stack's pages, the CPU of 2,184 bytes in
// the 2,304-byte size, the root), 14 %; the allocator, 13 %, mostly the first touch of
// new heap spans (mids and leaves first, then CPUs and their 2 KiB block caches); the
// translated code, 11 %; the tool's App.Step (events, packets, the tree's reduction),
// 10 %; the scheduler's step, 8 %, most of it deliver (the runnable set is 0.4 %);
// loads missing a new rank's page cache (readFill), 5 %; the collector, 3 %. So on this
// VM the floor is the memory the run touches, not the instructions it runs: at ~12 µs
// per first-touched page the 3.6 GiB peak is ~940,000 pages, ~11 CPU s before the
// program does anything, above 8 s by itself. The 8 s goal is not met. What would meet
// it is fewer bytes touched per rank, by size: sharing the data pages every rank writes
// alike (libc's data, the probe's variable page) where the writes are known to be the
// same, e.g. pages only the start-up code before main writes (the KSM-like merger found
// them after the fact and spent in hashing what it saved); a four-level table of 32
// entries (the root 256 bytes instead of 2 KiB, the levels 288 bytes instead of 576:
// about 3.5 KiB of the ~14 KiB of heap per rank, ~230 MiB of the full machine); victim
// cache tags of 16 bits (the CPU in the 2,048-byte size, at one more instruction per
// translated load and store).
//
// Installing probes on many ranks (dpclsh profile's ~300 probes): the daemons wrote
// each rank's trampolines and branches one poke at a time, each looking its patched
// page, leaf and mid up by its bytes, and at 4,096 ranks that was 70 % of the run's
// CPU. A rank's writes of one command are now one ppc.PokeBatch (WriteBatch), shared
// between ranks given the same writes, and a rank starting from the same shared text
// takes the table the first one ended with; the bookkeeping left per rank and point is
// the daemon's (its maps of placed trampolines and their owners) and the CPU's entry
// marks. dpclsh profile --nodes 4096 examples/apps/bin/hello_mpi.elf, side by side at
// load 26-42, the same report byte for byte:
//
//	                                          CPU s   peak RSS
//	pokes one at a time                        30.4   1,193 MiB
//	one batch per rank, shared                 14.7   1,157 MiB
//
// Errors: those the package makes start "bgl: " and are an *Error (wrapping the cause) or
// one of its own types carrying the rank, address or position it concerns; each has
// Package and Unprefixed, which the Lua host uses to name the Lua function instead.
package bgl
