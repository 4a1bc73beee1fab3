package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/dpclsh/dpclsh/script"
	lua "github.com/yuin/gopher-lua"
)

func init() {
	registerSubcommand(subcommand{
		name:  "profile",
		usage: "profile [--exclude LIST] [--trace FILE.json] [--nodes N] [--per-io N] [--env NAME=VALUE]... [--export NAME]... PROG.elf [ARGS...]",
		brief: "an mpiP-style profile of an unmodified MPI program: calls and time per MPI function per rank (limpio)",
		help: `options:
  --exclude LIST     MPI functions not to instrument, comma-separated; added to the job's
                     MPIINSTR_EXCLUDE, which the host's is not unless exported:
                     --export MPIINSTR_EXCLUDE (or --env MPIINSTR_EXCLUDE=LIST)
  --trace FILE.json  also write a Chrome/Perfetto trace of every MPI call to this file
  --nodes N          number of ranks (default 16)
  --per-io N         compute nodes per I/O node (default 64)
` + envHelp(21) + `
When ranks fault, each fault is printed first (the code and its callers), then the
table of what every rank counted up to the end (the MPI calls it completed, read from
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
  local prof = limpio.profile(app, {exclude = o.exclude, per_rank = false})
  local tr
  if o.trace ~= "" then tr = limpio.trace(app, {exclude = o.exclude, path = o.trace}) end
  app:start()
  local st = app:wait()
  for _, line in ipairs(st.reports) do print(line) end
  prof:table()
  if prof.partial then
    print("counted up to the fault: the MPI calls each rank completed, read from its memory once the job ended")
  end
  local ra = prof:ratio()
  if ra.workers then
    printf("MPI time / total time: rank 0 %.1f%%, mean of the other ranks %.1f%%\n", 100 * ra.master, 100 * ra.workers)
  else
    printf("MPI time / total time: %.1f%%\n", 100 * ra.master)
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
func runProfile(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dpclsh profile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	exclude := fs.String("exclude", "", "MPI functions not to instrument, comma-separated (added to the job's MPIINSTR_EXCLUDE)")
	trace := fs.String("trace", "", "also write a Chrome/Perfetto trace of every MPI call to this JSON file")
	nodes := fs.Int("nodes", 16, "number of ranks")
	perIO := fs.Int("per-io", 64, "compute nodes per I/O node")
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
	jobEnv, err := envs.env()
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh profile: %v\n", err)
		fs.Usage()
		return exitUsage
	}
	s, err := newSession(false, 0, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh profile: %v\n", err)
		return exitError
	}
	defer s.Close()
	L := s.L
	o := L.NewTable()
	o.RawSetString("exe", lua.LString(fs.Arg(0)))
	o.RawSetString("nodes", lua.LNumber(*nodes))
	o.RawSetString("per_io", lua.LNumber(*perIO))
	o.RawSetString("trace", lua.LString(*trace))
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
