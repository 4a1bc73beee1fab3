package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestExecInterpMatchesTranslated runs the example apps and an MPI misuse program twice,
// translated (the default) and with --interp: output, status and the --stats summary (its
// instructions, virtual time and memory) are the same byte for byte, and the wall line
// says how much ran translated — none under --interp.
func TestExecInterpMatchesTranslated(t *testing.T) {
	runs := [][]string{
		{"--nodes", "4", "../../examples/apps/bin/hello_mpi.elf"},
		{"--nodes", "4", "../../examples/apps/bin/ring.elf", "4", "3"},
		{"--nodes", "4", "../../examples/apps/bin/jacobi.elf", "32", "5"},
		{"--nodes", "4", "../../examples/apps/bin/cg.elf", "64", "5"},
		{"--nodes", "5", "../../examples/apps/bin/master_worker.elf"},
		{"--nodes", "2", execCorpus + "mpimisuse.elf", "tag"},
		{"--nodes", "4", execCorpus + "mpicrash.elf"},
	}
	for _, args := range runs {
		name := strings.TrimSuffix(args[2][strings.LastIndex(args[2], "/")+1:], ".elf")
		t.Run(name, func(t *testing.T) {
			type result struct {
				out, summary, wall string
				status             int
			}
			run := func(mode ...string) result {
				var out, errb bytes.Buffer
				st := runExec(context.Background(), append(append([]string{"--stats", "--quiet"}, mode...), args...),
					strings.NewReader(""), &out, &errb)
				lines := strings.Split(strings.TrimSuffix(errb.String(), "\n"), "\n")
				r := result{out: out.String(), status: st}
				if n := len(lines); n >= 2 && strings.HasPrefix(lines[n-1], "dpclsh exec: wall ") {
					r.wall, r.summary = lines[n-1], strings.Join(lines[:n-1], "\n")
				} else {
					r.summary = errb.String()
				}
				return r
			}
			tr, in := run(), run("--interp")
			if tr.out != in.out || tr.summary != in.summary || tr.status != in.status {
				t.Errorf("translated and interpreted runs differ:\n%d %s\n%s\n--- --interp:\n%d %s\n%s",
					tr.status, tr.summary, tr.out, in.status, in.summary, in.out)
			}
			if !strings.HasSuffix(in.wall, ", 0.0% of instructions translated") {
				t.Errorf("--interp: %q, want nothing translated", in.wall)
			}
			if tr.wall == "" || strings.HasSuffix(tr.wall, ", 0.0% of instructions translated") {
				t.Errorf("translated run: %q, want a share translated", tr.wall)
			}
		})
	}
}
