package mpioracle

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

var (
	rewrite = flag.Bool("rewrite", false, "rewrite testdata/*/*.golden from native MPICH runs (implies -full)")
	full    = flag.Bool("full", false, "also run the corpus at its largest sizes (minutes on 2 cores)")
)

// runTimeout bounds one mpiexec run; the slowest (64 ranks) take about ten seconds.
const runTimeout = 2 * time.Minute

// onceAbove is the job size above which a normal test run makes one run and compares it
// with the golden file instead of two runs compared with each other as well: 64 MPICH
// ranks on 2 cores cost seconds per run. -rewrite always makes two runs, so every golden
// file was itself checked for determinism when it was written.
const onceAbove = 7

// A suite is a folder of MPI programs (C, C++, Fortran) with its MANIFEST.
type suite struct {
	name     string // golden subfolder
	dir      string // sources, relative to this package
	maxRanks int    // larger manifest sizes run only with -full or -rewrite
}

// A normal run takes the corpus up to 7 ranks: its 64-rank runs cost several minutes on a
// 2-core machine, and the apps cover 64 ranks natively. -full and -rewrite run them too, so
// the golden files for every manifest size exist for the engine's tests.
var suites = []suite{
	{name: "apps", dir: "../../examples/apps", maxRanks: 64},
	{name: "corpus", dir: "../../bgl/testdata/mpi", maxRanks: 7},
}

func (s suite) manifest(t *testing.T) []Entry {
	t.Helper()
	entries, err := LoadManifest(filepath.Join(s.dir, "MANIFEST"))
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// TestNative runs every manifest program natively at each size: the runs must agree with
// each other, end as expected, and print the golden file's contents. Small sizes run in
// parallel (mpiexec start-up leaves the cores idle part of the time); 64-rank runs alone.
func TestNative(t *testing.T) {
	for _, s := range suites {
		t.Run(s.name, func(t *testing.T) {
			bins := map[string]string{}
			for _, e := range s.manifest(t) {
				if !e.Native {
					continue
				}
				if bins[e.Name] == "" {
					src, err := SourceOf(s.dir, e.Name)
					if err != nil {
						t.Fatal(err)
					}
					bins[e.Name] = Build(t, src, s.dir)
				}
				for _, n := range e.Ranks {
					if n > s.maxRanks && !*full && !*rewrite || n > onceAbove && testing.Short() {
						continue
					}
					t.Run(e.Name+"/"+strconv.Itoa(n), func(t *testing.T) {
						if n <= onceAbove {
							t.Parallel()
						}
						checkRuns(t, s, e, bins[e.Name], n)
					})
				}
			}
		})
	}
}

func checkRuns(t *testing.T, s suite, e Entry, bin string, n int) {
	runs := []*Result{Run(t, bin, n, e.Args, runTimeout)}
	if n <= onceAbove || *rewrite {
		runs = append(runs, Run(t, bin, n, e.Args, runTimeout))
	}
	got := runs[0].Canonical()
	// A job MPI ends (MPI_Abort, a fault) loses a timing-dependent part of its output in
	// mpiexec: such runs must agree on the status and on the lines both printed.
	ended := e.Expect.Kind != ExpectExit || e.Expect.Code != 0
	for i, r := range runs {
		if ended {
			if why := launcherLostAbort(e, r); why != "" {
				// MPICH's launcher now and then mishandles an aborting job on a loaded
				// two-core box: it reports the exit as 1, not the abort's code (a race
				// between the PMI abort and the process's exit), or it never tears the
				// other ranks down after the abort. Such a run is taken once more.
				t.Logf("%s %v on %d ranks: %s; running it again", e.Name, e.Args, n, why)
				r = Run(t, bin, n, e.Args, runTimeout)
				runs[i] = r
			}
		}
		t.Logf("%s %v on %d ranks: %v", e.Name, e.Args, n, r.Elapsed.Round(time.Millisecond))
		checkEnd(t, e, r)
		if ended {
			continue
		}
		if again := r.Canonical(); again != got {
			t.Fatalf("two runs differ:\n--- first\n%s--- second\n%s", got, again)
		}
	}
	got = runs[0].Canonical() // the run taken again, if it was
	golden := filepath.Join("testdata", s.name, e.Name+"."+strconv.Itoa(n)+".golden")
	if *rewrite {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (refresh with go test ./internal/mpioracle -rewrite)", err)
	}
	if ended {
		for _, r := range runs {
			// Either may be the one that lost lines.
			if err := EndedOutputAgrees(string(want), r.Canonical()); err != nil && EndedOutputAgrees(r.Canonical(), string(want)) != nil {
				t.Errorf("%s: %v\n--- got\n%s--- want\n%s", golden, err, r.Canonical(), want)
			}
		}
		return
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\n--- got\n%s--- want\n%s", golden, got, want)
	}
}

// checkEnd checks a run ended as the manifest says.
// launcherLostAbort says how MPICH's launcher mishandled run r of an entry expected to
// end abnormally, or "": it reported status 1 with its "BAD TERMINATION"
// banner instead of the abort's code, or a rank called MPI_Abort and the job did not end
// within the timeout.
func launcherLostAbort(e Entry, r *Result) string {
	want, _ := e.Expect.NativeStatus()
	switch {
	case r.TimedOut && strings.Contains(r.Stderr, "application called MPI_Abort"):
		return "a rank called MPI_Abort and MPICH did not end the job within " + runTimeout.String()
	case want != 1 && r.Status == 1 && strings.Contains(r.Stdout, "BAD TERMINATION"):
		return "MPICH reported status 1 for an abort"
	}
	return ""
}

func checkEnd(t *testing.T, e Entry, r *Result) {
	t.Helper()
	if r.TimedOut {
		t.Fatalf("%s on %d ranks: no end within %v\nstdout:\n%s\nstderr:\n%s", e.Name, r.Ranks,
			runTimeout, r.Stdout, r.Stderr)
	}
	want, _ := e.Expect.NativeStatus()
	if r.Status != want {
		t.Fatalf("%s on %d ranks: status %d, want %d (%v)\nstdout:\n%s\nstderr:\n%s", e.Name,
			r.Ranks, r.Status, want, e.Expect, r.Stdout, r.Stderr)
	}
	if e.Expect == (Expect{Kind: ExpectExit}) && (r.Stderr != "" || len(r.Launcher) != 0) {
		t.Errorf("%s on %d ranks: a clean run printed to stderr or unlabelled lines:\n%s%s",
			e.Name, r.Ranks, r.Stderr, strings.Join(r.Launcher, "\n"))
	}
}
