package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/bgl/shard"
	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// TestCoMDShardedIsByteIdentical runs CoMD on 8 ranks, two under each of four I/O nodes,
// in one process and over 2 and 4 in-process shards (bgl/shard's twin of mpiexec): its
// Sendrecv halo exchanges, Allreduces (MINLOC and MAXLOC of a double and an int
// included) and Bcast cross shards, and stdout, stderr and the run's summary must be one
// process's bytes.
func TestCoMDShardedIsByteIdentical(t *testing.T) {
	dir := comdDir(t)
	elf, _ := buildCoMD(t, dir)
	work := t.TempDir()
	oracletest.CopyTree(t, filepath.Join(dir, "pots"), filepath.Join(work, "pots"))
	cfg := bgl.JobConfig{Exe: elf, Args: []string{"-i", "2", "-j", "2", "-k", "2", "-x", "7", "-y", "7", "-z", "7", "-N", "2", "-n", "1"},
		Nodes: 8, Partition: 32, Place: []int{0, 1, 8, 9, 16, 17, 24, 25}, PerIO: 8, Workdir: work}
	var out, errOut bytes.Buffer
	one := cfg
	one.Stdout, one.Stderr = &out, &errOut
	want, err := bgl.Run(one)
	if err != nil || want.ExitStatus() != 0 {
		t.Fatalf("CoMD in one process: %v, status %d\n%s", err, want.ExitStatus(), errOut.String())
	}
	for _, p := range []int{2, 4} {
		exs := shard.InProcess(p)
		outs, errs := make([]bytes.Buffer, p), make([]bytes.Buffer, p)
		results, runErrs := make([]*bgl.RunResult, p), make([]error, p)
		var wg sync.WaitGroup
		for i := range exs {
			c := cfg
			c.Shard, c.Stdout, c.Stderr = exs[i], &outs[i], &errs[i]
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i], runErrs[i] = bgl.Run(c)
			}()
		}
		wg.Wait()
		if runErrs[0] != nil {
			t.Fatalf("CoMD over %d shards: %v", p, runErrs[0])
		}
		if outs[0].String() != out.String() || errs[0].String() != errOut.String() {
			t.Errorf("CoMD over %d shards: output differs from one process:\nstdout %q\nwant   %q\nstderr %q\nwant   %q",
				p, outs[0].String(), out.String(), errs[0].String(), errOut.String())
		}
		if got := results[0].Summary(); got != want.Summary() || fmt.Sprint(results[0].Exits) != fmt.Sprint(want.Exits) {
			t.Errorf("CoMD over %d shards: %s, want %s", p, got, want.Summary())
		}
	}
}
