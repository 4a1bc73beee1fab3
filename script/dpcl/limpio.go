package dpcl

import _ "embed"

// Limpio is the source of limpio.lua, the MPI profiling module run after the prelude: it
// sets the global limpio and package.loaded.limpio, so require("limpio") returns it.
// LimpioTable (limpio_table.lua) formats the profile; LimpioTrace (limpio_trace.lua) adds
// limpio.trace, limpio.segment and the help texts.
//
// Decisions:
//   - Written in Lua over the public API (app:array, app:stack, probe.func(), probe.send of
//     arrays, app:execute, the eqclass and concat filters): installs at the entry and
//     exit points of every MPI_* function, so no Go was needed; the per-call work is
//     in the PowerPC snippets, not in Lua.
//   - Profile data stays in rank memory until collected through the tree, never by debug
//     reads: a probe at _exit's entry (the rank still exists; the runtime delivers what a
//     rank sends there) or, on prof:snapshot() while the job runs, app:execute. Each rank
//     sends one row: its counts of the MPI functions (the key), their times, its run time
//     (from its first MPI call) and its MPI time in parts per million of it. The eqclass
//     filter with params {key = n} groups identical count rows and sums the rest on the way
//     up, so 65,536 ranks arrive as a few classes, each with its ranks and summed times;
//     a class's percentages are its summed times over its summed run time. Rows longer
//     than one send (more than 126 functions) go in chunks whose keys start with the same
//     fingerprint of all counts, so every chunk splits the ranks alike and the classes
//     join on their rank lists.
//   - Per-rank rows (CSV, per-rank ratios) come from a second probe with the concat filter,
//     on every rank when per_rank (default for jobs of at most 4,096 ranks), else on rank 0
//     only (the master of prof:ratio()); the workers' mean ratio then comes from the
//     classes' summed per-rank ratios.
//   - Traces are records of log.fields (12 int64: function, start, end, return address,
//     bytes, peer, tag, communicator, request slot and count, MPI_Sendrecv's source and
//     receive tag), 21 per buffer, sent by the rank with the slot count and its dropped
//     count when the buffer fills and at _exit's entry. The arguments are stored at the
//     entry by one install per distinct argument code, at the entries of the functions
//     sharing it (a probe.func() comparison per function runs out of registers past a
//     handful); bytes are limpio.message_bytes'. The batches go to a Go EventLog
//     (trace_batch.go) straight from the dispatch, and log:perfetto writes the JSON in Go:
//     Lua per event made a 1.1 M-event trace take minutes of CPU. Flows pair sends and
//     receives in Go (trace_flows.go); an MPI_Irecv's arrow ends at the MPI_Wait or
//     MPI_Waitall whose requests cover the slot its handle went to (MPI_Waitany, Waitsome
//     and Test* are not followed: the arrow then ends at the MPI_Irecv); a wildcard
//     receive takes the matching message sent first. max_events is per rank; what is
//     past it is counted, not recorded. Measured with BenchmarkLimpioTrace (1,024 ranks,
//     100 jacobi iterations, 1,105,920 events) on a 2-core host at load 23-57, CPU
//     seconds of writing the trace: Lua 29.6 and 20.8; Go 1.05, 0.92 and 0.61 (wall
//     9.7, 26.7 and 2.6 s); the run's CPU seconds, decoding included: 34.5 and 30.9
//     before, 31.4, 25.9 and 20.9 after. The trace's own probes (an entry install per
//     argument code, 12 stores a record) move jacobi's end from 3.12 to 3.67 virtual ms.
//   - The exclude list comes from opts.exclude and MPIINSTR_EXCLUDE of the job's
//     environment (dpcl.launch{env = ...}; dpclsh profile passes the host's
//     MPIINSTR_EXCLUDE and --env).
//   - Callsites (limpio_callsites.lua) are the program's calls of MPI functions listed from
//     its code before the run, by return address; the entry probe finds the link
//     register's among them in a tree of compares (buckets of 64: the code generator
//     nests at most 8 conditionals), a Fortran binding's call through the binding's saved
//     return address. Per callsite each rank keeps count, time, bytes
//     (limpio_bytes.lua) and its longest and shortest call and message; at _exit they go
//     up through the sum, max and min filters with the rank packed in the low 17 bits
//     under each total, so the report (limpio_report.lua) names the ranks that hold the
//     extremes from O(callsites) messages whatever the rank count. Totals above 2^36
//     ticks (98 s) lose their rank to float64 rounding. Without per-rank rows, the
//     top_ranks ranks (default 8) with the most MPI time come through the topk filter
//     (netreduce/topk.go), which keeps k rows at every tree node: the report's task rows
//     at any scale. The front-end receives 11 messages for ring (11 callsites, 2 chunks
//     of functions, the top ranks) at 256 or 1,024 ranks alike, from 13 probes.
//     prof:stats() sums h:stats().messages, what the front-end received: for
//     imbalance (400 2, per_rank false, top_ranks 8) 13 messages at 64, 256, 1,024 and
//     4,096 ranks alike, while the ranks' packets merged into them grow as 10 x ranks +
//     3 (643, 2,563, 10,243, 40,963); 5.3, 22.8, 66.1 and 148.8 s of host time
//     (1.18 GB peak at 4,096; 2 cores shared).
//   - Message bytes (limpio_bytes.lua): count x type size of the send buffer; a counts
//     array (Scatterv at its root, Alltoallv, Alltoallw, Reduce_scatter and their
//     I-forms) is summed by probe.sum, a loop in the probe's code, over the group size
//     the MPI engine answers (probe.comm_size, probe.comm_remote_size for an
//     intercommunicator's remote group, probe.comm_rank for the root test): any
//     communicator, any job size (it was unrolled for MPI_COMM_WORLD in jobs of at most
//     256 ranks before, and Alltoallw counted 0).
//   - Only calls at depth 0 count (function totals, callsites, bytes): a call the MPI
//     library makes of itself (MPI_Alltoallw with a derived type asks MPI_Comm_size) is
//     part of its caller's, as a PMPI tool sees it.
//   - Every probe of limpio.profile is installed by one app:install_all, placed active
//     (limpio.installs): each point's code is written once per rank. One install after
//     another placed a point's code again with every earlier probe there; at _exit,
//     where a dozen probes go, that wrote ~350k words per rank, and with the entry and
//     exit points ~600k. Measured with dpclsh profile --cpuprofile on ring (2 cores
//     shared at load 15-40; CPU seconds user+sys, peak RSS): 1,024 ranks 8.2 s and
//     462 MB before, 6.1 s and 360 MB after; 4,096 ranks 39.3 s and 1.26 GB before,
//     16.5 s and 1.12 GB after (37% of it still the installs, now per rank and point
//     rather than per byte: the daemon's bookkeeping of placed code); hello_mpi at
//     4,096 ranks 33.9 s and 1.13 GB before, 19.0 s and 0.99 GB after, and at 65,536
//     ranks 366 s and 14.3 GB (37 min of wall time at 16% of a core; a 58-line
//     report), 64% of it the installs. With libmpi's 390 MPI functions (780 points a
//     rank) it took 20.0 GiB at 65,536 ranks: the daemons kept two maps of every point
//     per rank, now one layout per set of ranks patched alike (runtime/layout.go, the
//     numbers in runtime's doc.go): 386 KiB a rank before, 201 KiB after at 8,192 ranks
//     (3.13 GiB and 1.68 GiB peak; the report is the same byte for byte).
//   - MPITime is the time in outermost MPI calls (a call the library makes of itself is
//     inside its caller's); AppTime runs from the first MPI entry to the last MPI exit.
//   - A call's time is its function's own instructions, measured alike by the profile and
//     the trace (limpio.clock_in): the entry's clock is pushed by a probe of its own,
//     queued after every other entry probe (callsite, bytes, arguments), and its time base
//     read is the first thing it does, the push after it a dozen instructions; the exit's
//     is probe.point_timebase, the trampoline's read on arrival before any probe's code.
//     What else lies in the interval is the same for both tools but the trampoline's
//     restore of the registers the entry probes used (a load each). The clock had been
//     read first at the entry and after other code at the exit, so each tool counted a
//     different share of its own probes: on imbalance's heavy ranks, whose MPI_Allreduce
//     calls last 2,300 ticks, the profile and the trace were 54 ticks a call (2.2 %)
//     apart, and now agree to the tick. The light ranks' waits agree to 6 ticks a call
//     (0.004 %), not exactly: they end when the last heavy rank reaches the collective,
//     which each tool's entry code, outside that rank's interval, delays by its own cost.
//   - The timeline SVG is written as text: the plot module draws lines and bars, not spans.
//   - Traces and CSV tables are written with dpcl.write_file (whole or not at all, 0644);
//     a failure raises "cannot write PATH: REASON" at the user's call of the method, and
//     limpio.trace{path = } checks the path before the run.
//
//go:embed limpio.lua
var Limpio string

// LimpioTable is the source of limpio_table.lua, run after Limpio.
//
//go:embed limpio_table.lua
var LimpioTable string

// LimpioTrace is the source of limpio_trace.lua, run after LimpioTable.
//
//go:embed limpio_trace.lua
var LimpioTrace string

// LimpioBytes is the source of limpio_bytes.lua (limpio.message_bytes), run after Limpio.
//
//go:embed limpio_bytes.lua
var LimpioBytes string

// LimpioCallsites is the source of limpio_callsites.lua (callsites, per-task times and
// their reduction through the tree), run after LimpioBytes.
//
//go:embed limpio_callsites.lua
var LimpioCallsites string

// LimpioReport is the source of limpio_report.lua (prof:report, prof:report_csv), run
// after LimpioCallsites.
//
//go:embed limpio_report.lua
var LimpioReport string
