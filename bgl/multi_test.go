package bgl

import (
	"bytes"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func runRanks(t *testing.T, nodes, perIO int, label bool) (*RunResult, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	res, err := Run(JobConfig{Exe: "testdata/bin/ranks.elf", Nodes: nodes, PerIO: perIO, Label: label,
		Workdir: t.TempDir(), Stdout: &out, Stderr: &errb})
	if err != nil {
		t.Fatal(err)
	}
	return res, out.String(), errb.String()
}

// TestThousandRanks runs one program on 1,024 ranks: every rank's lines are there once,
// labelled, and every rank's status is its own.
func TestThousandRanks(t *testing.T) {
	const n = 1024
	res, out, errs := runRanks(t, n, 8, true)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != n {
		t.Fatalf("%d stdout lines, want %d", len(lines), n)
	}
	seen := map[string]bool{}
	for _, l := range lines {
		seen[l] = true
	}
	for r := 0; r < n; r++ {
		want := fmt.Sprintf("%4d: rank %d of %d on I/O node %d", r, r, n, r/8)
		if !seen[want] {
			t.Fatalf("missing line %q", want)
		}
		if res.Status[r] != r%5 {
			t.Fatalf("rank %d status %d, want %d", r, res.Status[r], r%5)
		}
	}
	if got := strings.Count(errs, "a line on stderr"); got != (n+2)/3 {
		t.Errorf("%d stderr lines, want %d", got, (n+2)/3)
	}
	if res.ExitStatus() != 4 {
		t.Errorf("job status %d, want 4 (the highest rank status)", res.ExitStatus())
	}
}

// TestOutputOrder checks the documented order: writes reach the front-end sorted by
// (arrival time at the I/O node, rank).
func TestOutputOrder(t *testing.T) {
	var out bytes.Buffer
	j, err := Launch(JobConfig{Exe: "testdata/bin/ranks.elf", Nodes: 200, PerIO: 8, Workdir: t.TempDir(), Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	type w struct {
		t    uint64
		rank int
	}
	var order []w
	j.fe.trace = func(rank, stream int, t uint64) { order = append(order, w{t, rank}) }
	if r := j.Run(); r != StopDone {
		t.Fatalf("stopped: %v", r)
	}
	if len(order) != 200+67 {
		t.Fatalf("%d writes, want %d", len(order), 267)
	}
	if !slices.IsSortedFunc(order, func(a, b w) int {
		if a.t != b.t {
			return int(int64(a.t - b.t))
		}
		return a.rank - b.rank
	}) {
		t.Fatalf("writes not in (time, rank) order: %v", order)
	}
}

// TestDeterminismAcrossGOMAXPROCS runs the same multi-rank jobs with 1, 2 and 8 workers.
func TestDeterminismAcrossGOMAXPROCS(t *testing.T) {
	prev := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(prev)
	for prog, nodes := range map[string]int{"ranks": 300, "clocks": 20} {
		var want string
		for _, procs := range []int{1, 2, 8} {
			runtime.GOMAXPROCS(procs)
			var out, errb bytes.Buffer
			res, err := Run(JobConfig{Exe: "testdata/bin/" + prog + ".elf", Nodes: nodes, PerIO: 8, Label: true,
				Seed: 7, Workdir: t.TempDir(), Stdout: &out, Stderr: &errb})
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprintf("%s\n--\n%s\n--\n%v %d %d", out.String(), errb.String(), res.Status, res.TimeNS, res.Instructions)
			if want == "" {
				want = got
			} else if got != want {
				t.Fatalf("%s: GOMAXPROCS=%d output differs from GOMAXPROCS=1", prog, procs)
			}
		}
	}
}
