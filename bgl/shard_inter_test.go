package bgl

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"
)

// buildConformELF builds testdata/mpiconf/name.c for the PowerPC against the tree's
// libmpi, as the conformance tests do.
func buildConformELF(t *testing.T, name string) string {
	t.Helper()
	cc, err := exec.LookPath("powerpc-linux-gnu-gcc")
	if err != nil {
		t.Skip("no PowerPC cross compiler")
	}
	exe := filepath.Join(t.TempDir(), name+".elf")
	args := []string{"-mcpu=440fp", "-static", "-O2", "-Wall", "-Wextra", "-I", "target", "-o", exe,
		"testdata/mpiconf/" + name + ".c", "target/libmpi.a", "-lm"}
	if msg, err := exec.Command(cc, args...).CombinedOutput(); err != nil || len(msg) != 0 {
		t.Fatalf("build %s: %v\n%s", name, err, msg)
	}
	return exe
}

// shardLayouts place eight ranks on four I/O nodes of a 32-node partition: two on each
// (each of four shards holds two ranks, a group of four straddles two shards), and three,
// three, one and one (over two shards the second holds ranks 6 and 7 only, so a group of
// the upper four world ranks straddles the two).
var shardLayouts = [][]int{
	{0, 1, 8, 9, 16, 17, 24, 25},
	{0, 1, 2, 8, 9, 10, 16, 24},
}

// TestShardedIntercommunicators runs the intercommunicator conformance program over two
// and four shards with its groups split across them: MPI_Intercomm_create over the world
// halves and over rank 0 against the rest, point to point and every collective on each,
// MPI_Intercomm_merge, MPI_Comm_dup, _split and _create of an intercommunicator,
// MPI_Comm_remote_size and _group, MPI_Comm_idup, MPI_Comm_create_group. Each prints what
// one process prints, and the ranks exit in its order.
func TestShardedIntercommunicators(t *testing.T) {
	exe := buildConformELF(t, "inter")
	for _, place := range shardLayouts {
		cfg := JobConfig{Exe: exe, Nodes: 8, Partition: 32, PerIO: 8, Place: place, Label: true, Workdir: t.TempDir()}
		shardsMatchOneProcess(t, fmt.Sprintf("inter placed at %v", place), cfg, true)
	}
}

// TestShardedCommCreateGroup: MPI_Comm_create_group's hidden communicator is numbered
// when its first member asks; over shards, with members on several and other ranks making
// communicators at the same time, the handles (which the program prints), everything
// else and the windows run are one process's.
func TestShardedCommCreateGroup(t *testing.T) {
	exe := buildConformELF(t, "create_group")
	for _, place := range shardLayouts {
		cfg := JobConfig{Exe: exe, Nodes: 8, Partition: 32, PerIO: 8, Place: place, Label: true, Workdir: t.TempDir()}
		name := fmt.Sprintf("create_group placed at %v", place)
		shardsMatchOneProcess(t, name, cfg, true)
		// A member blocked for its stage returns in the window one process returns it in.
		_, wantWindows, err := windowsRun(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []int{2, 4} {
			if r := shardedWindows(t, cfg, p); r.windows != wantWindows {
				t.Errorf("%s over %d shards: %d windows, one process %d", name, p, r.windows, wantWindows)
			}
		}
	}
}

// TestShardedDeadlockExitsInOneProcesssOrder: one process ends a deadlocked job at the
// call that blocks its last rank, which exits at its own clock, the others at the
// window's start; over shards the deadlock is found at a window's start, and the exits
// (rank, time, status, pc, note) come in one process's order all the same. In ssend_deadlock the
// last-blocked rank's clock is a nanosecond below the window's start, so it exits first.
func TestShardedDeadlockExitsInOneProcesssOrder(t *testing.T) {
	for _, tc := range []struct{ name, exe string }{
		{"ssend_deadlock", buildConformELF(t, "ssend_deadlock")},
		{"deadlock", "testdata/mpi/bin/deadlock.elf"},
		// The last change is an exit: its dispatch finds the deadlock, no rank is last-blocked.
		{"deadlock_after_exit", buildConformELF(t, "deadlock_after_exit")},
	} {
		for _, place := range shardLayouts {
			cfg := JobConfig{Exe: tc.exe, Nodes: 8, Partition: 32, PerIO: 8, Place: place, Label: true, Workdir: t.TempDir()}
			name := fmt.Sprintf("%s placed at %v", tc.name, place)
			want := shardsMatchOneProcess(t, name, cfg, true)
			if want.ExitStatus() != MPIDeadlockStatus {
				t.Fatalf("%s: one process ends with status %d, not a deadlock's", name, want.ExitStatus())
			}
			for _, p := range []int{2, 4} {
				_, _, got, err := shardedRun(t, cfg, p)
				if err != nil {
					t.Fatalf("%s over %d shards: %v", name, p, err)
				}
				if g, w := exitTrace(got.Exits), exitTrace(want.Exits); g != w {
					t.Errorf("%s over %d shards: exits\n%s\nwant\n%s", name, p, g, w)
				}
			}
		}
	}
}

// exitTrace lists exits with what orders them.
func exitTrace(exits []Event) string {
	s := ""
	for _, ev := range exits {
		s += fmt.Sprintf("rank %d at %d ns: status %d, pc 0x%08x, %s\n", ev.Rank, ev.Time, ev.Status, ev.PC, ev.Note)
	}
	return s
}
