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
//   - Probe messages (handle_queue.go): with a callback it is called (first error shown in
//     full, the probe deactivated after three); without one they queue on the handle
//     (h:next, h:messages; bounded at 65,536, older ones dropped and counted), or, in a
//     session marked interactive (SetInteractive), print as they arrive unless print =
//     false. The queue lives here, not in runtime, which only delivers.
//   - Progress (progress.go): a session given a terminal with SetProgress draws a line for
//     dpcl.launch and app:wait; the job's output clears it before each write.
//   - Sandboxes (NewSandbox) also lose print, getfenv/setfenv and newproxy; a filter hands
//     back results as return values. CallWithDeadline bounds each call by wall time.
package script
