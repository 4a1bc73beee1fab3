package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/dpclsh/dpclsh"
	"github.com/dpclsh/dpclsh/script"
	"github.com/dpclsh/dpclsh/script/dpcl"
	_ "github.com/dpclsh/dpclsh/script/std" // every Lua module
	lua "github.com/yuin/gopher-lua"
)

// host runs Lua for the command line: -e chunks, a script, the REPL.
type host struct {
	s       *script.Session
	verbose bool
	failed  bool // some chunk reported an error (batch reading of stdin goes on after one)
}

// newSession is the session every mode uses: registered modules plus the prelude. memory
// is the Lua state's budget in bytes (0: script.DefaultSessionMemory).
func newSession(verbose bool, memory int64, stdout, stderr io.Writer) (*script.Session, error) {
	return newSessionEnv(verbose, memory, nil, stdout, stderr)
}

// newSessionEnv is newSession whose launches also give their ranks env ("NAME=value").
func newSessionEnv(verbose bool, memory int64, env []string, stdout, stderr io.Writer) (*script.Session, error) {
	s, err := script.NewSessionWith(script.Options{
		Stdout: stdout, Stderr: stderr, Verbose: verbose, Memory: memory, Env: env,
		Prelude: dpclsh.Prelude, PreludeName: "lib.lua", TCPTransport: tcpTransport,
	})
	if err != nil {
		return nil, err
	}
	for _, m := range []struct{ src, name string }{
		{dpcl.Limpio, "limpio.lua"}, {dpcl.LimpioBytes, "limpio_bytes.lua"},
		{dpcl.LimpioCallsites, "limpio_callsites.lua"}, {dpcl.LimpioReport, "limpio_report.lua"},
		{dpcl.LimpioTable, "limpio_table.lua"},
		{dpcl.LimpioTrace, "limpio_trace.lua"},
	} {
		if err := s.DoString(m.src, m.name); err != nil {
			s.Close()
			return nil, err
		}
		s.MarkInternal(m.name)
	}
	if mod, ok := s.L.GetGlobal("limpio").(*lua.LTable); ok {
		mod.RawSetString("warn", s.L.NewFunction(func(L *lua.LState) int {
			fmt.Fprintln(s.Stderr(), L.CheckString(1))
			return 0
		}))
	}
	return s, nil
}

func runLua(o options, stdin io.Reader, stdout, stderr io.Writer) int {
	s, err := newSession(o.verbose, o.luaMemory, stdout, stderr)
	if err != nil {
		fmt.Fprint(stderr, script.FormatError(err, o.verbose))
		return exitError
	}
	if o.stats {
		dpcl.SetStats(s, stderr)
	}
	if o.shard != nil {
		script.SetShard(s, o.shard)
	} else if o.progress || !o.quiet && isTerminal(stderr) {
		dpcl.SetProgress(s, stderr)
	}
	if err := loadModules(s, o); err != nil {
		fmt.Fprint(stderr, script.FormatError(err, o.verbose))
		s.Close()
		return exitError
	}
	h := &host{s: s, verbose: o.verbose}
	stopSignals := h.interruptOnSignal()
	status := h.runModes(o, stdin, stdout, stderr)
	stopSignals()
	if err := s.Close(); err != nil {
		fmt.Fprintf(stderr, "dpclsh: closing the session: %v\n", err)
		if status == exitOK {
			status = exitError
		}
	}
	return status
}

// runModes runs the -e chunks, then the script, then the REPL when asked or when there is
// nothing else to do. It returns the exit status.
func (h *host) runModes(o options, stdin io.Reader, stdout, stderr io.Writer) int {
	for _, chunk := range o.chunks {
		e := h.evaluator("-e")
		if done := h.report(e.feed(chunk)); !done {
			h.report(true, e.finish())
		}
		if st, stop := h.stopped(); stop {
			return st
		}
	}
	if o.script != "" {
		h.report(true, h.runScript(o.script, o.scriptArgs, stdin))
		if st, stop := h.stopped(); stop {
			return st
		}
	}
	if (len(o.chunks) == 0 && o.script == "") || o.interact {
		dpcl.SetInteractive(h.s, true)
		if isTerminal(stdin) && isTerminal(stdout) {
			h.repl(stdin.(*os.File), stdout, stderr)
		} else {
			h.readChunks(stdin)
		}
	}
	st, _ := h.stopped()
	return st
}

func (h *host) runScript(path string, args []string, stdin io.Reader) error {
	if path != "-" {
		if err := notLuaScript("dpclsh", path); err != nil {
			return err
		}
		return h.s.DoFile(path, args)
	}
	src, err := io.ReadAll(stdin)
	if err != nil {
		return fmt.Errorf("dpclsh: reading the script from standard input: %w", err)
	}
	return h.s.RunMain(string(src), "stdin", args)
}

