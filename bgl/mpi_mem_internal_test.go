package bgl

import "testing"

// TestMPIChargeReleased: after a run that completes every request and receives every
// message, the MPI engine holds nothing on any rank's account, so a long correct run
// never accumulates charge (even where the node's memory is large enough to hide it).
func TestMPIChargeReleased(t *testing.T) {
	j, err := Launch(JobConfig{Exe: "testdata/bin/mpimisuse.elf", Args: []string{"churn"}, Nodes: 2,
		Workdir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if r := j.Run(); r != StopDone {
		t.Fatalf("stopped: %v", r)
	}
	for _, n := range j.nodes {
		if n.proc.mpiHeld != 0 {
			t.Errorf("rank %d: %d bytes still held by MPI after every request completed", n.rank, n.proc.mpiHeld)
		}
	}
}
