package script

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/bgl"
)

// TestProgressLineMovesBeforeAnyRankEnds: an SPMD job's ranks end together, so a bar of
// ended ranks would stay empty for the whole run; the line sweeps a block instead.
func TestProgressLineMovesBeforeAnyRankEnds(t *testing.T) {
	var p bgl.Progress
	p.Ranks.Store(64)
	p.Loaded.Store(64)
	p.Running.Store(64)
	pl := &ProgressLine{w: &bytes.Buffer{}, p: &p, phase: "wait"}
	seen := map[string]bool{}
	for i := 0; i < 5; i++ {
		pl.ticks = i
		line := pl.text()
		if !strings.HasPrefix(line, "wait [") || !strings.Contains(line, "0/64 ranks ended, 64 running") {
			t.Fatalf("line %q", line)
		}
		seen[line[:strings.IndexByte(line, ']')+1]] = true
	}
	if len(seen) != 5 {
		t.Errorf("the bar took %d shapes in 5 draws, want 5: %v", len(seen), seen)
	}
	p.Ended.Store(32)
	if line := pl.text(); !strings.Contains(line, "["+strings.Repeat("#", progressBar/2)+strings.Repeat("-", progressBar/2)+"]") {
		t.Errorf("half the ranks ended: %q", line)
	}
}

// TestProgressWriterClearsTheLineFirst: output written while the line is shown starts on
// a cleared line, never after the line's text.
func TestProgressWriterClearsTheLineFirst(t *testing.T) {
	var p bgl.Progress
	p.Ranks.Store(4)
	p.Loaded.Store(4)
	var term bytes.Buffer
	pl := &ProgressLine{w: &term, p: &p, phase: "wait"}
	pl.draw()
	pl.Writer(&term).Write([]byte("probe 1: 2016\n"))
	got := term.String()
	if !strings.Contains(got, "instr/s\r\x1b[Kprobe 1: 2016\n") {
		t.Errorf("terminal got %q: the probe line does not start on a cleared line", got)
	}
}

// TestProgressLineShowsRanksInASlowWindow: after loading, a large job's first windows
// last seconds (every rank's first touch of its memory); a window that outlasts a draw
// shows its ranks going through instead of "0 running … 0 instr/s".
func TestProgressLineShowsRanksInASlowWindow(t *testing.T) {
	var p bgl.Progress
	p.Ranks.Store(4096)
	p.Loaded.Store(4096)
	p.InWindow.Store(4096)
	p.Through.Store(1024)
	pl := &ProgressLine{w: &bytes.Buffer{}, p: &p, phase: "run"}
	pl.draw()
	pl.draw() // no window ended in between
	quarter := "[" + strings.Repeat("#", progressBar/4) + strings.Repeat("-", progressBar*3/4) + "]"
	if line, want := pl.text(), "run "+quarter+" 1024/4096 ranks starting"; line != want {
		t.Errorf("first window: line %q, want %q", line, want)
	}
	p.Windows.Store(9)
	p.NowNS.Store(16000)
	p.Running.Store(4096)
	pl.draw()
	if line := pl.text(); !strings.Contains(line, "0/4096 ranks ended, 4096 running") {
		t.Errorf("a window ended since the last draw: %q", line)
	}
	pl.draw()
	if line, want := pl.text(), "run "+quarter+" 1024/4096 ranks through the window at virtual 0.000016 s"; line != want {
		t.Errorf("a later slow window: line %q, want %q", line, want)
	}
}

// TestProgressLineShowsRanksLoaded: while a job's processes are made the line counts
// them ("ranks loaded", as the README says), whatever phase the caller named.
func TestProgressLineShowsRanksLoaded(t *testing.T) {
	var p bgl.Progress
	p.Ranks.Store(4096)
	p.Loaded.Store(2048)
	pl := &ProgressLine{w: &bytes.Buffer{}, p: &p, phase: "run"}
	half := "[" + strings.Repeat("#", progressBar/2) + strings.Repeat("-", progressBar/2) + "]"
	if line, want := pl.text(), "launch "+half+" 2048/4096 ranks loaded"; line != want {
		t.Errorf("line %q, want %q", line, want)
	}
}

// TestProgressBarFillsByVirtualTimeToTheHorizon: a wait that ends at a known virtual time
// (dpcl.sleep) fills its bar as the job's virtual time crosses the span, before any rank
// ends, instead of sweeping a block that says nothing of how far it is.
func TestProgressBarFillsByVirtualTimeToTheHorizon(t *testing.T) {
	var p bgl.Progress
	p.Ranks.Store(64)
	p.Loaded.Store(64)
	p.Running.Store(64)
	p.NowNS.Store(1_000_000)
	pl := &ProgressLine{w: &bytes.Buffer{}, p: &p, phase: "sleep", from: 1_000_000, until: 5_000_000}
	fills := []struct {
		now  uint64
		fill int
	}{{1_000_000, 0}, {2_000_000, progressBar / 4}, {3_000_000, progressBar / 2}, {5_000_000, progressBar}, {9_000_000, progressBar}}
	for _, c := range fills {
		p.NowNS.Store(c.now)
		for tick := 0; tick < 3; tick++ {
			pl.ticks = tick
			want := "sleep [" + strings.Repeat("#", c.fill) + strings.Repeat("-", progressBar-c.fill) + "] virtual " +
				virtualSeconds(c.now) + " of 0.005000 s, 0/64 ranks ended, 64 running"
			if line := pl.text(); !strings.HasPrefix(line, want) {
				t.Errorf("at virtual %d ns, tick %d: line %q, want it to begin %q", c.now, tick, line, want)
			}
		}
	}
}
