package runtime

import (
	"fmt"
	"strconv"

	"github.com/dpclsh/dpclsh/netreduce"
)

// knomialSpec turns MRNet's short generator form "k:K" into "k:K@N", N the smallest tree
// size whose K-nomial tree has one back-end (leaf) per I/O node. Adding node r to a
// K-nomial tree makes it a leaf and may turn its parent from a leaf into an inner node,
// so the leaf count grows by 0 or 1 per node and every count is reached.
func knomialSpec(spec, ks string, ios int) (string, error) {
	k, err := strconv.Atoi(ks)
	if err != nil || k < 2 {
		return "", errorf("topology %q: the K of \"k:K\" must be an integer >= 2", spec)
	}
	children := []int{0}
	leaves := 0
	for r := 1; r < netreduce.MaxNodes; r++ {
		stride := 1
		for (r/stride)%k == 0 {
			stride *= k
		}
		parent := r - ((r/stride)%k)*stride
		if parent != 0 && children[parent] == 0 {
			leaves-- // the parent was a leaf until now
		}
		children[parent]++
		children = append(children, 0)
		leaves++
		if leaves == ios {
			return fmt.Sprintf("k:%d@%d", k, r+1), nil
		}
	}
	return "", errorf("topology %q: no K-nomial tree of at most %d nodes has %d back-ends", spec, netreduce.MaxNodes, ios)
}
