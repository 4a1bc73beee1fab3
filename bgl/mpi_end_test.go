package bgl_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/internal/oracletest"
)

func launchCorpus(t *testing.T, name string, ranks int) (*bgl.Job, *strings.Builder) {
	t.Helper()
	var stderr strings.Builder
	j, err := bgl.Launch(bgl.JobConfig{Exe: "testdata/mpi/bin/" + name + ".elf", Nodes: ranks, Capture: true, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j, &stderr
}

// runToEnd runs the job and collects every rank's exit status.
func runToEnd(t *testing.T, j *bgl.Job) []int {
	t.Helper()
	status := make([]int, j.Size())
	j.OnEvent(func(ev bgl.Event) {
		if ev.Kind == bgl.EventExit || ev.Kind == bgl.EventFault {
			status[ev.Rank] = ev.Status
		}
	})
	j.Start()
	if stop := j.Run(); stop != bgl.StopDone {
		t.Fatalf("run stopped: %v", stop)
	}
	return status
}

// TestMPIDeadlock: ranks 0 and 1 receive from each other first, the others wait in the
// barrier. The engine must end the job and say who waits for whom.
func TestMPIDeadlock(t *testing.T) {
	tests := []struct {
		ranks int
		lines []string
	}{
		{1, []string{"rank 0: MPI_Recv(source 0, tag 0) waits for rank 0"}},
		{2, []string{"rank 0: MPI_Recv(source 1, tag 0) waits for rank 1",
			"rank 1: MPI_Recv(source 0, tag 0) waits for rank 0"}},
		{7, []string{"rank 0: MPI_Recv(source 1, tag 0) waits for rank 1",
			"rank 1: MPI_Recv(source 0, tag 0) waits for rank 0",
			"ranks 2-6: MPI_Barrier (collective #1) waits for ranks 0-1"}},
	}
	for _, tt := range tests {
		j, stderr := launchCorpus(t, "deadlock", tt.ranks)
		status := runToEnd(t, j)
		end := j.MPIEnd()
		if end == nil || end.Kind != bgl.MPIEndDeadlock {
			t.Fatalf("%d ranks: end %+v, want a deadlock", tt.ranks, end)
		}
		if len(end.Waits) != tt.ranks {
			t.Errorf("%d ranks: %d waits reported", tt.ranks, len(end.Waits))
		}
		for _, l := range tt.lines {
			if !strings.Contains(stderr.String(), "dpclsh:   "+l+"\n") {
				t.Errorf("%d ranks: report lacks %q:\n%s", tt.ranks, l, stderr)
			}
		}
		for r, s := range status {
			if s != bgl.MPIDeadlockStatus {
				t.Errorf("%d ranks: rank %d status %d, want %d", tt.ranks, r, s, bgl.MPIDeadlockStatus)
			}
		}
		for r := 0; r < tt.ranks; r++ {
			out, _ := j.Output(r)
			if strings.Contains(string(out), "unreachable") {
				t.Errorf("rank %d got past the deadlock", r)
			}
		}
	}
}

// TestMPIAbort: the last rank aborts with 7 while the others wait in a receive.
func TestMPIAbort(t *testing.T) {
	j, stderr := launchCorpus(t, "abort", 7)
	status := runToEnd(t, j)
	end := j.MPIEnd()
	if end == nil || end.Kind != bgl.MPIEndAbort || end.Rank != 6 || end.Status != 7 {
		t.Fatalf("end %+v, want an abort by rank 6 with status 7", end)
	}
	for r, s := range status {
		if s != 7 {
			t.Errorf("rank %d status %d, want 7", r, s)
		}
	}
	if want := "dpclsh: rank 6: MPI_Abort(MPI_COMM_WORLD, 7): ending the job\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}

// TestMPIFaultMidCollective: the middle rank faults while the others are in an
// MPI_Allreduce; the job ends with 128+SIGSEGV on the faulting rank and every other.
func TestMPIFaultMidCollective(t *testing.T) {
	j, stderr := launchCorpus(t, "fault", 7)
	status := runToEnd(t, j)
	end := j.MPIEnd()
	if end == nil || end.Kind != bgl.MPIEndFault || end.Rank != 3 || end.Status != 139 {
		t.Fatalf("end %+v, want a fault of rank 3 with status 139", end)
	}
	for r, s := range status {
		if s != 139 {
			t.Errorf("rank %d status %d, want 139", r, s)
		}
	}
	if !strings.Contains(stderr.String(), "rank 3: killed by signal 11 (Segmentation fault) in main (fault.c:16): ending the job") {
		t.Errorf("stderr lacks the fault report:\n%s", stderr)
	}
	out, _ := j.Output(0)
	if want := "rank 0: round 1: sum 21\nrank 0: round 2: sum 42\n"; string(out) != want {
		t.Errorf("rank 0 printed %q, want %q", out, want)
	}
}

// TestMPIDeterminism runs programs whose receives take MPI_ANY_SOURCE under GOMAXPROCS 1,
// 2 and 8: output bytes (in the front-end's merged order), statuses, virtual time and
// instruction counts must be identical.
func TestMPIDeterminism(t *testing.T) {
	progs := []struct {
		exe   string
		args  []string
		ranks int
	}{
		{"../examples/apps/bin/master_worker.elf", []string{"60", "3"}, 64},
		{"testdata/mpi/bin/p2p_probe.elf", nil, 64},
		{"testdata/mpi/bin/p2p_tags.elf", nil, 7},
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, p := range progs {
		var first string
		for _, procs := range []int{1, 2, 8} {
			runtime.GOMAXPROCS(procs)
			var out strings.Builder
			res, err := bgl.Run(bgl.JobConfig{Exe: p.exe, Args: p.args, Nodes: p.ranks, Stdout: &out, Label: true})
			if err != nil {
				t.Fatal(err)
			}
			got := out.String() + res.Summary()[:strings.Index(res.Summary(), ", private")]
			if procs == 1 {
				first = got
			} else if got != first {
				t.Errorf("%s: GOMAXPROCS %d differs from 1:\n%s\n---\n%s", p.exe, procs, got, first)
			}
		}
	}
}

// TestMPINonzeroExitEndsTheJob: a rank that exits with status 3 while the others wait in a
// barrier ends the job with 3, as mpiexec does (it kills the rest).
func TestMPINonzeroExitEndsTheJob(t *testing.T) {
	gcc := oracletest.Require(t, oracletest.GCC)
	dir := t.TempDir()
	src := filepath.Join(dir, "early.c")
	prog := `#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	int r;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	if (r == 1)
		exit(3);
	MPI_Barrier(MPI_COMM_WORLD);
	printf("rank %d: unreachable\n", r);
	return 0;
}
`
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "early.elf")
	if out, err := exec.Command(gcc, "-mcpu=440fp", "-static", "-O2", "-Itarget", "-o", exe, src, "target/libmpi.a").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	var stdout, stderr strings.Builder
	res, err := bgl.Run(bgl.JobConfig{Exe: exe, Nodes: 3, Stdout: &stdout, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitStatus() != 3 || stdout.String() != "" {
		t.Errorf("status %d, stdout %q; want 3 and nothing", res.ExitStatus(), stdout.String())
	}
	if want := "dpclsh: rank 1: exited with status 3: ending the job\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
}
