package bgl_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/bgl"
)

// TestMPISessions: MPI 4 sessions without MPI_Init (two open at once, info, the WORLD and
// SELF process sets, groups from them and MPI_Comm_create_from_group), and the
// large-count point-to-point calls (MPI_Send_c and friends, MPI_Get_count_c), as MPICH
// does them.
func TestMPISessions(t *testing.T) { runConform(t, "sessions") }

// TestMPIGeneralizedRequests: MPI_Grequest_start/complete with query, free and cancel
// callbacks, alone and among other requests in Wait, Test and their array forms,
// MPI_Request_get_status, MPI_Request_free and MPI_Cancel of one, and the status setters,
// as MPICH does them.
func TestMPIGeneralizedRequests(t *testing.T) { runConform(t, "greq") }

// TestMPISynchronousSends: MPI_Issend not complete before its receive starts (across a
// barrier too), MPI_Ssend complete only once its posted receive matched (MPICH's
// rqstatus), a ring of Ssends of a vector type, MPI_Ssend_init, a match by MPI_Mprobe
// and MPI_PROC_NULL, as MPICH does them.
func TestMPISynchronousSends(t *testing.T) { runConform(t, "ssend") }

// TestMPISsendDeadlock: two ranks that MPI_Ssend to each other before receiving wait for
// each other, as under MPICH (where the job hangs): the engine ends the job as a deadlock
// and names both sends. An eager Ssend would let both finish.
func TestMPISsendDeadlock(t *testing.T) {
	exe := buildPPC(t, filepath.Join(conformDir, "ssend_deadlock.c"))
	var stderr strings.Builder
	res, err := bgl.Run(bgl.JobConfig{Exe: exe, Nodes: 3, Capture: true, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	for r, s := range res.Status {
		if s != bgl.MPIDeadlockStatus {
			t.Errorf("rank %d: status %d, want the deadlock's %d\n%s", r, s, bgl.MPIDeadlockStatus, stderr.String())
		}
	}
	for _, l := range []string{"rank 0: MPI_Ssend(dest 1, tag 0) waits for rank 1",
		"rank 1: MPI_Ssend(dest 0, tag 0) waits for rank 0",
		"rank 2: MPI_Barrier (collective #1) waits for ranks 0-1"} {
		if !strings.Contains(stderr.String(), "dpclsh:   "+l+"\n") {
			t.Errorf("report lacks %q:\n%s", l, stderr.String())
		}
	}
}
