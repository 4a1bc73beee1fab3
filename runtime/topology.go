package runtime

import (
	"os"
	"strconv"
	"strings"

	"github.com/dpclsh/dpclsh/netreduce"
)

// jobTopology builds a job's tree: the ranks (leaves) under their I/O nodes' daemons,
// counts[i] under the i-th I/O node with ranks, and above them the levels spec
// describes. "b:F" (one number) keeps its meaning of a balanced fan-out F over the
// daemons, "k:K" (MRNet's short form) is the K-nomial tree with one back-end per I/O
// node with ranks; any other netreduce generator spec or an MRNet topology file must
// have exactly one back-end per I/O node with ranks.
func jobTopology(spec string, counts []int, perIO int) (*netreduce.Topology, error) {
	nodes := 0
	for _, c := range counts {
		nodes += c
	}
	if spec == "" {
		spec = "b:16"
	}
	if f, ok := strings.CutPrefix(spec, "b:"); ok && !strings.ContainsAny(f, "^x") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 2 {
			return nil, errorf("topology %q: the fan-out F of \"b:F\" must be an integer >= 2", spec)
		}
		topo, err := netreduce.GenerateBGL(counts, n)
		if err != nil {
			return nil, errorf("topology %q: %w", spec, err)
		}
		return topo, nil
	}
	ios := len(counts)
	if k, ok := strings.CutPrefix(spec, "k:"); ok && !strings.Contains(k, "@") {
		full, err := knomialSpec(spec, k, ios)
		if err != nil {
			return nil, err
		}
		spec = full
	}
	upper, err := upperTopology(spec)
	if err != nil {
		return nil, err
	}
	if upper.Backends() != ios {
		return nil, errorf("topology %q: %d back-ends, but the job has %d I/O nodes (%d ranks, per_io %d): each back-end is one I/O node's daemon",
			spec, upper.Backends(), ios, nodes, perIO)
	}
	topo, err := netreduce.Graft(upper, counts)
	if err != nil {
		return nil, errorf("topology %q: %w", spec, err)
	}
	return topo, nil
}

func upperTopology(spec string) (*netreduce.Topology, error) {
	if kind, _, ok := strings.Cut(spec, ":"); ok && !strings.ContainsAny(kind, "/.") {
		t, err := netreduce.Generate(spec)
		if err != nil {
			return nil, errorf("topology: %w", err)
		}
		return t, nil
	}
	f, err := os.Open(spec)
	if err != nil {
		return nil, errorf("topology: %w", err)
	}
	defer f.Close()
	t, err := netreduce.ParseTopology(spec, f)
	if err != nil {
		return nil, errorf("topology: %w", err)
	}
	return t, nil
}
