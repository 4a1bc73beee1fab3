package dpcl

import (
	"io"

	"github.com/dpclsh/dpclsh/script"

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
// output appears above the prompt and the typed line is redrawn; the progress line's
// while one is shown).
type jobOutput struct {
	s      *script.Session
	stderr bool
}

func (o jobOutput) Write(b []byte) (int, error) {
	if o.stderr {
		return o.s.Stderr().Write(b)
	}
	return o.s.Stdout().Write(b)
}

// showProgress starts a progress line for p when the session has a target, and returns
// the function that ends it. While it is shown, everything the session writes (the job's
// output, print from probe callbacks, warnings) goes through it, so the line is cleared
// before any other output and drawn again below it.
func showProgress(s *script.Session, p *bgl.Progress, phase string) (stop func()) {
	return showProgressUntil(s, p, phase, 0, 0)
}

// showProgressUntil is showProgress for a wait that runs the job from virtual time from to
// until (ns, dpcl.sleep's span): its bar fills as the job's virtual time crosses the span.
func showProgressUntil(s *script.Session, p *bgl.Progress, phase string, from, until uint64) (stop func()) {
	w := progressTarget(s)
	if w == nil || p == nil {
		return func() {}
	}
	pl := script.StartProgressUntil(w, p, phase, from, until)
	out, errOut := s.Stdout(), s.Stderr()
	s.SetOutput(pl.Writer(out), pl.Writer(errOut))
	return func() {
		s.SetOutput(out, errOut)
		pl.Stop()
	}
}
