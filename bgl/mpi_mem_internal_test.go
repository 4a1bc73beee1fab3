package bgl

import (
	"bytes"
	"strings"
	"testing"
)

// TestMPIChargeReleased: after a run that completes every request and receives every
// message, the MPI engine holds nothing on any rank's account, so a long correct run
// never accumulates charge (even where the node's memory is large enough to hide it).
//
// freechurn frees every Isend and Irecv with MPI_Request_free while active: a freed
// request's memory is given back when it completes, and the job ends normally.
func TestMPIChargeReleased(t *testing.T) {
	for _, mode := range []string{"churn", "freechurn"} {
		var out bytes.Buffer
		j, err := Launch(JobConfig{Exe: "testdata/bin/mpimisuse.elf", Args: []string{mode}, Nodes: 2,
			Workdir: t.TempDir(), Stdout: &out, Stderr: &out})
		if err != nil {
			t.Fatal(err)
		}
		if r := j.Run(); r != StopDone {
			t.Fatalf("%s: stopped: %v", mode, r)
		}
		if !strings.Contains(out.String(), "churn: 2048 of 2048 rounds intact\n") {
			t.Errorf("%s: output %q, want every round intact", mode, out.String())
		}
		for _, n := range j.nodes {
			if n.proc.mpiHeld != 0 {
				t.Errorf("%s: rank %d: %d bytes still held by MPI after every request completed", mode, n.rank, n.proc.mpiHeld)
			}
		}
		j.Close()
	}
}
