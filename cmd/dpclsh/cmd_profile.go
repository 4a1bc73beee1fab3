package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dpclsh/dpclsh/script"
	lua "github.com/yuin/gopher-lua"
)

func init() {
	registerSubcommand(subcommand{
		name:  "profile",
		usage: "profile [--exclude LIST] [--trace FILE.json] [--report FILE] [--sort time|count|bytes|name] [--top N] [--no-callsites] [--csv DIR] [--per-rank] [--top-ranks N] [--nodes N] [--per-io N] [--cpuprofile FILE] [--env NAME=VALUE]... [--export NAME]... PROG.elf [ARGS...]",
		brief: "an mpiP-style report of an unmodified MPI program: MPI time per task, callsites, message sizes, imbalance (limpio)",
		help: `options:
  --exclude LIST     MPI functions not to instrument, comma-separated; added to the job's
                     MPIINSTR_EXCLUDE, which the host's is not unless exported:
                     --export MPIINSTR_EXCLUDE (or --env MPIINSTR_EXCLUDE=LIST)
  --trace FILE.json  also write a Chrome/Perfetto trace of every MPI call to this file
  --report FILE      write the report there (default PROG.N.PID.dpclsh.txt: program,
                     ranks, rank 0's process id)
  --sort KEY         order of the aggregate and statistics sections: time (default),
                     count, bytes or name
  --top N            rows per section (default 20)
  --callsites        one row per callsite (the default)
  --no-callsites     one row per MPI function
  --csv DIR          also write DIR/PROG.N.PID.callsites.csv (with --per-rank also
                     .tasks.csv and .ranks.csv, every rank)
  --per-rank         bring every rank's row to the front-end too: the report then groups
                     ranks whose printed rows are equal (O(ranks) messages)
  --top-ranks N      without --per-rank, the report's task rows are the N ranks with the
                     most MPI time, chosen in the tree by the topk filter (default 8; 0:
                     none)
  --nodes N          number of ranks (default 16)
  --per-io N         compute nodes per I/O node (default 64)
  --cpuprofile FILE  write dpclsh's own host CPU profile there (for go tool pprof;
                     under --shards, process 0's)
` + envHelp(21) + `
The report follows mpiP's sections in virtual time: a header, MPI time per task
(AppTime from a rank's first MPI call to its last return, MPITime in its outermost
calls; sum, max and min with their ranks, mean), the callsites (each call of an MPI
function by its return address, resolved to file:line and the calling function), the
aggregate time and sent bytes per callsite, per-call time and size statistics, and the
imbalance per callsite (the most and least time a rank spent there). Every number is
reduced in the tree (sum, max, min), so the front-end receives a few messages per 64
callsites whatever the number of ranks.

When ranks fault, each fault is printed first (the code and its callers), then the
report of what every rank counted up to the end (the MPI calls it completed, read from
its memory: the ranks never reach _exit, where rows are sent), and the command fails
with "N of M ranks faulted".

example:
  dpclsh profile --nodes 256 --exclude MPI_Comm_rank examples/apps/bin/master_worker.elf
`,
		run: runProfile,
	})
}

// profileChunk runs the program under limpio.profile (and limpio.trace with --trace) and
// prints the table, after the reports of faulted ranks (whose profile limpio then reads
// from the ranks' memory); its parameters arrive in the global PROFILE.
const profileChunk = `
local o = PROFILE
local limpio = require("limpio")
if o.trace ~= "" then dpcl.check_write(o.trace) end
local app = dpcl.launch(o.exe, {nodes = o.nodes, per_io = o.per_io, args = o.args, env = o.env, quiet = true})
local faulted
local ok, err = pcall(function()
  local prof = limpio.profile(app, {exclude = o.exclude, per_rank = o.per_rank, top_ranks = o.top_ranks})
  local tr
  if o.trace ~= "" then tr = limpio.trace(app, {exclude = o.exclude, path = o.trace}) end
  local prefix = string.format("%s.%d.%d", o.prog, app.size, app:proctable()[1].pid)
  local path = o.report ~= "" and o.report or prefix .. ".dpclsh.txt"
  dpcl.check_write(path)
  app:start()
  local st = app:wait()
  for _, line in ipairs(st.reports) do print(line) end
  prof:report{path = path, sort = o.sort, top = o.top, callsites = o.callsites,
    command = o.command, version = o.version}
  printf("report: %s\n", path)
  if o.csv ~= "" then
    for _, f in ipairs(prof:report_csv(o.csv, prefix)) do printf("csv: %s\n", f) end
  end
  if tr then
    local info = tr:perfetto(o.trace)
    printf("trace: %d events, %d bytes in %s (%d dropped)\n", info.events, info.bytes, o.trace, info.dropped)
  end
  if st.faulted > 0 then faulted = string.format("%d of %d ranks faulted", st.faulted, app.size) end
end)
app:close()
if not ok then error(err, 0) end
if faulted then error(faulted, 0) end
`

