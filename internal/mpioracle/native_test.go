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

var rewrite = flag.Bool("rewrite", false, "rewrite testdata/*/*.golden from native MPICH runs")

// runTimeout bounds one mpiexec run; the slowest (64 ranks) take a few seconds.
const runTimeout = 2 * time.Minute

// A suite is a folder of MPI C programs with its MANIFEST.
type suite struct {
	name     string // golden subfolder
	dir      string // sources, relative to this package
	include  []string
	maxRanks int // larger manifest sizes are left to the engine's tests (see doc below)
}

// The corpus runs natively up to 7 ranks: its 64-rank runs cost about as much as all the
// rest together on a 2-core machine, and the apps already cover 64 ranks natively.
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

// TestNative runs every manifest program natively at each size twice: both runs must give
// the same canonical output, the expected status, and the golden file's contents.
func TestNative(t *testing.T) {
	for _, s := range suites {
		t.Run(s.name, func(t *testing.T) {
			for _, e := range s.manifest(t) {
				if !e.Native {
					continue
				}
				bin := Build(t, filepath.Join(s.dir, e.Name+".c"), s.dir)
				for _, n := range e.Ranks {
					if n > s.maxRanks {
						continue
					}
					t.Run(e.Name+"/"+strconv.Itoa(n), func(t *testing.T) {
						checkRuns(t, s, e, bin, n)
					})
				}
			}
		})
	}
}

func checkRuns(t *testing.T, s suite, e Entry, bin string, n int) {
	first := Run(t, bin, n, e.Args, runTimeout)
	second := Run(t, bin, n, e.Args, runTimeout)
	t.Logf("%s on %d ranks: %v, %v", e.Name, n, first.Elapsed.Round(time.Millisecond),
		second.Elapsed.Round(time.Millisecond))
	for _, r := range []*Result{first, second} {
		checkEnd(t, e, r)
	}
	got := first.Canonical()
	if again := second.Canonical(); again != got {
		t.Fatalf("two runs differ:\n--- first\n%s--- second\n%s", got, again)
	}
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
	if got != string(want) {
		t.Errorf("output differs from %s:\n--- got\n%s--- want\n%s", golden, got, want)
	}
}

// checkEnd checks a run ended as the manifest says.
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
