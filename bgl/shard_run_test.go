package bgl

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dpclsh/dpclsh/bgl/shard"
)

// shardedRun runs cfg as a sharded job over p in-process shards and returns process 0's
// streams and result; the other processes must write nothing.
func shardedRun(t *testing.T, cfg JobConfig, p int) (stdout, stderr string, res *RunResult, err error) {
	t.Helper()
	r := shardedWindows(t, cfg, p)
	return r.stdout, r.stderr, r.res, r.err
}

type shardedResult struct {
	stdout, stderr string
	res            *RunResult
	windows        uint64
	err            error
}

// shardedWindows is shardedRun that also counts the windows, which every process must
// run alike.
func shardedWindows(t *testing.T, cfg JobConfig, p int) shardedResult {
	t.Helper()
	exs := shard.InProcess(p)
	outs, errs := make([]bytes.Buffer, p), make([]bytes.Buffer, p)
	results, runErrs := make([]*RunResult, p), make([]error, p)
	windows := make([]uint64, p)
	var wg sync.WaitGroup
	for i := range exs {
		c := cfg
		c.Shard, c.Stdout, c.Stderr, c.Progress = exs[i], &outs[i], &errs[i], new(Progress) // Progress counts the windows
		c.Drive = func(j *Job) StopReason {
			r := j.Run()
			windows[i] = j.progressSteps
			return r
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], runErrs[i] = Run(c)
		}()
	}
	wg.Wait()
	for i := 1; i < p; i++ {
		if outs[i].Len()+errs[i].Len() != 0 {
			t.Errorf("process %d of %d wrote %q and %q: only process 0 has streams", i, p, outs[i].String(), errs[i].String())
		}
		if fmt.Sprint(runErrs[i]) != fmt.Sprint(runErrs[0]) {
			t.Errorf("process %d of %d ended with %v, process 0 with %v", i, p, runErrs[i], runErrs[0])
		}
		if windows[i] != windows[0] {
			t.Errorf("process %d of %d ran %d windows, process 0 %d", i, p, windows[i], windows[0])
		}
	}
	return shardedResult{outs[0].String(), errs[0].String(), results[0], windows[0], runErrs[0]}
}

// windowsRun runs cfg in one process and returns its result with the windows it ran.
func windowsRun(cfg JobConfig) (*RunResult, uint64, error) {
	var windows uint64
	cfg.Progress = new(Progress) // which counts the windows
	cfg.Drive = func(j *Job) StopReason {
		r := j.Run()
		windows = j.progressSteps
		return r
	}
	res, err := Run(cfg)
	return res, windows, err
}

func TestShardedRunIsByteIdenticalToOneProcess(t *testing.T) {
	for _, tc := range []struct {
		exe          string
		nodes, perIO int
		label        bool
	}{
		{"ranks.elf", 64, 8, false},
		{"ranks.elf", 100, 16, true}, // a pset half full: 7 psets over 1..4 shards, unevenly
		// Higher ranks print first, in pieces, on both streams: the merge must follow
		// the delivering messages' order, not the shards' or the ranks'.
		{"staggered.elf", 64, 8, false},
		{"staggered.elf", 64, 8, true},
	} {
		var out, errOut bytes.Buffer
		cfg := JobConfig{Exe: "testdata/bin/" + tc.exe, Nodes: tc.nodes, PerIO: tc.perIO, Label: tc.label, Workdir: t.TempDir(), Capture: true}
		one := cfg
		one.Stdout, one.Stderr = &out, &errOut
		want, err := Run(one)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []int{1, 2, 3, 4} {
			name := fmt.Sprintf("%s: %d ranks at %d:1, label %v, %d shards", tc.exe, tc.nodes, tc.perIO, tc.label, p)
			stdout, stderr, got, err := shardedRun(t, cfg, p)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if stdout != out.String() || stderr != errOut.String() {
				t.Errorf("%s: output differs from one process:\nstdout %q\nwant   %q\nstderr %q\nwant   %q", name, stdout, out.String(), stderr, errOut.String())
			}
			if got.Summary() != want.Summary() || fmt.Sprint(got.Status) != fmt.Sprint(want.Status) ||
				fmt.Sprint(got.Exits) != fmt.Sprint(want.Exits) {
				t.Errorf("%s: result differs:\n%s %v\nwant\n%s %v", name, got.Summary(), got.Exits, want.Summary(), want.Exits)
			}
			if !bytes.Equal(got.Stdout[5], want.Stdout[5]) {
				t.Errorf("%s: rank 5's captured stdout %q, want %q", name, got.Stdout[5], want.Stdout[5])
			}
			ranks, instr := 0, uint64(0)
			for _, s := range got.Shards {
				ranks += s.Ranks
				instr += s.Instructions
			}
			if len(got.Shards) != p || ranks != tc.nodes || instr != want.Instructions {
				t.Errorf("%s: shard stats %v do not add up to %d ranks, %d instructions", name, got.Shards, tc.nodes, want.Instructions)
			}
		}
	}
}

