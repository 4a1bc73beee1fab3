package mpioracle

import (
	"fmt"
	"strings"
)

// EndedOutputAgrees compares two outputs (Result.Canonical form) of a job that MPI ended
// (MPI_Abort, a fault): their first lines, the job's status, must be equal, and every
// other line of partial must appear in full in the same order. mpiexec kills the ranks
// while their output may still be on its way through the launcher, so what it prints of
// such a job is a timing-dependent part of what the ranks wrote.
func EndedOutputAgrees(full, partial string) error {
	fullLines := strings.Split(strings.TrimSuffix(full, "\n"), "\n")
	partLines := strings.Split(strings.TrimSuffix(partial, "\n"), "\n")
	if fullLines[0] != partLines[0] {
		return fmt.Errorf("status %q, against %q", fullLines[0], partLines[0])
	}
	i := 1
	for _, l := range partLines[1:] {
		for i < len(fullLines) && fullLines[i] != l {
			i++
		}
		if i == len(fullLines) {
			return fmt.Errorf("line %q is missing (or out of order)", l)
		}
		i++
	}
	return nil
}
