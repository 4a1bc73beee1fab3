package dpcl

import (
	"bytes"
	"testing"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/script"
)

// TestProgressTakesTheSessionsOutput: while a progress line is shown, print from probe
// callbacks and warnings (the session's output, not only the job's) goes through it, so
// the line is cleared before them; afterwards the session writes where it did before.
func TestProgressTakesTheSessionsOutput(t *testing.T) {
	var out, term bytes.Buffer
	s, err := script.NewSessionWith(script.Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	SetProgress(s, &term)
	stop := showProgress(s, &bgl.Progress{}, "wait")
	if s.Stdout() == &out || s.Stderr() == &out {
		t.Error("the session writes around the progress line")
	}
	if err := s.DoString(`print("probe 1: 2016")`, "cb.lua"); err != nil {
		t.Fatal(err)
	}
	stop()
	if s.Stdout() != &out || s.Stderr() != &out {
		t.Error("the session's output is not restored after the progress line")
	}
	if out.String() != "probe 1: 2016\n" {
		t.Errorf("output %q", out.String())
	}
}
