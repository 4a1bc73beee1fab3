package bgl_test

import (
	"strings"
	"testing"
)

// TestMPIMisuse: a bad argument ends the job under MPI_ERRORS_ARE_FATAL with one line
// naming the rank, the call, the argument and the MPI error class; every rank ends (no
// hang: runMisuse fails after a minute) and the job's status is the error class.
func TestMPIMisuse(t *testing.T) {
	for _, tt := range []struct {
		mode, want string
		status     int
	}{
		{"rank", "rank 0: MPI_Send at pc 0x%: invalid rank ~: not in MPI_COMM_WORLD (size ~) (MPI_ERR_RANK)", 6},
		{"tag", "rank 0: MPI_Send at pc 0x%: invalid tag -5 (MPI_ERR_TAG)", 4},
		{"count", "rank 0: MPI_Send at pc 0x%: count -1 of MPI_INT (MPI_ERR_COUNT)", 2},
		{"comm", "rank 0: MPI_Send at pc 0x%: invalid communicator 12345 (no such communicator) (MPI_ERR_COMM)", 5},
		{"type", "rank 0: MPI_Send at pc 0x%: datatype 0x7777 is not one of mpi.h's (MPI_ERR_TYPE)", 3},
		{"root", ": MPI_Bcast at pc 0x%: invalid root ~: not in MPI_COMM_WORLD (size ~) (MPI_ERR_ROOT)", 7},
		{"truncate", "rank 1: MPI_Recv at pc 0x%: message of 16 bytes from rank 0 (tag 0) truncated: " +
			"the receive buffer holds 4 (MPI_ERR_TRUNCATE)", 14},
		{"request", "rank 0: MPI_Wait at pc 0x%: request handle 4242 is not active (MPI_ERR_REQUEST)", 19},
		{"freebad", "rank 0: MPI_Request_free at pc 0x%: request handle 4242 is not active (MPI_ERR_REQUEST)", 19},
		{"freetwice", "rank 0: MPI_Request_free at pc 0x%: request handle ~ is not active (MPI_ERR_REQUEST)", 19},
		{"freenull", "rank 0: MPI_Request_free at pc 0x%: request handle is MPI_REQUEST_NULL (MPI_ERR_REQUEST)", 19},
		{"collcount", ": MPI_Allreduce at pc 0x%: count mismatch: collective #1 on MPI_COMM_WORLD: this rank " +
			"reduces ~ of MPI_INT with MPI_SUM, rank ~ ~ of MPI_INT with MPI_SUM (MPI_ERR_OTHER)", 15},
		{"bcastcount", ": MPI_Bcast at pc 0x%: count mismatch: broadcast of 16 bytes from root 0 into a " +
			"4-byte buffer (MPI_ERR_TRUNCATE)", 14},
		{"collkind", ": MPI_B% at pc 0x%: collective #1 on MPI_COMM_WORLD: this rank calls MPI_B% (root ~) " +
			"where others call MPI_B% (root ~) (MPI_ERR_OTHER)", 15},
		{"freedcomm", ": MPI_Barrier at pc 0x%: invalid communicator ~: freed by MPI_Comm_free (MPI_ERR_COMM)", 5},
		{"splitcomm", "rank 1: MPI_Send at pc 0x%: invalid communicator MPI_COMM_NULL (MPI_ERR_COMM)", 5},
	} {
		for _, ranks := range []int{2, 7} {
			res, _, stderr := runMisuse(t, tt.mode, ranks)
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			if len(lines) != 1 || !matchMisuse(lines[0], "dpclsh: rank ~"+tt.want+": ending the job") &&
				!matchMisuse(lines[0], "dpclsh: "+tt.want+": ending the job") {
				t.Errorf("%s on %d ranks: stderr %q, want one line like %q", tt.mode, ranks, stderr, tt.want)
			}
			if st := res.ExitStatus(); st != tt.status {
				t.Errorf("%s on %d ranks: status %d, want %d", tt.mode, ranks, st, tt.status)
			}
			for r, s := range res.Status {
				if s != tt.status {
					t.Errorf("%s on %d ranks: rank %d status %d, want %d", tt.mode, ranks, r, s, tt.status)
				}
			}
		}
	}
}

// matchMisuse matches line against pattern, where ~ stands for a decimal number and %
// for a run of letters, digits and underscores.
func matchMisuse(line, pattern string) bool {
	for pattern != "" {
		switch pattern[0] {
		case '~':
			n := len(line) - len(strings.TrimLeft(strings.TrimPrefix(line, "-"), "0123456789"))
			if n == 0 || n == 1 && line[0] == '-' {
				return false
			}
			line = line[n:]
		case '%':
			n := len(line) - len(strings.TrimLeft(line, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"))
			if n == 0 {
				return false
			}
			line = line[n:]
		default:
			if line == "" || line[0] != pattern[0] {
				return false
			}
			line = line[1:]
		}
		pattern = pattern[1:]
	}
	return line == ""
}
