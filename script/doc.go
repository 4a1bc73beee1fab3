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
//   - Sandboxes (NewSandbox) also lose print, getfenv/setfenv and newproxy; a filter hands
//     back results as return values. Reading a left-out name (os, io, require, print, ...)
//     in a filter's or back-end's environment raises "NAME is not available in the
//     sandbox of filters and back-ends (why)" at the reading line, as strict.lua would;
//     rawget sees nil, and the environment's metatable is protected. A sandboxed state only executes: each tree node
//     (stream, node) runs the filter file in an environment of its own (NewEnvironment:
//     copies of the globals and of string, table and math; the string metatable is hidden),
//     and each back-end call gets a fresh one, so pooled states never carry one node's
//     globals to another and a run's output does not depend on which state ran what.
//   - Budgets, not clocks: CallWithBudget counts Lua instructions through the context
//     gopher-lua consults before each instruction (Limits.Instructions; filter.load's
//     budget option, default 20e6), and every 65,536 instructions and at return measures
//     what the environment, the filter state and the running frames hold
//     (Limits.Memory, 64 MiB). A call that runs out fails with ErrBudget at the same
//     instruction on any host; netreduce's FilterSpec.Deadline carries the instruction
//     budget of Lua filters.
//   - Limits inside library calls (meter.go): the budget's context and the session's
//     (session_meter.go) are meters that library functions charge themselves, since no
//     instruction runs inside a Go call. Pattern matching runs on a matcher of our own
//     (pattern.go, strmatch.go) rather than gopher-lua's package pm, which has no hook,
//     backtracks exponentially and builds gsub results in quadratic time: a
//     backtracking matcher with Lua 5.1's semantics, checked against Lua 5.1.5's results
//     (testdata/patterns.golden, made by lua5.1 with -rewrite-patterns) and against pm by
//     a fuzz target where pm follows 5.1. Every step counts as one instruction of the
//     budget (so a call stops at the same step on any host) and, in a session, checks for
//     an interrupt every 256 steps. One departure from 5.1: "\0" in a pattern is an
//     ordinary character, as in 5.2, where 5.1 ended the pattern there.
//   - Memory: string.rep, string.format, string.gsub, table.concat and .. (concat.go)
//     charge the bytes they are about to build. A budget keeps what it measured at the
//     last measurement plus the charges since; when that would pass the limit it
//     measures again (garbage then stops counting) and fails if the live data and the
//     new bytes do not fit. Measurements count string bytes and 40 bytes a table slot
//     from the roots, the registers of the running threads and the protected calls in
//     progress, so they depend only on the script: the error comes at the same place on
//     any host. A session has a budget too (Options.Memory, dpclsh --lua-memory; by
//     default half of HostMemoryLimit: the Go memory limit, 3/4 of physical memory or
//     half of ulimit -v), measured from its globals and registry, every 65,536
//     instructions or more as the state grows (tables grown by the VM alone). Budget
//     errors wrap ErrMemoryBudget and, like running out of instructions, cannot be caught
//     by pcall: a filter call fails its probe, a session chunk fails and the session goes
//     on. Under them, a host check looks at the Go heap (runtime/metrics) before an
//     allocation of 1 MiB or more and at each periodic check, and refuses, after a
//     collection, only when the heap would pass HostMemoryLimit: it fires only when the
//     host is truly short, so it cannot make results differ between hosts otherwise.
//     Coroutines count their charges but not their instructions toward a session's
//     periodic check; a coroutine created before a chunk ran out keeps failing, as after
//     an interrupt.
//   - Protected calls run on pooled threads (pcall.go), because gopher-lua 1.1.2 closes
//     the open upvalues of every frame of a state when an error is caught (upstream issue
//     448): pcall, xpcall, Session.Call below a running chunk (callbacks, t:error) and
//     __tostring from Format. A coroutine that yields inside a pcall is parked on the
//     call's thread; coroutine.resume and coroutine.wrap are replaced to resume it, and
//     the pcall completes on a later resume, as in Lua 5.2. gopher-lua hands resumed
//     values to the yielding frame unadjusted (too few leave stale registers) and loses
//     the caller of a Go function that yields in tail position, so in a state with
//     coroutines, coroutine.yield, pcall and xpcall are Lua wrappers of one line around
//     the Go functions (yield.go), which print as builtins. Left as gopher-lua has it:
//     coroutine.running inside a pcall names the call's thread, and a yield from a Go
//     function's callback (a gsub function, a metamethod) is not detected.
//   - Sizes: string.rep, string.format, string.gsub and table.concat compute their result
//     size first and raise an error over the limit (MaxString, 1 GiB, in a session; the
//     memory budget in a sandbox), which pcall can catch. Concatenation happens inside the
//     VM, so chunks this package compiles (session chunks, filter files) have each a .. b
//     rewritten into a call of a checking function (concat.go); the session's loadstring,
//     load, loadfile and dofile compile the same way (load.go), require does not.
//   - string.format's numeric conversions (%d, %x, %f, ...) take numbers and numeric
//     strings as Lua 5.1 does and raise "bad argument #N to 'format'" for anything else,
//     where gopher-lua would print Go's rendering ("&{}" for nil).
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
