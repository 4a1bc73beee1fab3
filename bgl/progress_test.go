package bgl

import (
	"bytes"
	"testing"
)

// TestProgressCountsRanksThroughTheWindow: the window under way says how many ranks it
// advances and how many it has, so a display can show a slow window moving.
func TestProgressCountsRanksThroughTheWindow(t *testing.T) {
	var out bytes.Buffer
	p := &Progress{}
	j, err := Launch(JobConfig{Exe: "testdata/bin/hello.elf", Nodes: 40, PerIO: 8, Stopped: true,
		Workdir: t.TempDir(), Stdout: &out, Stderr: &out, Progress: p})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for r := 0; r < 37; r++ {
		if err := j.Debug(r / 8).Continue(r); err != nil {
			t.Fatal(err)
		}
	}
	j.RunUntil(DefaultWindowNS)
	if p.InWindow.Load() != 37 || p.Through.Load() != 37 || p.Windows.Load() == 0 {
		t.Errorf("after a window of ranks 0-36: %d of %d ranks through, %d windows; want 37 of 37",
			p.Through.Load(), p.InWindow.Load(), p.Windows.Load())
	}
}

// TestProgressRequestSamplesAtTheNextWindow: a display's request makes the next window's
// end count instructions, without waiting for the periodic full sample (64 windows, a
// long time when windows are slow).
func TestProgressRequestSamplesAtTheNextWindow(t *testing.T) {
	var out bytes.Buffer
	p := &Progress{}
	j, err := Launch(JobConfig{Exe: "testdata/bin/hello.elf", Nodes: 8, PerIO: 8,
		Workdir: t.TempDir(), Stdout: &out, Stderr: &out, Progress: p})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	j.RunUntil(DefaultWindowNS)
	first := p.Instructions.Load()
	j.RunUntil(2 * DefaultWindowNS)
	if got := p.Instructions.Load(); got != first {
		t.Fatalf("instructions moved from %d to %d without a request or a rank starting", first, got)
	}
	p.Request()
	j.RunUntil(3 * DefaultWindowNS)
	if got := p.Instructions.Load(); got <= first {
		t.Errorf("after a request: %d instructions, %d before", got, first)
	}
}
