package dpcl

import (
	"github.com/dpclsh/dpclsh/script"
	"io"
	"sync/atomic"

	"github.com/dpclsh/dpclsh/bgl"
)

// progressKey holds where a session's progress lines go (the terminal's stderr); sessions
// without one show none, so scripts in pipes and tests print the same bytes.
var progressKey = script.NewKey[io.Writer]("progress")

// SetProgress makes dpcl.launch and app:wait draw a progress line on w (a terminal) while
// they run longer than a moment; nil turns it off.
func SetProgress(s *script.Session, w io.Writer) {
	if w == nil {
		progressKey.Delete(s)
		return
	}
	progressKey.Set(s, w)
}

func progressTarget(s *script.Session) io.Writer {
	w, _ := progressKey.Get(s)
	return w
}

// jobOutput is the writer a job launched from Lua writes to: the session's output as it
// is at the moment of the write (the line editor's while the prompt is shown, so a job's
// output appears above the prompt and the typed line is redrawn), through the progress
// line when one is shown.
type jobOutput struct {
	s        *script.Session
	stderr   bool
	progress *atomic.Pointer[script.ProgressLine]
}

func (o jobOutput) Write(b []byte) (int, error) {
	out := o.s.Stdout()
	if o.stderr {
		out = o.s.Stderr()
	}
	if pl := o.progress.Load(); pl != nil {
		return pl.Writer(out).Write(b)
	}
	return out.Write(b)
}

// showProgress starts a progress line for p when the session has a target, and returns
// the function that ends it.
func (a *luaApp) showProgress(s *script.Session, p *bgl.Progress, phase string) (stop func()) {
	w := progressTarget(s)
	if w == nil || p == nil {
		return func() {}
	}
	pl := script.StartProgress(w, p, phase)
	a.progress.Store(pl)
	return func() {
		a.progress.Store(nil)
		pl.Stop()
	}
}
