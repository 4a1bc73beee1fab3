// Command dpclsh is the dynamic-instrumentation shell: a Lua REPL and batch host for
// instrumenting MPI programs (PowerPC 440 ELF binaries) on a simulated Blue Gene/L, plus
// subcommands.
//
//	dpclsh                              REPL (line editing, history, completion)
//	dpclsh SCRIPT.lua [ARGS...]         batch; ARGS in the Lua table arg, arg[0] = SCRIPT
//	dpclsh -e 'CHUNK'                   evaluate and exit; -i: stay in the REPL afterwards
//	dpclsh -v ...                       verbose errors (Lua traceback, Go stacks)
//	dpclsh test [PATH...]               run Lua test files (default examples/**/*_test.lua)
//	dpclsh --help                       lists the other subcommands (exec, disasm, comm)
//	mpiexec -n P dpclsh --shards exec ... exec spread over P processes (a -tags mpi build)
//	mpiexec -n P dpclsh --shards profile|trace ...  likewise, and exec --trace
//	mpiexec -n P dpclsh --shards SCRIPT.lua [ARGS...]  a script's jobs spread likewise
//
// Exit status: 0 success, 1 error, 2 usage; os.exit(n) ends the session with n.
//
// Choices where DESIGN.md is silent:
//   - A line (at the prompt, from a pipe, or given with -e) is first compiled as
//     "return LINE", so expressions echo their values, as lua 5.3's REPL does; values print
//     in Lua syntax, several separated by tabs.
//   - Without a terminal the REPL reads chunks from stdin line by line with no prompts; an
//     error is reported and reading goes on, and the exit status is 1 if any chunk
//     failed. -e chunks and scripts stop at their first error (status 1).
//   - History ($DPCLSH_HISTORY, else ~/.dpclsh_history) is appended after every chunk, so
//     os.exit and crashes keep it; a multi-line chunk is one entry with \n escaped. The
//     file keeps the newest 1000 entries; trimming it rewrites it whole or not at all
//     (script/fileout), and a new history file is 0600, private as a shell's is.
//   - Standard output is checked (stdout.go): its first write error, or the error of
//     closing it at the end, is said once ("dpclsh: cannot write standard output: no
//     space left on device") and turns status 0 into 1; nothing is written after it, so
//     what did get out is a prefix of the output. `dpclsh profile --trace FILE` checks
//     FILE before launching and fails with "cannot write FILE: REASON" when the trace
//     cannot be written after the run.
//   - `dpclsh trace` (cmd_trace.go) is dpcl.trace behind flags: -e PROGRAM (errors call
//     it stdin, as bpftrace does) or a FILE.bt (errors name the file), the job launched
//     quiet (the program's own output would bury the maps), and -l PATTERN listing a
//     FUNC:entry and FUNC:exit line per matching function.
//   - Sharded runs (cmd_shards.go): exec runs bgl's sharded job; profile, trace and exec
//     --trace run their Lua chunk as a sharded session, whole in every process, so their
//     report, report file, CSV tables and Perfetto trace are one process's bytes. Files
//     are written by process 0 alone (script.WriteFile), the others taking its outcome.
//     `dpclsh trace` then waits for the job's end in one call rather than in slices of
//     wall time, which would end at another virtual time in each process; a Ctrl-C ends
//     the run through the launcher instead. profile --cpuprofile profiles process 0.
//   - --stats (exec's option, and the Lua host's for every job a session launches, said
//     when the job closes): the job's line (ranks, status, instructions, virtual time,
//     private memory, environment) depends on the inputs alone and is the same bytes at
//     any number of processes, with or without --shards; exec's "wall" line and, in a
//     sharded run, the per-process lines ("shard P of N: psets, ranks, instructions,
//     windows, bytes sent and received, s waiting at window ends") are not: which
//     process holds which psets, what crosses between them and the host time spent
//     waiting depend on the number of processes and the host. Each job's per-process
//     counters are its own, from its launch to its account.
//   - Ctrl-C at the prompt clears the line (and a pending multi-line chunk); while a chunk
//     runs it interrupts it ("interrupted" with the line it was on), pcall notwithstanding.
//   - Lua tests: global functions named Test*, run in the order they are defined, each
//     with a t object: t:eq(got, want [, msg]) (tables compared deeply), t:ok(v [, msg]),
//     t:fail([msg]), t:error(fn [, pattern [, msg]]) (a Lua pattern matched against the
//     message, which includes file:line). Checks record a failure and the test goes on.
//     Each failure is one line "FAIL TestName: file:line: message"; the run ends with
//     "N passed, N failed". A file that fails to load counts as one failure.
//   - Subcommands register from init in cmd_<name>.go; a subcommand name wins over a
//     script of the same name (run such a script as ./name).
//   - Progress lines go to stderr only when it is a terminal (or with --progress, never
//     with --quiet), drawn by script.ProgressLine from bgl.Progress counters and paced by
//     the wall clock: they are user interface, not simulation, and pipes never see them.
//   - Build drivers (cmd_build.go): cc, c++ and fc/f77 are one driver over a table of
//     toolchains (compiler, $PPCCC/$PPCCXX/$PPCFC, Debian packages, language flags). cc
//     given a C++ or Fortran source uses that language's toolchain, as a user who types
//     `dpclsh cc app.cpp` means; C++ and Fortran in one command is a usage error (no one
//     driver links both runtimes). fc compiles the embedded mpi.f90 into the temporary
//     include directory at every build rather than shipping an mpi.mod: gfortran reads
//     only the .mod files of its own version, and the module compiles in well under a
//     second. fc adds mpif90's -fallow-argument-mismatch and -fallow-invalid-boz, so the
//     sources MPICH's wrapper accepts build here too.
//   - The REPL prints a one-line banner; Ctrl-C closes the completion menu before the
//     editor sees it, so it clears the line in every state; the job's output is written
//     through the session's current writer (the editor's while the prompt is shown).
//   - exec --listen (cmd_exec.go) runs the job through a runtime.Publisher: the address
//     tools attach at, and whether one attached, detached, dropped or was refused, go to
//     stderr; stdout is the job's alone, the same bytes as without --listen. The secret
//     comes from --secret-file or DPCLSH_COMM_SECRET (netreduce.LoadSecret, as for comm),
//     never from the command line, and there is no default: an open debug interface
//     needs one. --wait-for-tool holds the job before its first instruction until a
//     tool attaches, as gdbserver waits for its debugger: a job of a fraction of a
//     second translated ends before a tool process has started.
package main
