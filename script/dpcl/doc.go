// Package dpcl is the Lua modules dpcl and probe: applications (dpcl.launch), their
// processes, arrays, C probe modules, phases, points, probe installation, message
// dispatch and queues, the web page (app:serve), performance modules (modules.lua) and
// limpio's Lua (limpio*.lua, which cmd/dpclsh loads after the prelude). The probe
// expression builders live here too: app:install and probe.* share the expression and
// data types.
//
// It registers itself with the kernel (package script) from init; script/std imports it.
// It imports the kernel, script/packetvalue, script/fileout and script/ui, and no other
// module: a filter object reaches it through script.FilterSource and a context through
// script.ContextOf, and an application completes its program names for the kernel as a
// script.NameCompleter.
//
// Choices where DESIGN.md is silent:
//   - app:sample (sample.go) samples in the simulator, as a timer interrupt, not through
//     a probe: the samples are kept by the machine and merged per call stack by the
//     Profile as they are read, rather than shipped through the tool tree. prof:pprof
//     writes with github.com/google/pprof/profile because its format is what go tool
//     pprof reads (flame graphs, top lists, source views).
//   - Probe arrays and program globals index with []: a probe.Array's __index and the
//     Exp's are functions (string keys go to the methods first, then, for a global's
//     lvalue, to its struct members; numbers and expressions give elements), installed by
//     the probe module's Init; completion still lists their methods from the registry.
//     Probe arrays are 0-based as in C; a:read(rank) returns a Lua list (t[i+1] is a[i]).
//   - C probe modules (cmodule.go): probe.call keeps one name and takes a CModule as
//     its first argument for a module's function (DPCL's ProbeModule call); mod:global is
//     an Exp like app:global's, so the same [] and . reach elements and members.
//     mod:read(name [, rank]) reads a scalar or an array of scalars, from one rank or
//     summed over every rank, as a:read and the overflow counters do for probe data.
//   - Probe messages without a callback queue on the handle (queue.go), or, in a
//     session marked interactive (SetInteractive, handle_print.go), print as they arrive,
//     bpftrace-style, unless the probe was installed with print = false. What is still
//     queued when the session ends is printed then (at most ten lines per probe, the
//     rest counted; handle_leftover.go), as bpftrace prints its maps at exit, except for
//     probes installed with print = false. Ctrl-C in the shell's app:wait prints each of
//     the job's probes' state and counts (sent, delivered, in the tree, unread) before
//     the prompt returns (wait_summary.go). When the job has ended, each installed probe
//     none of whose points ever ran is named on stderr, once per point ("dpclsh: warning:
//     probe 1 at twice entry (loops.c:56) never ran: twice is inlined into main; try
//     app:points("twice", "inlined")"), the hint only for an entry or exit of a function
//     DWARF says was inlined (never_ran.go, runtime.App.NeverRan); not for probes
//     installed with warn = false, as limpio's and trace's are (they cover every MPI
//     function or every match of a wildcard, most never called). A message
//     carries when its data left the ranks (m.sent = {first=, last=}, from the packets'
//     send stamps, which the tree's filters merge as min and max); a printed line whose
//     oldest data spent over a millisecond in the tree says so (lagNote), since it shows
//     the program as it was, not as it is.
//   - dpcl.launch's env and export options are every rank's environment (envp, what
//     getenv reads): variables set by value, and names whose host value is passed, as
//     BG/L's mpirun -env and -exp_env; with Options.Env (dpclsh ui --env/--export), nothing
//     else, so a run does not depend on who starts it. Sorted so that a launch does not
//     depend on Lua's table order; a bad name, a name given twice or an exported name the
//     host does not set is an error naming it. app:env() reads it back (limpio takes
//     MPIINSTR_EXCLUDE from it).
//   - dpcl.launch's costs option is a set name or a table over a set ("set" picks it);
//     app:costs() prints every parameter with its source. A message's virtual arrival
//     time becomes Lua fields in one function (setMessageTime).
//   - A filter that fails a probe's stream is reported once on the session's error
//     output when the batch that carries the failure is dispatched (in the REPL, while it
//     idles); the handle turns "failed" and nothing is raised later.
//   - limpio (limpio.go embeds limpio.lua, limpio_bytes.lua, limpio_callsites.lua,
//     limpio_report.lua, limpio_table.lua, limpio_trace.lua) is Lua over
//     the public API too; the command loads it into each session after the prelude, under
//     those chunk names, so its messages do not depend on where the files live.
//     Its traces are the exception that Go decodes: app:event_log is a receiver whose
//     log:attach(h) makes the dispatch hand h's messages to Go (a messageSink) before any
//     Lua table is made of them, and log:perfetto writes the JSON by appending to a
//     buffer; tr.events is built from the log only when a script reads it.
//   - Performance modules (DynTG, modules.go, modules.lua, modules_source.lua) are Lua over
//     the public API; Go lists a library's files, reads the line table (app:source_files,
//     app:source_info) and keeps each application's module state on its object. The Lua
//     names dpcl.modules, dpcl.load_modules, app:modules, app:act, app:acts, app:source,
//     app:source_data and app:source_files are an interface of the web page: keep them.
//     dpcl.modules(dir) only scans and queries (it runs each module file and its query,
//     nothing else); dpcl.load_modules selects modules for the session: init(app, params)
//     runs at once for every open application and at dpcl.launch for later ones. A module
//     that is unknown, excluded, already loaded, or whose init raises is refused with the
//     reason (returned and printed on stderr); the others load. A module's requirements
//     are checked against the machine (probe counters and features), the same for every
//     job. Each point an action is inserted at is a "site" of its module (numbered from 0,
//     params.sites of them, default 256): one install per point, so the module's arrays
//     are indexed by a constant, and the site is attributed to the point's file, line and
//     function. A stop action (reports = false) keeps no data at its own site. Removing an
//     action keeps its data (Tool Gear keeps it too).
//   - app:source aggregates each column in two steps: per rank, the values of the sites
//     are summed per line, function, file and program; then the column's agg (sum, min,
//     max, avg) combines the context's ranks. So a function's min is the least any rank
//     spent in it. follow = true reprints when the data change, polling every interval
//     virtual seconds with dpcl.sleep, while the job runs.
//   - Files (files.go): what a script or a module writes for the user (limpio's
//     traces and CSV, plots, the experiments' CSV) goes through dpcl.write_file and
//     script/fileout rather than io.open, whose files are 0600 and whose write errors a
//     script can ignore: a file is written whole or not at all (temporary file, fsync,
//     rename), new files are 0644, a replaced file keeps its mode, devices are written in
//     place, and every failure raises "cannot write PATH: REASON". dpcl.check_write lets
//     a script fail before a long run rather than after it. In a sharded session
//     (dpclsh --shards) process 0 alone writes and checks (script.WriteFile, CheckWrite);
//     the others count the same bytes and raise process 0's error, so a file is written
//     once and every process goes on alike.
//   - app:serve (serve.go) starts the web page of script/ui for an application. The page
//     only sends operations; its requests become page calls queued on the session's
//     dpcl state and run on the session goroutine with the machine paused: after each
//     step of app:wait, dpcl.sleep and dpcl.poll (a page call ends a running step at its
//     next quantum, so the page answers while the job computes without messages), and
//     while the REPL or `dpclsh ui` idles (the idler hands them over between its steps).
//     Without an open page, steps are exactly what they were, so batch output does not
//     change; with one, page calls make callbacks run at other step boundaries, as typing
//     at the REPL does. Page actions are echoed as their Lua line with "-- page" after it;
//     their errors go to stderr as "page: message". A call the session has not taken when
//     the request gives up is dropped. app:close() (and the session's end) closes the page.
//   - dpcl.trace (trace.go parses and checks with script/tracelang; trace.lua compiles,
//     trace_print.lua merges what arrives and prints)
//     runs bpftrace-style programs. A map is one int64 probe array per rank: a slot per
//     key, each slot its event count then the aggregation's values (sum; min or max;
//     65 power-of-two buckets for hist; lhist's buckets with two for out of range).
//     rank as a key part is sent whole; func and probe key parts are constants of each
//     install (one install per probed function), so their slots are known before the
//     run; an integer key part indexes 0..255 directly (narrowed to an int bit by bit,
//     since probe expressions only widen), and an event whose key falls outside counts
//     in an overflow slot that prints after the map rather than being silently lost. A
//     map may span 4,096 slots. At _exit's entry each rank sends its map in chunks of
//     at most 250 values, one stream per chunk through the "mapmerge" filter, so the
//     front-end gets one merged message per chunk whatever the number of ranks.
//     @name = x (no aggregation) is a per-rank variable, not printed; printf at a rank
//     sends its values with the format's number and the front-end formats them. The
//     value of an aggregation is computed before its key; nsecs is probe.point_timebase,
//     the trampoline's read on arrival, so an interval between two probes does not grow
//     with the registers the later probe's code makes its trampoline save.
//     A ustack key part walks the r1 back chain in the probe's code (as probe.ustack
//     does, into variables) and finds the stack among the 32 the rank keeps per map: a
//     table of frames and one of hashes in rank memory, searched from where the stack's
//     hash points by comparing hashes, the frames compared once where the search stops
//     (a full table, or another stack with the same hash, is an overflow event). The
//     stack part is the outermost of the slot, and at _exit each kept stack goes up as
//     its own stream, its frames as the mapmerge filter's fixed key values, so the tree
//     merges the ranks' entries by stack; the front-end names the frames once per stack
//     (app:symbolize) and prints them one a line, as bpftrace prints ustack.
//     interval blocks run at the front-end on the maps they print or clear, which every
//     live rank sends each period from an app:phase (one per chunk, mapmerge): a firing
//     is run once every chunk of it arrived, unless some rank missed it (exited). The
//     front-end keeps per map the ranks' last merged state (cum, from a firing or _exit)
//     and the state at the last clear (base), and prints the difference, so clear()
//     needs nothing of the ranks; min and max, which do not subtract, refuse it there.
//     result:interrupt() (dpclsh trace's Ctrl-C) holds the ranks and reads each one's
//     arrays (Array:read, exited ranks too: their _exit sends would wait in the tree for
//     the rest) into the entries mapmerge would have made; later tree messages are
//     ignored, the job is terminated, and finish() prints as at exit.
//   - Attach (attach.go): dpcl.attach(addr) is runtime.Attach over loopback or a network,
//     with the secret of netreduce.LoadSecret (secret_file, else DPCLSH_COMM_SECRET), the
//     handshake `dpclsh comm` uses; dpcl.attach(job) is runtime.AttachJob on a job of
//     this session's bgl.launch. Either way the application joins the session's list
//     like a launched one (dpcl.poll, dpcl.sleep, the idle REPL and app:wait advance it)
//     and is already running (app:start is an error). The moment of the attach is the
//     job's: the end of the 10 us quantum it was running when the tool came (for a job of
//     this session, where job:run left it), reported by app:attached() in virtual ns.
//     From then on the job advances only while this session waits, as a launched one, so
//     a script's callbacks, message times and order after the attach are reproducible
//     given that moment. app:detach() removes every probe, phase, replacement, watch and
//     profile the tool made and closes the application; app:close() and the session's
//     end do the same for an attached job (never ending it). What the job prints goes
//     where the job sends it (exec's stdout, or the session for bgl.launch).
package dpcl
