// Package script is dpclsh's Lua host (yuin/gopher-lua, Lua 5.1): sessions, the module
// and type registry, value printing, help, completion, and sandboxed states for filters.
//
// A Session owns one *lua.LState and is used from one goroutine. Other goroutines hand it
// work with Post; it runs when the script waits (Session.Wait) or the REPL is idle.
//
//	s, err := script.NewSessionWith(script.Options{Prelude: dpclsh.Prelude, PreludeName: "lib.lua"})
//	if err != nil { ... }
//	defer s.Close()
//	if err := s.DoFile("examples/hello.lua", nil); err != nil {
//		fmt.Fprint(os.Stderr, script.FormatError(err, false))
//	}
//
// Bindings register from init in script/mod_<name>.go with RegisterModule and
// RegisterType; every module is a preloaded global and require returns the same table.
// The Doc strings feed help().
//
// Choices where DESIGN.md is silent:
//   - State: what a module keeps for a session hangs on the Session under a Key[T]
//     (state.go: dpcl's applications, interned addresses, reported deprecations, the
//     REPL and progress settings), made by its first use and dropped when the session
//     closes; nothing package-level is keyed by a session. What the host provides comes
//     in Options (TCPTransport for netreduce.new{transport = "tcp"}), and the dpcl module
//     registers on the session the compilation target e:disasm() uses (SetProbeTarget).
//   - Stopping: a session keeps one context on its state across calls. Interrupt (Ctrl-C)
//     and os.exit cancel it; gopher-lua checks it before every instruction, so after a
//     pcall has caught the error the very next instruction fails again and the chunk
//     unwinds to the host, which sees Session.ExitCode or ErrInterrupted. Go functions
//     that block select on Session.Context() or use Session.Wait, and return errors from
//     nested Session.Call with Raise. Coroutines inherit the context they were created
//     under, so a coroutine created before an interrupt cannot be resumed after it.
//   - Output: bindings write what the user should see to Session.Stdout(), which is the
//     line editor's writer while the prompt is shown, so the prompt redraws below it.
//   - os.exit records the status and ends the session through the host (resources closed,
//     history kept); print and io.write go to the session's writers (the line editor's in
//     the REPL), so asynchronous output redraws the prompt.
//   - Go errors become Lua error text in one place (luaerror.go): the packages below
//     return typed errors (an Error per package, and their own types carrying the rank,
//     address or file:line) whose text starts with the package's name; a binding shows
//     the error of the package it called without that name, named by the Lua function
//     instead ("dpcl.launch: ..."), and an error of another package keeps its name.
//   - Errors are *Error values: file:line, message, the offending source line; the Lua
//     traceback (and the Go stack of a panicking Go function) only for verbose sessions.
//     REPL chunks are named "stdin" and numbered by input line, so "stdin:17" is the 17th
//     line typed; functions defined at the prompt keep those positions.
//   - Printing (Format, pp, REPL echo) uses Lua syntax: strings quoted, integral numbers
//     without a fraction, array part then sorted keys, tables wider than the width one
//     entry per line, depth and item caps, <cycle> for a table inside itself. Functions
//     print as "function: file:line" (or "builtin"), never as an address, so transcripts
//     are stable. dump(x) shows the Go value behind a userdata with kr/pretty.
//   - Completion looks names up with raw reads and metatable __index tables only: it
//     never calls a function or an __index function.
//   - Probe arrays and program globals index with []: a probe.Array's __index and the
//     Exp's are functions (string keys go to the methods first, then, for a global's
//     lvalue, to its struct members; numbers and expressions give elements), installed by
//     the probe module's Init; completion still lists their methods from the registry.
//     Probe arrays are 0-based as in C; a:read(rank) returns a Lua list (t[i+1] is a[i]).
//   - C probe modules (mod_dpcl_cmodule.go): probe.call keeps one name and takes a CModule as
//     its first argument for a module's function (DPCL's ProbeModule call); mod:global is
//     an Exp like app:global's, so the same [] and . reach elements and members.
//     mod:read(name [, rank]) reads a scalar or an array of scalars, from one rank or
//     summed over every rank, as a:read and the overflow counters do for probe data.
//   - Units (units.go): durations are seconds, virtual unless the name says wall; message
//     and event times are virtual seconds with time_ns beside them; dpcl.timebase_hz.
//     timeout_ms is kept for one release and prints one deprecation line per session.
//   - Addresses (address.go) are one userdata type printed as 0x%08x, interned per
//     session (so == and table keys work), with arithmetic metamethods; tonumber and
//     string.format are wrapped to see the number. Bindings take addresses with
//     CheckAddress, which accepts numbers too. Lua 5.1 cannot make a userdata equal a
//     number: a:num() == 0x1000.
//   - Probe messages without a callback queue on the handle (mod_dpcl_queue.go), or, in a
//     session marked interactive (SetInteractive, handle_print.go), print as they arrive,
//     bpftrace-style, unless the probe was installed with print = false.
//   - Progress (progress.go): a session given a terminal with SetProgress draws a line for
//     dpcl.launch and app:wait; the job's output clears it before each write.
//   - The Lua VM is script/luavm (see its doc): protected calls on pooled threads for
//     gopher-lua's upvalue defect, yields across pcall, checked loaders and
//     concatenation, size checks, instruction and memory budgets, sandboxes and a bounded
//     pattern matcher. A session installs it on its state (NewSessionWith) and compiles
//     its chunks with luavm.Compile; Session.Call below a running chunk (callbacks,
//     t:error) and __tostring from Format are protected calls of luavm. A string built by
//     a library function is bounded by luavm.MaxString (1 GiB) in a session.
//   - Filters and back-ends run in luavm.NewSandbox states, which lose print too; a filter
//     hands back results as return values. A sandboxed state only executes: each tree
//     node (stream, node) runs the filter file in an environment of its own
//     (luavm.NewEnvironment), and each back-end call gets a fresh one, so pooled states
//     never carry one node's globals to another and a run's output does not depend on
//     which state ran what. Their calls run under luavm.CallWithBudget (filter.load's
//     budget option, default 20e6 instructions; 64 MiB); netreduce's FilterSpec.Deadline
//     carries the instruction budget of Lua filters. A call that runs out fails its probe.
//   - A session's memory budget (session_meter.go): the session's context is a
//     luavm.Meter that library functions charge, and every 65,536 instructions or more as
//     the state grows it measures the globals, the registry and the running frames, so
//     tables grown by the VM alone are bounded too (Options.Memory, dpclsh --lua-memory;
//     by default DefaultSessionMemory, half of luavm.HostMemoryLimit). A chunk that passes
//     it fails with luavm.ErrMemoryBudget, which pcall cannot catch, and the session goes
//     on. In a session, pattern matching checks for an interrupt every 256 steps.
//     Coroutines count their charges but not their instructions toward the periodic
//     check; a coroutine created before a chunk ran out keeps failing, as after an
//     interrupt.
//   - Plots (mod_plot.go) use gonum.org/v1/plot, a dependency beyond gopher-lua on
//     purpose: it writes both SVG and PNG with axes, log scales, legends and text layout
//     that a hand-written SVG writer would have to reimplement, and it is pure Go (no cgo),
//     so the shell still builds with Go alone. Only this package imports it.
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
//   - limpio (limpio.go embeds limpio.lua, limpio_table.lua, limpio_trace.lua) is Lua over
//     the public API too; the command loads it into each session after the prelude, under
//     those chunk names, so its messages do not depend on where the files live.
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
//   - Files (mod_dpcl_files.go): what a script or a module writes for the user (limpio's
//     traces and CSV, plots, the experiments' CSV) goes through dpcl.write_file and
//     script/fileout rather than io.open, whose files are 0600 and whose write errors a
//     script can ignore: a file is written whole or not at all (temporary file, fsync,
//     rename), new files are 0644, a replaced file keeps its mode, devices are written in
//     place, and every failure raises "cannot write PATH: REASON". dpcl.check_write lets
//     a script fail before a long run rather than after it.
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
package script
