package bgl

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/dpclsh/dpclsh/bgl/shard"
)

// shardedRun runs cfg as a sharded job over p in-process shards and returns process 0's
// streams and result; the other processes must write nothing.
func shardedRun(t *testing.T, cfg JobConfig, p int) (stdout, stderr string, res *RunResult, err error) {
	t.Helper()
	exs := shard.InProcess(p)
	outs, errs := make([]bytes.Buffer, p), make([]bytes.Buffer, p)
	results, runErrs := make([]*RunResult, p), make([]error, p)
	var wg sync.WaitGroup
	for i := range exs {
		c := cfg
		c.Shard, c.Stdout, c.Stderr = exs[i], &outs[i], &errs[i]
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
	}
	return outs[0].String(), errs[0].String(), results[0], runErrs[0]
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

func TestShardedRunRefusesMPINamingTheRank(t *testing.T) {
	cfg := JobConfig{Exe: "../examples/apps/bin/hello_mpi.elf", Nodes: 16, PerIO: 8, Workdir: t.TempDir()}
	_, _, _, err := shardedRun(t, cfg, 2)
	if err == nil || !strings.Contains(err.Error(), "rank 0: MPI_Init at pc 0x") ||
		!strings.Contains(err.Error(), "does not run across shards yet") {
		t.Fatalf("err = %v, want rank 0's MPI_Init named", err)
	}
}
