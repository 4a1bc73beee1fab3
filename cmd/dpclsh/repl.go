package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"

	"github.com/chzyer/readline"
	"golang.org/x/sys/unix"
)

const (
	promptFirst = "> "
	promptMore  = ">> "
)

// banner is the one line the REPL starts with.
func banner() string {
	return fmt.Sprintf("dpclsh %s: Lua 5.1 for DPCL on a simulated Blue Gene/L. help() for help, Ctrl-D to leave.", version)
}

// isTerminal reports whether f is an *os.File on a terminal, or a writer over one.
func isTerminal(f any) bool {
	if w, ok := f.(interface{ File() *os.File }); ok {
		f = w.File()
	}
	file, ok := f.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(file.Fd()), unix.TCGETS)
	return err == nil
}

// repl is the interactive shell on a terminal. The session goroutine (this one) keeps
// running posted events and answering completion requests while the line editor waits
// for input on its own goroutine; asynchronous output goes through the editor, which
// redraws the prompt below it.
func (h *host) repl(stdin *os.File, stdout, stderr io.Writer) {
	comp := &completer{reqs: make(chan completion)}
	var editor atomic.Pointer[readline.Instance]
	rl, err := readline.NewEx(&readline.Config{
		Prompt:                 promptFirst,
		AutoComplete:           comp,
		HistoryLimit:           historyLimit,
		DisableAutoSaveHistory: true,
		InterruptPrompt:        "^C",
		// Ctrl-C at the prompt also stops a callback that a posted event is running. With
		// the completion menu open the editor would only close the menu and keep the line;
		// closing the menu here first makes Ctrl-C clear the line in every state. The
		// filter runs on the editor's own goroutine, the one that owns its modes.
		FuncFilterInputRune: func(r rune) (rune, bool) {
			if r == readline.CharInterrupt {
				h.s.Interrupt()
				if ed := editor.Load(); ed != nil && ed.Operation.IsInCompleteMode() {
					ed.Operation.ExitCompleteMode(true)
				}
			}
			return r, true
		},
		Stdin:  stdin,
		Stdout: stdout,
		Stderr: stderr,
	})
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh: cannot start the line editor: %v\n", err)
		h.readChunks(stdin)
		return
	}
	defer rl.Close()
	editor.Store(rl)
	fmt.Fprintln(rl.Stdout(), banner())

	histPath := historyPath()
	if histPath != "" {
		entries, err := loadHistory(histPath)
		if err != nil {
			fmt.Fprintln(rl.Stderr(), err)
		}
		for _, e := range entries {
			rl.SaveHistory(e)
		}
	}
	e := h.evaluator("stdin")
	for {
		if len(e.pending) > 0 {
			rl.SetPrompt(promptMore)
		} else {
			rl.SetPrompt(promptFirst)
		}
		h.s.SetOutput(rl.Stdout(), rl.Stderr())
		line, err := h.readLine(rl, comp)
		// While a chunk runs the editor is not drawing a prompt: write straight through.
		h.s.SetOutput(stdout, stderr)
		switch {
		case errors.Is(err, readline.ErrInterrupt):
			e.discard()
			continue
		case err != nil: // io.EOF: Ctrl-D
			return
		}
		done, cerr := e.feed(line)
		h.report(done, cerr)
		h.failed = false // an error at the prompt does not make the session fail
		if done {
			h.remember(rl, histPath, e.last)
		}
		if _, exiting := h.s.ExitCode(); exiting {
			return
		}
	}
}

// remember adds a completed chunk to the editor's history and to the history file.
func (h *host) remember(rl *readline.Instance, path, chunk string) {
	if chunk == "" {
		return
	}
	rl.SaveHistory(chunk)
	if path == "" {
		return
	}
	if err := appendHistory(path, chunk); err != nil {
		fmt.Fprintln(rl.Stderr(), err)
	}
}

// readLine reads one line with the editor while the session goroutine stays available:
// it runs posted events, answers completion requests, and lets idle work (the simulated
// machine) advance until the line arrives.
func (h *host) readLine(rl *readline.Instance, comp *completer) (string, error) {
	type result struct {
		line string
		err  error
	}
	ch := make(chan result, 1)
	stopIdle := h.s.StartIdle()
	go func() {
		line, err := rl.Readline()
		ch <- result{line, err}
	}()
	for {
		select {
		case r := <-ch:
			stopIdle()
			return r.line, r.err
		case fn := <-h.s.Events():
			fn()
		case req := <-comp.reqs:
			partial, words := h.s.Complete(req.text)
			req.reply <- completed{partial, words}
		}
	}
}

// completer is the editor's AutoCompleter. The editor calls it on its own goroutine, and
// the Lua state belongs to the session goroutine, so it asks that goroutine for the
// words.
type completer struct{ reqs chan completion }

type completion struct {
	text  string
	reply chan completed
}

type completed struct {
	partial string
	words   []string
}

// Do returns the endings of the words that complete the name before the cursor.
func (c *completer) Do(line []rune, pos int) ([][]rune, int) {
	req := completion{text: string(line[:pos]), reply: make(chan completed, 1)}
	c.reqs <- req
	ans := <-req.reply
	n := len([]rune(ans.partial))
	out := make([][]rune, len(ans.words))
	for i, w := range ans.words {
		out[i] = []rune(w)[n:]
	}
	return out, n
}
