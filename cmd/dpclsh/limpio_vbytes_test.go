package main

import (
	"path/filepath"
	"testing"
)

// vcollBytes is what examples/apps/vcoll.c moves per call, by its own formulas: the bytes
// rank r of a communicator of n ranks sends in each collective of one exchange, with unit
// ints per share (an int is 4 bytes; Alltoallw sends 3-int elements to odd ranks).
func vcollBytes(r, n, unit int) map[string]int {
	b := map[string]int{}
	for j := range n {
		b["MPI_Alltoallv"] += 4 * unit * ((r+j)%3 + 1)
		per := 4
		if j%2 == 1 {
			per = 12
		}
		b["MPI_Alltoallw"] += ((r+j)%2 + 1) * per
		if r == n-1 {
			b["MPI_Scatterv"] += 4 * unit * (j%4 + 1)
		}
		b["MPI_Reduce_scatter"] += 4 * unit * (j%3 + 1)
	}
	b["MPI_Ialltoallv"] = b["MPI_Alltoallv"]
	b["MPI_Gatherv"] = 4 * unit * (r%3 + 1)
	return b
}

// TestLimpioVariantBytesBeyond256Ranks profiles vcoll on 300 ranks, past the 256 ranks a
// probe once unrolled a counts array for, and compares the bytes of every v-variant per
// rank with the program's formulas, on MPI_COMM_WORLD and on the halves MPI_Comm_split
// makes (color rank % 2, ranks in reverse order: 150 ranks each, a rank's place differs
// from its world rank, and the root of each half is its lowest world rank).
func TestLimpioVariantBytesBeyond256Ranks(t *testing.T) {
	if testing.Short() {
		t.Skip("300 ranks")
	}
	const n, unit = 300, 1
	elf, err := filepath.Abs(filepath.Join("..", "..", "examples", "apps", "bin", "vcoll.elf"))
	if err != nil {
		t.Fatal(err)
	}
	_, _, got, _ := limpioCounts(t, elf, n, []string{"1", "1"})
	bad := 0
	for r := 0; r < n && bad < 10; r++ {
		want := vcollBytes(r, n, unit)
		// In its half (n/2 ranks of r's parity, in reverse order) r is at (n-1-r)/2.
		for name, v := range vcollBytes((n-1-r)/2, n/2, unit) {
			want[name] += v
		}
		for name, w := range want {
			if name == "MPI_Scatterv" && w == 0 {
				continue
			}
			if got[r][name] != w {
				t.Errorf("rank %d %s: limpio measured %d bytes, the program sends %d", r, name, got[r][name], w)
				bad++
			}
		}
	}
}