// runProfile is `dpclsh profile`: the limpio module driven from the command line.
func runProfile(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dpclsh profile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	exclude := fs.String("exclude", "", "MPI functions not to instrument, comma-separated (added to the job's MPIINSTR_EXCLUDE)")
	trace := fs.String("trace", "", "also write a Chrome/Perfetto trace of every MPI call to this JSON file")
	report := fs.String("report", "", "write the report to this file (default PROG.N.PID.dpclsh.txt)")
	sortKey := fs.String("sort", "time", "order of the report's sections: time, count, bytes or name")
	top := fs.Int("top", 20, "rows per section of the report")
	callsites := fs.Bool("callsites", true, "a row per callsite (false: per MPI function)")
	noCallsites := fs.Bool("no-callsites", false, "a row per MPI function rather than per callsite")
	csvDir := fs.String("csv", "", "also write the report's tables as CSV files in this directory")
	perRank := fs.Bool("per-rank", false, "bring every rank's row to the front-end (grouped rows, per-rank CSV)")
	topRanks := fs.Int("top-ranks", 8, "without --per-rank, the task rows of the ranks with the most MPI time (0: none)")
	nodes := fs.Int("nodes", 16, "number of ranks")
	perIO := fs.Int("per-io", 64, "compute nodes per I/O node")
	cpuProfile := fs.String("cpuprofile", "", "write the host CPU profile of dpclsh itself to this file (go tool pprof)")
	var envs envFlags
	envs.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: dpclsh "+subcommands["profile"].usage)
		fmt.Fprintln(stderr, subcommands["profile"].brief)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() < 1 || *nodes < 1 || *perIO < 1 {
		fs.Usage()
		return exitUsage
	}
	if !slices.Contains([]string{"time", "count", "bytes", "name"}, *sortKey) {
		fmt.Fprintf(stderr, "dpclsh profile: --sort %s: want time, count, bytes or name\n", *sortKey)
		return exitUsage
	}
	if *topRanks < 0 {
		fmt.Fprintf(stderr, "dpclsh profile: --top-ranks %d: want a number of ranks from 0\n", *topRanks)
		return exitUsage
	}
	if *top < 1 {
		fmt.Fprintf(stderr, "dpclsh profile: --top %d: want a number of rows from 1\n", *top)
		return exitUsage
	}
	jobEnv, err := envs.env()
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh profile: %v\n", err)
		fs.Usage()
		return exitUsage
	}
	if *cpuProfile != "" && processZero(ctx) {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "dpclsh profile: --cpuprofile: %v\n", err)
			return exitError
		}
		defer stop()
	}
	s, err := newSession(false, 0, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh profile: %v\n", err)
		return exitError
	}
	defer s.Close()
	shardSession(ctx, s)
	L := s.L
	o := L.NewTable()
	o.RawSetString("exe", lua.LString(fs.Arg(0)))
	o.RawSetString("nodes", lua.LNumber(*nodes))
	o.RawSetString("per_io", lua.LNumber(*perIO))
	o.RawSetString("trace", lua.LString(*trace))
	o.RawSetString("report", lua.LString(*report))
	o.RawSetString("sort", lua.LString(*sortKey))
	o.RawSetString("top", lua.LNumber(*top))
	o.RawSetString("callsites", lua.LBool(*callsites && !*noCallsites))
	o.RawSetString("csv", lua.LString(*csvDir))
	o.RawSetString("per_rank", lua.LBool(*perRank))
	if !*perRank {
		o.RawSetString("top_ranks", lua.LNumber(*topRanks))
	}
	o.RawSetString("prog", lua.LString(strings.TrimSuffix(filepath.Base(fs.Arg(0)), ".elf")))
	o.RawSetString("command", lua.LString(strings.Join(fs.Args(), " ")))
	o.RawSetString("version", lua.LString("dpclsh "+version))
	o.RawSetString("args", stringList(L, fs.Args()[1:]))
	var ex []string
	for _, n := range strings.Split(*exclude, ",") {
		if n = strings.TrimSpace(n); n != "" {
			ex = append(ex, n)
		}
	}
	o.RawSetString("exclude", stringList(L, ex))
	env := L.NewTable()
	for _, kv := range jobEnv {
		k, v, _ := strings.Cut(kv, "=")
		env.RawSetString(k, lua.LString(v))
	}
	o.RawSetString("env", env)
	L.SetGlobal("PROFILE", o)
	if err := s.DoString(profileChunk, profileChunkName); err != nil {
		fmt.Fprintf(stderr, "dpclsh profile: %s\n", withoutChunkPosition(err))
		return exitError
	}
	return exitOK
}

const profileChunkName = "dpclsh profile"

// withoutChunkPosition is the message of err without a position in profileChunk or
// bpfChunk: the
// user wrote none of it, so its line numbers would only mislead.
func withoutChunkPosition(err error) string {
	var e *script.Error
	if errors.As(err, &e) && (e.File == profileChunkName || e.File == bpfChunkName) {
		return e.Msg
	}
	return err.Error()
}

func stringList(L *lua.LState, ss []string) *lua.LTable {
	t := L.CreateTable(len(ss), 0)
	for _, s := range ss {
		t.Append(lua.LString(s))
	}
	return t
}