// stopped says whether the session must end now (os.exit, or an error in a batch mode)
// and with which status.
func (h *host) stopped() (int, bool) {
	if code, ok := h.s.ExitCode(); ok {
		return code, true
	}
	if h.failed {
		return exitError, true
	}
	return exitOK, false
}

// report prints err (unless it is os.exit's) and passes done through.
func (h *host) report(done bool, err error) bool {
	var exit *script.ExitError
	if err == nil || errors.As(err, &exit) {
		return done
	}
	h.failed = true
	io.WriteString(h.s.Stderr(), script.FormatError(err, h.verbose))
	return done
}

// interruptOnSignal makes SIGINT stop the running chunk instead of the process; the REPL
// reads Ctrl-C at the prompt itself, in raw mode, where no signal is raised.
func (h *host) interruptOnSignal() (stop func()) {
	sigs := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(sigs, os.Interrupt)
	go func() {
		for {
			select {
			case <-sigs:
				h.s.Interrupt()
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}

// readChunks is the REPL without a terminal: lines from r form chunks exactly as typed
// ones would, values are echoed, no prompts are printed. Errors are reported and reading
// goes on; the exit status is 1 if any chunk failed.
func (h *host) readChunks(r io.Reader) {
	e := h.evaluator("stdin")
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if line != "" || err == nil {
			h.report(e.feed(strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")))
			h.s.RunPending()
			if _, exiting := h.s.ExitCode(); exiting {
				return
			}
		}
		if err != nil {
			h.report(true, e.finish())
			return
		}
	}
}

func (h *host) evaluator(name string) *evaluator {
	return &evaluator{s: h.s, name: name, next: 1}
}

// evaluator turns input lines into chunks: it collects lines until they compile (or fail
// for a reason more lines cannot fix), runs the chunk and echoes the values it returns.
type evaluator struct {
	s       *script.Session
	name    string   // chunk name: "stdin", "-e"
	next    int      // line number of the next line of input
	pending []string // lines of an incomplete chunk
	last    string   // the chunk most recently completed, for history
}

// feed adds one line of input (which may itself hold several lines). It reports whether a
// chunk was completed (run or rejected) and that chunk's error.
func (e *evaluator) feed(line string) (bool, error) {
	e.pending = append(e.pending, line)
	src := strings.Join(e.pending, "\n")
	fn, err := e.s.LoadInteractive(src, e.name, e.next)
	var serr *script.Error
	if err != nil && errors.As(err, &serr) && serr.Incomplete {
		return false, nil
	}
	e.last = src
	e.next += strings.Count(src, "\n") + 1
	e.pending = nil
	if err != nil {
		return true, err
	}
	vals, err := e.s.Call(fn)
	if err != nil {
		return true, err
	}
	e.echo(vals)
	return true, nil
}

// finish ends the input: lines of an incomplete chunk are an error.
func (e *evaluator) finish() error {
	if len(e.pending) == 0 {
		return nil
	}
	src := strings.Join(e.pending, "\n")
	e.pending = nil
	_, err := e.s.LoadAt(src, e.name, e.next)
	return err
}

// discard drops the lines of an incomplete chunk (Ctrl-C at a continuation prompt).
func (e *evaluator) discard() {
	if len(e.pending) > 0 {
		e.next += strings.Count(strings.Join(e.pending, "\n"), "\n") + 1
	}
	e.pending = nil
}

func (e *evaluator) echo(vals []lua.LValue) {
	if len(vals) == 0 {
		return
	}
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = script.Format(e.s.L, v, script.DefaultFormat)
	}
	io.WriteString(e.s.Stdout(), strings.Join(parts, "\t")+"\n")
}

// loadModules applies --module-dir and --modules: dpcl.module_dir, then
// dpcl.load_modules{...}, which reports each module it refuses on stderr.
func loadModules(s *script.Session, o options) error {
	var b strings.Builder
	if o.moduleDir != "" {
		fmt.Fprintf(&b, "dpcl.module_dir = %s\n", strconv.Quote(o.moduleDir))
	}
	if len(o.modules) > 0 {
		b.WriteString("dpcl.load_modules{")
		for _, m := range o.modules {
			fmt.Fprintf(&b, "%s, ", strconv.Quote(m))
		}
		b.WriteString("}\n")
	}
	if b.Len() == 0 {
		return nil
	}
	return s.DoString(b.String(), "--modules")
}
