package main

import (
	"strings"
	"testing"
)

// TestExecMPIFloodIsBounded: two ranks posting MPI_Isends nobody receives, under a 4 GiB
// address-space limit, end with the engine's MPI_ERR_NO_MEM line and status 34 once the
// 16 MiB of the sender's node is used up, instead of growing dpclsh until Go dies of
// "fatal error: out of memory".
func TestExecMPIFloodIsBounded(t *testing.T) {
	status, out := runCapped(t, "", "exec", "--nodes", "2", "--memory", "16", "bgl/testdata/bin/mpimisuse.elf", "isendflood")
	want := "dpclsh: rank 1: MPI_Isend at pc 0x"
	if status != 34 || !strings.Contains(out, want) ||
		!strings.Contains(out, ": out of memory for a message of 16384 bytes to rank 0: 16448 more bytes exceed the node's memory (") ||
		!strings.Contains(out, " KiB committed of 16 MiB) (MPI_ERR_NO_MEM): ending the job\n") {
		t.Errorf("status %d, output:\n%s\nwant status 34 and the MPI_ERR_NO_MEM line of rank 1's MPI_Isend", status, out)
	}
}
