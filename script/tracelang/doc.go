// Package tracelang is the language of `dpclsh trace` and dpcl.trace: a small language
// after bpftrace's, parsed and checked here in pure Go (no Lua, no machine). The dpcl
// module compiles a checked program to probe expressions, probe arrays and the tree's
// "mapmerge" filter; nothing of this language runs at the ranks.
//
//	prog, err := tracelang.Parse("stdin", `MPI_*:entry { @[func] = count() }`)
//	info, err := tracelang.Check(prog) // err: "stdin:1:20: unknown builtin 'arg9x'" + line + caret
//
// The grammar accepted:
//
//	program   = block { block }
//	block     = probe { "," probe } [ "/" expr "/" ] "{" [ stmt { ";" stmt } [ ";" ] ] "}"
//	probe     = "BEGIN" | "END" | FUNC ":entry" | FUNC ":exit" | FILE ":" LINE
//	          | "interval:" UNIT ":" N | "profile:hz:" N      (FUNC may hold * and ?)
//	stmt      = "@"[name] [ "[" expr { "," expr } "]" ] "=" ( aggregation | expr )
//	          | "$"name "=" expr | call
//	aggregation = count() | sum(x) | min(x) | max(x) | avg(x) | stats(x) | hist(x)
//	          | lhist(x, MIN, MAX, STEP)
//	call      = printf("format", expr...) | print(@m) | clear(@m) | exit()
//	expr      = C's binary operators || && | ^ & == != < <= > >= << >> + - * / %,
//	            unary - ! ~, parentheses, integers, $locals, @plain maps, builtins
//
// Builtins: rank, func and probe (map keys only), ustack and ustack(N) (the call stack,
// UstackDepth or N frames, a map key only, at most one per key), arg0..arg7 (entry probes), retval
// (exit probes), nsecs (virtual time), cycles, instructions, loads, stores, branches,
// fpops (the CPU's counters).
//
// Where it differs from bpftrace:
//   - Values are 64-bit integers; strings appear only as printf's format.
//   - @name = x without an aggregation is a per-rank variable (each rank its own), read
//     back as @name in that rank's probes (bpftrace's @start[tid] = nsecs idiom, with the
//     rank as the thread); it is not printed. Keyed maps take an aggregation.
//   - print, clear and exit run only in BEGIN and END, at the front-end, and print and
//     clear in interval:UNIT:N blocks (UNIT s, ms or us of virtual time): a map is
//     collected from the ranks when they exit, and for an interval block each period,
//     merged in the tree. An interval block cannot clear min() or max() maps (the ranks
//     keep them over the run: the front-end clears by remembering what it showed) nor
//     print profile samples (read once the job ends).
//   - profile:hz:N blocks only count samples, by function or in all (@m[func] = count(),
//     @m = count()), with no predicate: the samples are the machine's timer interrupts
//     (app:sample), not probe code, and such a map takes nothing else.
//   - Statements are separated by ';' (a block's last may omit it); there is no if,
//     ternary, string or tuple yet: the checker says so with a caret
//     rather than accept them.
//
// Errors are *Error values: "NAME:LINE:COL: message", then the line, then a caret.
package tracelang
