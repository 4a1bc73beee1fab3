package bgl

import (
	"bytes"
	"strings"
	"testing"
)

// Every test of the package runs with the scheduler's kept runnable set checked against
// a scan of every node at each window.
func init() { verifyRunSet = true }

// TestRunSetVisitsOnlyRunnableNodes holds 63 of 64 ranks and runs the 64th to its end:
// the scheduler looks at the one rank that runs, not at all 64 twice per window; then
// the held ranks, continued, all run to their end.
func TestRunSetVisitsOnlyRunnableNodes(t *testing.T) {
	var out bytes.Buffer
	j := launch(t, "staggered", 64, &out)
	j.Start()
	for r := 1; r < 64; r++ {
		if err := j.Debug(j.part.IONodeOfRank(r)).Stop(r); err != nil {
			t.Fatal(err)
		}
	}
	if r := j.Run(); r != StopIdle {
		t.Fatalf("rank 0 alone: %v, want idle", r)
	}
	calls, visited := j.runs.calls, j.runs.visited
	if calls < 20 {
		t.Fatalf("rank 0 ran in %d scheduler calls: too few to tell", calls)
	}
	// One scan of every node, the 63 held ranks dropped once, then rank 0 alone.
	if max := 2*64 + 2*calls; visited > max {
		t.Errorf("the scheduler looked at %d nodes in %d calls (at most %d): it visits ranks that cannot run", visited, calls, max)
	}
	for r := 1; r < 64; r++ {
		if err := j.Debug(j.part.IONodeOfRank(r)).Continue(r); err != nil {
			t.Fatal(err)
		}
	}
	if r := j.Run(); r != StopDone {
		t.Fatalf("after Continue: %v, want done", r)
	}
	// Each rank prints three steps, each ending " done" (lines interleave between ranks).
	if got := strings.Count(out.String(), "step 2"); got != 64 {
		t.Errorf("%d ranks reached their last step, want 64", got)
	}
	if got := strings.Count(out.String(), " done\n"); got != 3*64 {
		t.Errorf("%d steps done, want %d", got, 3*64)
	}
}
