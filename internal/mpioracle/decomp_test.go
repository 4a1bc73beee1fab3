package mpioracle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResultsIndependentOfRanks: jacobi and cg compute the same numbers however the
// domain is split (their sums differ only in digits they do not print), so their golden
// outputs for 1, 2 and 7 ranks agree past the header line. A difference means a halo
// exchange or a reduction is wrong, whatever the MPI library.
func TestResultsIndependentOfRanks(t *testing.T) {
	for _, app := range []string{"jacobi", "cg"} {
		var first []string
		for _, n := range []string{"1", "2", "7"} {
			b, err := os.ReadFile(filepath.Join("testdata", "apps", app+"."+n+".golden"))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(b), "\n")
			if len(lines) < 4 {
				t.Fatalf("%s on %s ranks: golden output too short:\n%s", app, n, b)
			}
			body := append([]string{lines[0]}, lines[2:]...) // drop the header naming the size
			if first == nil {
				first = body
				continue
			}
			if strings.Join(body, "\n") != strings.Join(first, "\n") {
				t.Errorf("%s on %s ranks differs from 1 rank:\n%s\nvs\n%s", app, n,
					strings.Join(body, "\n"), strings.Join(first, "\n"))
			}
		}
	}
}