// TestShardedMPICorpus runs every program of the MPI corpus over two and four shards:
// each prints what one process prints, statuses and Summary too, those the engine ends
// (MPI_Abort from C and Fortran, a fault, a deadlock with its report of who waits for
// whom) included.
func TestShardedMPICorpus(t *testing.T) {
	progs, err := filepath.Glob("testdata/mpi/bin/*.elf")
	if err != nil || len(progs) < 25 {
		t.Fatalf("the corpus's builds: %v, %v", progs, err)
	}
	for _, exe := range progs {
		name := strings.TrimSuffix(filepath.Base(exe), ".elf")
		// Four ranks under each of four I/O nodes, so that each of four shards has ranks.
		cfg := JobConfig{Exe: exe, Nodes: 16, Partition: 32, PerIO: 8, Label: true, Workdir: t.TempDir()}
		for r := range 16 {
			cfg.Place = append(cfg.Place, r/4*8+r%4)
		}
		shardsMatchOneProcess(t, name, cfg, true)
	}
}

// shardsMatchOneProcess runs cfg in one process and over two and four in-process shards,
// reports under name every difference in stdout, stderr and Summary (and in the order of
// the ranks' exits, with exits), and returns the one-process result.
func shardsMatchOneProcess(t *testing.T, name string, cfg JobConfig, exits bool) *RunResult {
	t.Helper()
	var out, errOut bytes.Buffer
	one := cfg
	one.Stdout, one.Stderr = &out, &errOut
	want, err := Run(one)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []int{2, 4} {
		stdout, stderr, got, err := shardedRun(t, cfg, p)
		if err != nil {
			t.Errorf("%s over %d shards: %v", name, p, err)
			continue
		}
		if d := firstDifference(stdout, out.String()); d != "" {
			t.Errorf("%s over %d shards: stdout differs from one process's: %s", name, p, d)
		}
		if d := firstDifference(stderr, errOut.String()); d != "" {
			t.Errorf("%s over %d shards: stderr differs from one process's: %s", name, p, d)
		}
		if got.Summary() != want.Summary() || exits && fmt.Sprint(got.Exits) != fmt.Sprint(want.Exits) {
			t.Errorf("%s over %d shards: result differs:\n%s %v\nwant\n%s %v", name, p, got.Summary(), got.Exits, want.Summary(), want.Exits)
		}
	}
	return want
}

