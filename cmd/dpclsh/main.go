package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/dpclsh/dpclsh/bgl/shard"
)

// Exit statuses (DESIGN.md section 8).
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

func main() {
	setMemoryLimit()
	if len(os.Args) > 1 && os.Args[1] == shardsFlag {
		os.Exit(runShards(os.Args[2:]))
	}
	os.Exit(runChecked(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole program minus os.Exit, so tests can drive it in-process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if sub, ok := subcommands[args[0]]; ok {
			if len(args) > 1 && isHelpFlag(args[1]) {
				writeSubcommandHelp(stdout, sub)
				return 0
			}
			ctx, stop := signalContext()
			defer stop()
			return sub.run(ctx, args[1:], stdin, stdout, stderr)
		}
	}
	o, err := parseArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh: %v\n%s", err, usageLine)
		return exitUsage
	}
	switch {
	case o.help:
		writeHelp(stdout)
		return exitOK
	case o.version:
		fmt.Fprintln(stdout, versionString())
		return exitOK
	}
	return runLua(o, stdin, stdout, stderr)
}

// options is the parsed command line of the Lua host.
type options struct {
	chunks     []string // -e, in order
	script     string   // "" for none; "-" for standard input
	scriptArgs []string
	interact   bool // -i
	verbose    bool // -v
	help       bool
	version    bool
	quiet      bool            // --quiet: no progress lines
	progress   bool            // --progress: progress lines even when stderr is not a terminal
	stats      bool            // --stats: each job's account on stderr when it closes
	modules    []string        // --modules: performance modules loaded before anything runs
	moduleDir  string          // --module-dir: the module library (dpcl.module_dir)
	luaMemory  int64           // --lua-memory: the Lua state's memory budget in bytes (0: default)
	shard      shard.Exchanger // the sharded run this process is one of (--shards), nil alone
}

const usageLine = "usage: dpclsh [-v] [-i] [--quiet|--progress] [--stats] [--modules A,B] [--module-dir DIR] [--lua-memory MIB] [-e CHUNK]... [SCRIPT.lua [ARGS...]]\n" +
	"       dpclsh SUBCOMMAND ARGS... (dpclsh --help lists them)\n"

// parseArgs reads options up to the script name; everything after the script belongs to
// the script, as with the stand-alone lua interpreter.
func parseArgs(args []string) (options, error) {
	var o options
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-e":
			if i+1 >= len(args) {
				return o, fmt.Errorf("-e needs a chunk of Lua")
			}
			i++
			o.chunks = append(o.chunks, args[i])
		case a == "-i":
			o.interact = true
		case a == "-v":
			o.verbose = true
		case a == "-h" || a == "--help" || a == "-help":
			o.help = true
		case a == "--quiet" || a == "-q":
			o.quiet = true
		case a == "--progress":
			o.progress = true
		case a == "--stats":
			o.stats = true
		case a == "--version" || a == "-version":
			o.version = true
		case a == "--modules" || a == "--module-dir":
			if i+1 >= len(args) || args[i+1] == "" {
				return o, fmt.Errorf("%s needs a value", a)
			}
			i++
			if a == "--module-dir" {
				o.moduleDir = args[i]
				break
			}
			for _, m := range strings.Split(args[i], ",") {
				if m = strings.TrimSpace(m); m != "" {
					o.modules = append(o.modules, m)
				}
			}
		case a == "--lua-memory":
			if i+1 >= len(args) {
				return o, fmt.Errorf("--lua-memory needs a number of MiB")
			}
			i++
			mib, err := strconv.ParseInt(args[i], 10, 64)
			if err != nil || mib <= 0 || mib > 1<<40 {
				return o, fmt.Errorf("--lua-memory %q: want a positive number of MiB", args[i])
			}
			o.luaMemory = mib << 20
		case a == "--":
			if i+1 < len(args) {
				o.script, o.scriptArgs = args[i+1], args[i+2:]
			}
			return o, nil
		case a == "-" || !strings.HasPrefix(a, "-"):
			o.script, o.scriptArgs = a, args[i+1:]
			return o, nil
		default:
			return o, fmt.Errorf("unknown option %s", a)
		}
	}
	return o, nil
}

func writeHelp(w io.Writer) {
	fmt.Fprintf(w, "dpclsh: a Lua shell for dynamic instrumentation of MPI programs on a simulated Blue Gene/L.\n\n%s\n", usageLine)
	fmt.Fprint(w, `  dpclsh                       interactive shell (REPL)
  dpclsh SCRIPT.lua [ARGS...]  run a script; ARGS are in the table arg (arg[0] = SCRIPT)
  -e CHUNK                     run a chunk of Lua (values it returns are printed)
  -i                           enter the REPL after -e and SCRIPT
  -v                           verbose errors: Lua traceback and Go stacks
  --quiet, -q                  no progress lines (shown on a terminal's stderr by dpcl.launch,
                               app:wait and dpcl.sleep when they take more than a moment)
  --progress                   progress lines even when stderr is not a terminal
  --stats                      each job's account on stderr when it closes, as exec --stats:
                               "dpclsh: job N (PROG): ranks, status, instructions, virtual
                               time, memory, environment"; under --shards, then a line per
                               process (psets, ranks, instructions, windows, bytes
                               exchanged, host time waiting at window ends)
  --modules A,B                load performance modules for every job (dpcl.load_modules)
  --module-dir DIR             the module library (default examples/modules; dpcl.module_dir)
  --lua-memory MIB             what the Lua state may hold (default: half of what the host
                               lets the process use); a chunk that would pass it fails with
                               "memory budget exceeded" and the session goes on
  --help, --version

subcommands:
`)
	for _, name := range subcommandNames() {
		sub := subcommands[name]
		fmt.Fprintf(w, "  dpclsh %s\n      %s\n", sub.usage, sub.brief)
	}
	fmt.Fprint(w, `
Exit status: 0 success, 1 error, 2 usage; os.exit(n) ends the session with status n.
In the shell, help() lists the modules and help(x) describes x.
History: $DPCLSH_HISTORY, else ~/.dpclsh_history.
`)
}

// version is the release this source tree is; a module build may carry a newer one.
const version = "0.1.0"

func versionString() string {
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	return fmt.Sprintf("dpclsh %s (gopher-lua, Lua 5.1; %s %s/%s)", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
