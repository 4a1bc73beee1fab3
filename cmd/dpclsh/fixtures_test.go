package main

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/internal/mpioracle"
	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// scratch is the directory TestMain makes for the test binary and removes at its end: what
// several tests of one run share (builds, native runs) lives under it, since a test's own
// t.TempDir is gone when that test ends.
var scratch string

// A fixture is one value built at most once per test binary, by whichever test asks first;
// later tests wait for it and share it. Builds and native MPICH runs are the slow part of
// the oracle tests, and several tests need the same ones.
type fixture struct {
	once sync.Once
	done bool // the build returned; false after it failed (t.Fatal ends it early)
	val  any
}

var fixtures sync.Map // key string -> *fixture

// shared returns the value build makes for key, calling build only the first time in the
// run. build gets a testing.TB whose TempDir lives until the run ends; its failures fail
// the test that ran it, and every later test that asks for the same key fails too, naming
// the key.
func shared[T any](t testing.TB, key string, build func(tb testing.TB) T) T {
	t.Helper()
	f, _ := fixtures.LoadOrStore(key, &fixture{})
	fx := f.(*fixture)
	fx.once.Do(func() {
		fx.val = build(runLived{t})
		fx.done = true
	})
	if !fx.done {
		t.Fatalf("shared fixture %q failed in an earlier test", key)
	}
	return fx.val.(T)
}

// runLived is a testing.TB whose TempDir outlives the test: a fresh directory under
// scratch, removed with it when the run ends.
type runLived struct{ testing.TB }

func (r runLived) TempDir() string {
	dir, err := os.MkdirTemp(scratch, "fixture-")
	if err != nil {
		r.Fatal(err)
	}
	return dir
}

// countingBinary is the example program name of the apps directory built natively with
// MPICH and the PMPI counting wrapper, once per run.
func countingBinary(t *testing.T, apps, wrapper, name string) string {
	t.Helper()
	return shared(t, "pmpi build "+name, func(tb testing.TB) string {
		src, err := mpioracle.SourceOf(apps, name)
		if err != nil {
			tb.Fatal(err)
		}
		return buildCounting(tb, src, wrapper, apps)
	})
}

// nativeCountingRun is the counting build of name run under mpiexec on n ranks with args,
// once per run: the limpio and trace tests compare with the same PMPI counts.
func nativeCountingRun(t *testing.T, apps, wrapper, name string, n int, args []string) *mpioracle.Result {
	t.Helper()
	bin := countingBinary(t, apps, wrapper, name)
	key := "pmpi run " + name + " " + strconv.Itoa(n) + " " + strings.Join(args, " ")
	res := shared(t, key, func(tb testing.TB) *mpioracle.Result {
		defer takeNativeSlot(n)()
		return mpioracle.Run(tb, bin, n, args, 5*time.Minute)
	})
	if res.TimedOut || res.Status != 0 {
		t.Fatalf("native run of %s on %d ranks: status %d timed out %v\n%s", name, n, res.Status, res.TimedOut, res.Stderr)
	}
	return res
}

// nativeSlot lets one native MPICH job with more ranks than the host has cores run at a
// time while the oracle tests' subtests run in parallel: MPICH's ranks poll for messages
// on every core they get, so a second such job beside the first only slows both, whereas
// a simulated run, a build or a one-rank job beside one uses what the polling leaves.
var nativeSlot = make(chan struct{}, 1)

// takeNativeSlot waits for the slot if a job of ranks needs it and returns its release.
func takeNativeSlot(ranks int) (release func()) {
	if ranks <= runtime.NumCPU() {
		return func() {}
	}
	nativeSlot <- struct{}{}
	return func() { <-nativeSlot }
}

// LongEnv names the test-only switch that adds the oracle comparisons at 64 ranks to a
// run: limpio's counts and CoMD's energies against MPICH's. Their native jobs, 64 MPICH
// processes polling on two cores, are most of the package's time, so the default run
// checks the same things at 1, 7 and 8 ranks, and .ci/run's interpreted pass
// (DPCL_TEST_INTERP=1) runs the 64-rank cases too.
const LongEnv = "DPCL_TEST_LONG"

// skipUnlessLong skips a 64-rank oracle case unless LongEnv=1 or the interpreted pass asks
// for it.
func skipUnlessLong(t *testing.T, ranks int) {
	t.Helper()
	if os.Getenv(LongEnv) != "1" && !oracletest.Interp() {
		t.Skipf("%d ranks: run with %s=1 (and in .ci/run's %s=1 pass)", ranks, LongEnv, oracletest.InterpEnv)
	}
}