func TestShardedMPIRunIsByteIdenticalToOneProcess(t *testing.T) {
	for _, tc := range []struct {
		exe   string
		args  []string
		nodes int
	}{
		{"hello_mpi", nil, 8},
		{"jacobi", []string{"32", "20"}, 8},
		{"cg", []string{"64", "20"}, 8},
		{"hello_mpi", nil, 64},
		{"jacobi", []string{"16", "2"}, 64},
		{"cg", []string{"64", "2"}, 64},
	} {
		var out, errOut bytes.Buffer
		cfg := JobConfig{Exe: "../examples/apps/bin/" + tc.exe + ".elf", Args: tc.args, Nodes: tc.nodes, PerIO: 8,
			Label: true, Workdir: t.TempDir()}
		if tc.nodes == 8 { // two ranks under each of four I/O nodes, so four shards have ranks
			cfg.Partition, cfg.Place = 32, []int{0, 1, 8, 9, 16, 17, 24, 25}
		}
		one := cfg
		one.Stdout, one.Stderr = &out, &errOut
		want, wantWindows, err := windowsRun(one)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []int{1, 2, 4} {
			name := fmt.Sprintf("%s %v: %d ranks, %d shards", tc.exe, tc.args, tc.nodes, p)
			r := shardedWindows(t, cfg, p)
			stdout, stderr, got, err := r.stdout, r.stderr, r.res, r.err
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if stdout != out.String() || stderr != errOut.String() {
				t.Errorf("%s: output differs from one process:\nstdout %q\nwant   %q\nstderr %q\nwant   %q", name, stdout, out.String(), stderr, errOut.String())
			}
			if got.Summary() != want.Summary() || fmt.Sprint(got.Exits) != fmt.Sprint(want.Exits) {
				t.Errorf("%s: result differs:\n%s %v\nwant\n%s %v", name, got.Summary(), got.Exits, want.Summary(), want.Exits)
			}
			// The same windows: every delivery is made in the window one process makes it.
			if r.windows != wantWindows {
				t.Errorf("%s: %d windows, one process %d", name, r.windows, wantWindows)
			}
		}
	}
}

// TestShardedFinalizeWarnsOfUnreceivedMessages: rank 0 sends rank 1, on another shard, two
// messages it never receives; MPI_Finalize's warning is one process's line, once, in its
// place among the output.
func TestShardedFinalizeWarnsOfUnreceivedMessages(t *testing.T) {
	var out, errOut bytes.Buffer
	cfg := JobConfig{Exe: "testdata/bin/mpimisuse.elf", Args: []string{"unreceived"}, Nodes: 2, Partition: 16,
		Place: []int{0, 8}, PerIO: 8, Label: true, Workdir: t.TempDir()}
	one := cfg
	one.Stdout, one.Stderr = &out, &errOut
	if _, err := Run(one); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "2 message(s) sent but never received") {
		t.Fatalf("one process's stderr %q has no warning", errOut.String())
	}
	stdout, stderr, _, err := shardedRun(t, cfg, 2)
	if err != nil || stdout != out.String() || stderr != errOut.String() {
		t.Errorf("over 2 shards: %v\nstdout %q\nwant   %q\nstderr %q\nwant   %q", err, stdout, out.String(), stderr, errOut.String())
	}
}

// TestShardedMessageChargesComeBack: rank 1 sends rank 0, on another shard, 64 MiB in 16 KiB
// messages with 16 MiB of node memory; each message stays charged to rank 1 until rank 0's
// shard reports its receive, so the run fits only if every report comes back.
func TestShardedMessageChargesComeBack(t *testing.T) {
	var out, errOut bytes.Buffer
	cfg := JobConfig{Exe: "testdata/bin/mpimisuse.elf", Args: []string{"churn"}, Nodes: 2, Partition: 16,
		Place: []int{0, 8}, PerIO: 8, MemoryMB: 16, Workdir: t.TempDir()}
	one := cfg
	one.Stdout, one.Stderr = &out, &errOut
	if _, err := Run(one); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "churn: 2048 of 2048 rounds intact\n") {
		t.Fatalf("one process: stdout %q, stderr %q", out.String(), errOut.String())
	}
	stdout, stderr, _, err := shardedRun(t, cfg, 2)
	if err != nil || stdout != out.String() || stderr != errOut.String() {
		t.Errorf("over 2 shards: %v\nstdout %q\nwant   %q\nstderr %q\nwant   %q", err, stdout, out.String(), stderr, errOut.String())
	}
}

// firstDifference names the first line where got and want differ, or is "" when they
// are the same.
func firstDifference(got, want string) string {
	if got == want {
		return ""
	}
	g, w := strings.SplitAfter(got, "\n"), strings.SplitAfter(want, "\n")
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d is %q, want %q", i+1, a, b)
		}
	}
	return ""
}

