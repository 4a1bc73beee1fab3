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
// This package is the kernel: sessions, the registry, per-session state (Key), the one
// Go-to-Lua error boundary, print, help, completion, running chunks, units, addresses,
// describe and progress. Each Lua module is a package of its own under script/ that
// registers itself with RegisterModule and RegisterType from its init; every module is a
// preloaded global and require returns the same table. The Doc strings feed help().
//
// Modules and their import order, from the bottom up (a module imports the kernel and
// only modules before it; deps_test.go checks it): plot, ppc, bgl, filter, netreduce,
// ctx, dpcl (dpcl and its probe expressions). script/std imports them all, and is what
// cmd/dpclsh imports. Registration from init carries only code and docs, never a
// session's data, so it holds no per-session state; listing the modules in one package
// rather than in Options keeps NewSession's callers unchanged and makes "every module" a
// single import. Helpers below the kernel: script/luavm (the VM), script/packetvalue
// (packet values to Lua and back), script/fileout, script/ui; script/scripttest makes
// sessions for tests. The kernel's tests link every module through an external test file.
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
//   - Units (units.go): durations are seconds, virtual unless the name says wall; message
//     and event times are virtual seconds with time_ns beside them; dpcl.timebase_hz.
//     timeout_ms is kept for one release and prints one deprecation line per session.
//   - Addresses (address.go) are one userdata type printed as 0x%08x, interned per
//     session (so == and table keys work), with arithmetic metamethods; tonumber and
//     string.format are wrapped to see the number. Bindings take addresses with
//     CheckAddress, which accepts numbers too. Lua 5.1 cannot make a userdata equal a
//     number: a:num() == 0x1000.
//   - Progress (progress.go): a session given a terminal with SetProgress draws a line for
//     dpcl.launch, app:wait and dpcl.sleep; the job's output clears it before each
//     write. A wait with a horizon in virtual time (dpcl.sleep) fills its bar as the
//     job's virtual time crosses the span; one without (app:wait) sweeps a block until
//     the first rank ends, then fills by ranks ended. A
//     scheduler window that outlasts a draw (a large job's first ones, seconds at 4,096
//     ranks while every rank touches its memory for the first time: host page faults)
//     shows its ranks going through ("ranks starting"); each draw asks bgl.Progress for
//     fresh counts at the next window's end.
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
package script
