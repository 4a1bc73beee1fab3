package runtime

import (
	"strings"
	"testing"
)

// TestKnomialShortForm: "k:K", MRNet's generator form without a size, is the K-nomial
// tree with exactly one back-end per I/O node, for every job size; a bad K is named.
func TestKnomialShortForm(t *testing.T) {
	for _, k := range []int{2, 3, 4} {
		for ios := 1; ios <= 70; ios++ {
			spec := "k:" + string(rune('0'+k))
			topo, err := jobTopology(spec, perIONode(ios*8-3, 8), 8)
			if err != nil {
				t.Fatalf("%s with %d I/O nodes: %v", spec, ios, err)
			}
			if got := topo.Backends(); got != ios*8-3 {
				t.Fatalf("%s with %d I/O nodes: %d compute nodes in the tree, want %d", spec, ios, got, ios*8-3)
			}
		}
	}
	if _, err := jobTopology("k:1", perIONode(16, 8), 8); err == nil || !strings.Contains(err.Error(), `the K of "k:K" must be an integer >= 2`) {
		t.Errorf("k:1: %v", err)
	}
}

// perIONode is how n ranks fill I/O nodes of perIO compute nodes each, in order.
func perIONode(n, perIO int) []int {
	var counts []int
	for ; n > 0; n -= perIO {
		counts = append(counts, min(n, perIO))
	}
	return counts
}
