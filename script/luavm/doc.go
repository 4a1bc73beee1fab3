// Package luavm is the hardened gopher-lua (yuin/gopher-lua 1.1.2, Lua 5.1) under dpclsh's
// Lua host: protected calls, coroutines, code loaders, concatenation and the string and
// table functions that allocate, made safe to run scripts and untrusted filters on. It
// knows nothing of dpcl, probes, the runtime or sessions, and imports only gopher-lua and
// the standard library; the script kernel installs it on a session's state and the filter
// runtime builds its sandboxes with it.
//
// It exists because gopher-lua, as shipped, cannot bound what a script does:
//
//   - Limits hold inside library calls. gopher-lua checks its context before each
//     instruction, but no instruction runs inside a Go call: one string.find can backtrack
//     for years and one string.rep can ask Go for a terabyte, which ends the process.
//     Library functions here charge the context the state runs under (a Meter, meter.go)
//     for the work they do and the bytes they are about to build.
//   - Protected calls run on pooled threads (pcall.go), because gopher-lua 1.1.2 closes
//     the open upvalues of every frame of a state when an error is caught (upstream issue
//     448), so a closure of the caller reads a stale value afterwards.
//   - A coroutine may yield across pcall, as in Lua 5.2 (coroutine.go, yield.go).
//
// In detail:
//   - Protected calls: pcall, xpcall and ProtectedCall (callbacks and other Lua functions
//     called from Go while Lua code runs, such as __tostring when printing) run on a thread
//     of their own, taken from a pool per state, so unwinding it cannot close the caller's
//     upvalues. A coroutine that yields inside a pcall is parked on the call's thread;
//     coroutine.resume and coroutine.wrap are replaced to resume it, and the pcall
//     completes on a later resume. gopher-lua hands resumed values to the yielding frame
//     unadjusted (too few leave stale registers) and loses the caller of a Go function that
//     yields in tail position, so in a state with coroutines, coroutine.yield, pcall and
//     xpcall are Lua wrappers of one line around the Go functions (yield.go), compiled in
//     the chunk ChunkName; they print as builtins (IsVMFunction). Left as gopher-lua has
//     it: coroutine.running inside a pcall names the call's thread, and a yield from a Go
//     function's callback (a gsub function, a metamethod) is not detected.
//   - Sizes (limits.go): string.rep, string.format, string.gsub and table.concat compute
//     their result size first and raise an error over the limit (MaxString, 1 GiB, outside
//     a budgeted call; the memory budget inside one), which pcall can catch. Concatenation
//     happens inside the VM, so chunks compiled with Compile have each a .. b rewritten
//     into a call of a checking function (concat.go); the loadstring, load, loadfile and
//     dofile of InstallCheckedLoaders, and require's searcher of Lua files, compile the
//     same way (load.go).
//   - string.format's numeric conversions (%d, %x, %f, ...) take numbers and numeric
//     strings as Lua 5.1 does and raise "bad argument #N to 'format'" for anything else,
//     where gopher-lua would print Go's rendering ("&{}" for nil).
//   - Budgets, not clocks (budget.go): CallWithBudget counts Lua instructions through the
//     context gopher-lua consults before each instruction (Limits.Instructions, by default
//     DefaultInstructions), and every MemoryCheckEvery (65,536) instructions and at return
//     measures what the roots it was given and the running frames hold (Limits.Memory,
//     DefaultMemory, 64 MiB). A call that runs out fails with ErrBudget at the same
//     instruction on any host; once spent, every following instruction fails again, so
//     pcall inside the script cannot keep the call alive.
//   - Pattern matching runs on a matcher of our own (pattern.go, strmatch.go) rather than
//     gopher-lua's package pm, which has no hook, backtracks exponentially and builds gsub
//     results in quadratic time: a backtracking matcher with Lua 5.1's semantics, checked
//     against Lua 5.1.5's results (testdata/patterns.golden, made by lua5.1 with
//     -rewrite-patterns) and against pm by a fuzz target where pm follows 5.1. Every step
//     counts as one instruction of the budget (so a call stops at the same step on any
//     host) and, every 256 steps, charges the Meter, which may report an interrupt. One
//     departure from 5.1: "\0" in a pattern is an ordinary character, as in 5.2, where 5.1
//     ended the pattern there.
//   - Memory (meter.go): string.rep, string.format, string.gsub, table.concat and .. charge
//     the bytes they are about to build. A MemAccount keeps what was measured at the last
//     measurement plus the charges since; when that would pass the limit the meter
//     measures again (garbage then stops counting) and fails if the live data and the new
//     bytes do not fit. Measurements (Measure, RootsOfStates) count string bytes and
//     SlotCost (40) bytes a table slot from the roots, the registers of the running
//     threads and the protected calls in progress, so they depend only on the script: the
//     error comes at the same place on any host. Budget errors wrap ErrMemoryBudget and,
//     like running out of instructions, cannot be caught by pcall. Under them,
//     CheckHostMemory looks at the Go heap (runtime/metrics) before an allocation of
//     HostCheckMin (1 MiB) or more and at each periodic check, and refuses, after a
//     collection, only when the heap would pass HostMemoryLimit (the Go memory limit, 3/4
//     of physical memory or half of ulimit -v): it fires only when the host is truly
//     short, so it cannot make results differ between hosts otherwise. Coroutines run
//     under a context gopher-lua derives from the state's; it hands the meter on through
//     Value(MeterKey{}), so their charges count.
//   - Sandboxes (sandbox.go): NewSandbox opens base, table, string and math only, without
//     file access, code loading, print, getfenv/setfenv or newproxy. Reading a left-out
//     name (os, io, require, print, ...) in an environment from NewEnvironment raises
//     "NAME is not available in the sandbox of filters and back-ends (why)" at the reading
//     line, as strict.lua would (sandbox_refusals.go); rawget sees nil, and the
//     environment's metatable is protected. An environment holds copies of the globals and
//     of string, table and math, and the string metatable is hidden, so code run in one
//     environment cannot change what another sees.
//
// The errors of CallWithBudget are *CallError values: the script's message, starting with
// its file:line when the failure happened in Lua code; Relabel reports one under the
// caller's prefix and keeps the budget error for errors.Is.
package luavm