// TestShardedMPIConformancePrograms builds the conformance programs of
// testdata/mpiconf that make communicators, run nonblocking collectives and the rest of
// the collectives, and runs each over two and four shards: each prints what one process
// prints, and its ranks exit in one process's order (ssend_deadlock's last-blocked rank
// first).
func TestShardedMPIConformancePrograms(t *testing.T) {
	cc, err := exec.LookPath("powerpc-linux-gnu-gcc")
	if err != nil {
		t.Skip("no PowerPC cross compiler")
	}
	for _, name := range []string{"coll_more", "groups", "icoll", "icoll_time", "topo_graph", "dt_coll", "ssend", "ssend_deadlock", "mprobe"} {
		exe := filepath.Join(t.TempDir(), name+".elf")
		args := []string{"-mcpu=440fp", "-static", "-I", "target", "-o", exe, "testdata/mpiconf/" + name + ".c", "target/libmpi.a", "-lm"}
		if msg, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", name, err, msg)
		}
		// Two ranks under each of four I/O nodes, so that each of four shards has ranks.
		cfg := JobConfig{Exe: exe, Nodes: 8, Partition: 32, PerIO: 8, Place: []int{0, 1, 8, 9, 16, 17, 24, 25},
			Label: true, Workdir: t.TempDir()}
		shardsMatchOneProcess(t, name, cfg, true)
	}
}

// TestShardedAbnormalEndsAreOneProcesss: jobs the MPI engine ends at a call (a failed call
// of each kind mpimisuse makes, a second MPI_Init) or at a fault two calls deep
// (mpicrash) print over two and four shards what one process prints: the engine's report
// in its place, every rank's status, the Summary.
func TestShardedAbnormalEndsAreOneProcesss(t *testing.T) {
	for _, tc := range []struct {
		exe  string
		args []string
	}{
		{"mpimisuse", []string{"rank"}}, {"mpimisuse", []string{"tag"}}, {"mpimisuse", []string{"count"}},
		{"mpimisuse", []string{"comm"}}, {"mpimisuse", []string{"type"}}, {"mpimisuse", []string{"truncate"}},
		{"mpimisuse", []string{"request"}}, {"mpimisuse", []string{"init2"}}, {"mpimisuse", []string{"noinit"}},
		{"mpicrash", nil},
	} {
		cfg := JobConfig{Exe: "testdata/bin/" + tc.exe + ".elf", Args: tc.args, Nodes: 8, Partition: 32, PerIO: 8,
			Place: []int{0, 1, 8, 9, 16, 17, 24, 25}, Label: true, Workdir: t.TempDir()}
		want := shardsMatchOneProcess(t, fmt.Sprintf("%s %v", tc.exe, tc.args), cfg, true)
		if want.ExitStatus() == 0 {
			t.Errorf("%s %v: one process ends with status 0; the case wants an abnormal end", tc.exe, tc.args)
		}
	}
}

// TestShardedQuietWindowsCostOneReduction: a window in which no process has a message to
// deliver costs the one reduction that starts it, no exchange; hotspots computes for
// thousands of windows and prints once at its end.
func TestShardedQuietWindowsCostOneReduction(t *testing.T) {
	cfg := JobConfig{Exe: "testdata/bin/hotspots.elf", Nodes: 4, Partition: 32, PerIO: 8, Place: []int{0, 8, 16, 24},
		Workdir: t.TempDir()}
	var out bytes.Buffer
	one := cfg
	one.Stdout = &out
	want, wantWindows, err := windowsRun(one)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []int{2, 4} {
		r := shardedWindows(t, cfg, p)
		if r.err != nil || r.stdout != out.String() || r.res.Summary() != want.Summary() || r.windows != wantWindows {
			t.Fatalf("over %d shards: %v, %d windows (one process %d)\n%q\nwant\n%q", p, r.err, r.windows, wantWindows, r.stdout, out.String())
		}
		for _, s := range r.res.Shards {
			// Beyond one reduction a window: the few windows that deliver (the start,
			// the output, the exits) and the run's totals.
			if extra := s.Exchanges + s.Reductions - s.Windows; extra > 60 {
				t.Errorf("over %d shards: process %d made %d exchanges and %d reductions in %d windows: %d beyond one a window",
					p, s.Shard, s.Exchanges, s.Reductions, s.Windows, extra)
			}
		}
	}
}
