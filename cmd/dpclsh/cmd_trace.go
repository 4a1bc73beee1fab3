package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

func init() {
	registerSubcommand(subcommand{
		name:  "trace",
		usage: "trace [-e PROGRAM | FILE.bt | -l PATTERN] [--nodes N] [--per-io N] [--env NAME=VALUE]... [--export NAME]... PROG.elf [ARGS...]",
		brief: "bpftrace-style one-liners over a whole MPI job: maps kept in rank memory and merged in the tree",
		help: `options:
  -e PROGRAM    the program's text (errors call it stdin); otherwise FILE.bt holds it
  -l PATTERN    list the probes PROG.elf offers for functions matching PATTERN (* and ?)
  --nodes N     number of ranks (default 16)
  --per-io N    compute nodes per I/O node (default 64)
` + envHelp(16) + `
The language (after bpftrace's): probes FUNC:entry, FUNC:exit (FUNC may hold * and ?),
file.c:LINE, BEGIN, END, interval:s:N / interval:ms:N / interval:us:N (virtual
time: print and clear the maps as the ranks hold them each period), profile:hz:N (only
@m[func] = count(): the machine's sampler); a predicate /expr/; statements separated
by ';':
  @name[key, ...] = count() | sum(x) | min(x) | max(x) | avg(x) | stats(x) | hist(x)
                  | lhist(x, MIN, MAX, STEP)
  @name = x  (a per-rank variable)   $x = expr   printf("fmt %d\n", x)
  in BEGIN, END and interval blocks: printf, print(@m), clear(@m); exit() in BEGIN, END
Builtins: rank, func, probe and ustack / ustack(N) (keys; ustack walks 8 frames and
prints them one a line), arg0..arg7, retval, nsecs (virtual: when the point was
reached), cycles, instructions, loads, stores, branches, fpops. The maps live in each
rank's memory, go up the tree when the ranks reach _exit, merged by key (the "mapmerge"
filter), and print at the end in bpftrace's format. Ctrl-C (SIGINT) stops the job,
reads the maps the ranks hold, runs END and prints them as at exit (status 0). An
integer key part indexes 0..255; events with keys outside are counted and reported,
not kept.

examples:
  dpclsh trace -e 'MPI_*:entry { @[func] = count() }' --nodes 64 examples/apps/bin/ring.elf
  dpclsh trace -e 'MPI_Send:entry { @bytes[rank] = hist(arg1 * 4) }' examples/apps/bin/ring.elf
  dpclsh trace -l 'MPI_*' examples/apps/bin/ring.elf
`,
		run: runTrace,
	})
}

// bpfChunk launches the job and hands the program to dpcl.trace, then runs the job in
// slices of wall time until it ends or SIGINT arrives (TRACE.interrupted()): then the
// ranks are held, their maps read and merged, the job ended, and the maps print as at
// exit. Its parameters arrive in the global TRACE. A sharded run (TRACE.sharded) waits
// for the end in one call: a slice of wall time would end at another virtual time in
// each process, and their sessions must take the same steps.
const bpfChunk = `
local o = TRACE
local app = dpcl.launch(o.exe, {nodes = o.nodes, per_io = o.per_io, args = o.args, env = o.env, quiet = true})
local ok, err = pcall(function()
  if o.list ~= "" then
    for _, fn in ipairs(app:functions(o.list)) do
      print(fn.name .. ":entry")
      print(fn.name .. ":exit")
    end
    return
  end
  local r = dpcl.trace(app, o.program, {name = o.name, run = false})
  app:start()
  local st = o.sharded and app:wait() or app:wait(0.1)
  while app:status() == "running" and not o.interrupted() do st = app:wait(0.1) end
  if app:status() == "running" then
    r.interrupt()
    io.stderr:write(string.format("dpclsh trace: interrupted at %.0f us of virtual time: the maps as the ranks held them\n", r.interrupted_at / 1000))
    st = app:wait()
  end
  r.status = st
  r = r.finish()
  for _, line in ipairs(r.status.reports) do io.stderr:write(line, "\n") end
end)
app:close()
if not ok then error(err, 0) end
`

const bpfChunkName = "dpclsh trace"

// runTrace is `dpclsh trace`: dpcl.trace driven from the command line.
func runTrace(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dpclsh trace", flag.ContinueOnError)
	fs.SetOutput(stderr)
	program := fs.String("e", "", "the program's text")
	list := fs.String("l", "", "list the probes of functions matching this pattern")
	nodes := fs.Int("nodes", 16, "number of ranks")
	perIO := fs.Int("per-io", 64, "compute nodes per I/O node")
	var envs envFlags
	envs.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: dpclsh "+subcommands["trace"].usage)
		fmt.Fprintln(stderr, subcommands["trace"].brief)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	rest, name := fs.Args(), "stdin"
	if *program == "" && *list == "" && len(rest) > 0 {
		text, err := os.ReadFile(rest[0])
		if err != nil {
			fmt.Fprintf(stderr, "dpclsh trace: %v\n", err)
			return exitError
		}
		*program, name, rest = string(text), rest[0], rest[1:]
	}
	if len(rest) < 1 || *nodes < 1 || *perIO < 1 || *program == "" && *list == "" {
		fs.Usage()
		return exitUsage
	}
	jobEnv, err := envs.env()
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh trace: %v\n", err)
		fs.Usage()
		return exitUsage
	}
	s, err := newSession(false, 0, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh trace: %v\n", err)
		return exitError
	}
	defer s.Close()
	shardSession(ctx, s)
	L := s.L
	o := L.NewTable()
	o.RawSetString("exe", lua.LString(rest[0]))
	o.RawSetString("args", stringList(L, rest[1:]))
	o.RawSetString("nodes", lua.LNumber(*nodes))
	o.RawSetString("per_io", lua.LNumber(*perIO))
	o.RawSetString("program", lua.LString(*program))
	o.RawSetString("name", lua.LString(name))
	o.RawSetString("list", lua.LString(*list))
	env := L.NewTable()
	sort.Strings(jobEnv)
	for _, kv := range jobEnv {
		k, v, _ := strings.Cut(kv, "=")
		env.RawSetString(k, lua.LString(v))
	}
	o.RawSetString("env", env)
	o.RawSetString("sharded", lua.LBool(shardOf(ctx) != nil))
	o.RawSetString("interrupted", L.NewFunction(func(L *lua.LState) int {
		L.Push(lua.LBool(ctx.Err() != nil))
		return 1
	}))
	L.SetGlobal("TRACE", o)
	if err := s.DoString(bpfChunk, bpfChunkName); err != nil {
		fmt.Fprintf(stderr, "dpclsh trace: %s\n", withoutChunkPosition(err))
		return exitError
	}
	return exitOK
}
