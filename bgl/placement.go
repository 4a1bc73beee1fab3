package bgl

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

// Placement orders, as BG/L's mpirun -mapping takes them: the letters name the torus
// dimensions and T the task slot within a node, fastest first. A compute node runs one
// task here (coprocessor mode), so T has extent 1 and the two orders place alike: rank r
// on node r, X varying fastest.
const (
	MappingXYZT = "XYZT"
	MappingTXYZ = "TXYZ"
)

// Place reads a placement as mpirun's -mapping takes it: an order ("XYZT", "TXYZ"; ""
// is XYZT) or the path of a map file, for tasks ranks in a block of nodes compute nodes.
func Place(mapping string, tasks, nodes int) ([]int, error) {
	switch strings.ToUpper(mapping) {
	case "", MappingXYZT, MappingTXYZ:
		return PlaceOrder(mapping, tasks, nodes)
	}
	f, err := os.Open(mapping)
	if err != nil {
		return nil, opErrorf("mapping", "%q is neither %s, %s nor a readable map file: %v", mapping, MappingXYZT, MappingTXYZ, err)
	}
	defer f.Close()
	return ParseMapFile(mapping, f, tasks, nodes)
}

// PlaceOrder returns the rank -> compute node map of a mapping order for tasks ranks
// in a block of nodes compute nodes (nil: rank r on node r, which both orders give).
func PlaceOrder(order string, tasks, nodes int) ([]int, error) {
	switch strings.ToUpper(order) {
	case "", MappingXYZT, MappingTXYZ:
	default:
		return nil, opErrorf("mapping", "%q: want %s, %s or a map file", order, MappingXYZT, MappingTXYZ)
	}
	if tasks > nodes {
		return nil, opErrorf("mapping", "%d tasks in a partition of %d compute nodes: one task per node", tasks, nodes)
	}
	return nil, nil
}

// ParseMapFile reads an mpirun map file: line i holds rank i's torus coordinate "X Y Z
// T" (T must be 0: one task per node); blank lines and lines starting with # are
// skipped. It returns the compute node of each rank in a block of nodes compute nodes;
// name is used in errors (name:line).
func ParseMapFile(name string, r io.Reader, tasks, nodes int) ([]int, error) {
	shape := torusShape(nodes)
	p := &Partition{Nodes: nodes, Shape: shape}
	out := make([]int, 0, tasks)
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Fields(text)
		if len(f) != 4 {
			return nil, opErrorf("mapping", "%s:%d: want \"X Y Z T\", got %q", name, line, text)
		}
		var v [4]int
		for i, s := range f {
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 {
				return nil, opErrorf("mapping", "%s:%d: %q is not a coordinate", name, line, s)
			}
			v[i] = n
		}
		if v[0] >= shape[0] || v[1] >= shape[1] || v[2] >= shape[2] {
			return nil, opErrorf("mapping", "%s:%d: <%d,%d,%d> is outside the %dx%dx%d torus of %d nodes",
				name, line, v[0], v[1], v[2], shape[0], shape[1], shape[2], nodes)
		}
		if v[3] != 0 {
			return nil, opErrorf("mapping", "%s:%d: task slot T=%d: a node runs one task (coprocessor mode)", name, line, v[3])
		}
		if len(out) == tasks {
			return nil, opErrorf("mapping", "%s:%d: more lines than the job's %d tasks", name, line, tasks)
		}
		out = append(out, p.NodeAt(Coord{v[0], v[1], v[2]}))
	}
	if err := sc.Err(); err != nil {
		return nil, opErrorf("mapping", "%s: %v", name, err)
	}
	if len(out) != tasks {
		return nil, opErrorf("mapping", "%s: %d coordinates for %d tasks", name, len(out), tasks)
	}
	return out, nil
}

// NewPlacedPartition is a block of nodes compute nodes running tasks ranks, rank r on
// compute node nodeOf[r] (nil: rank r on node r). The tool's tree has one daemon per
// I/O node with tasks, and its ranks in order, so each I/O node's ranks must be
// consecutive and I/O nodes must take ranks in increasing order.
func NewPlacedPartition(tasks, nodes, perIO int, nodeOf []int) (*Partition, error) {
	if nodes == 0 {
		nodes = tasks
	}
	p, err := NewPartition(nodes, perIO)
	if err != nil {
		return nil, err
	}
	if tasks < 1 || tasks > nodes {
		return nil, opErrorf("partition", "%d tasks in %d compute nodes: want 1..%d (one task per node)", tasks, nodes, nodes)
	}
	p.tasks = tasks
	if nodeOf == nil {
		return p, nil
	}
	if len(nodeOf) != tasks {
		return nil, opErrorf("partition", "%d placements for %d tasks", len(nodeOf), tasks)
	}
	owner := make(map[int]int, tasks)
	for r, n := range nodeOf {
		if n < 0 || n >= nodes {
			return nil, opErrorf("partition", "rank %d on compute node %d: want 0..%d", r, n, nodes-1)
		}
		if o, dup := owner[n]; dup {
			return nil, opErrorf("partition", "ranks %d and %d both on compute node %d %v", o, r, n, p.Coord(n))
		}
		owner[n] = r
		if r > 0 {
			prev, io := p.IONodeOf(nodeOf[r-1]), p.IONodeOf(n)
			if io < prev {
				return nil, opErrorf("partition",
					"rank %d on I/O node %d after rank %d on I/O node %d: each I/O node's ranks must be consecutive, in I/O-node order",
					r, io, r-1, prev)
			}
		}
	}
	p.nodeOf = append([]int(nil), nodeOf...)
	return p, nil
}

// Tasks is the number of ranks the partition runs.
func (p *Partition) Tasks() int {
	if p.tasks == 0 {
		return p.Nodes
	}
	return p.tasks
}

// IONodeOfRank returns the I/O node serving a rank's compute node.
func (p *Partition) IONodeOfRank(rank int) int { return p.IONodeOf(p.NodeOf(rank)) }

// RanksOf returns the ranks [first, end) an I/O node serves (first == end: none).
func (p *Partition) RanksOf(io int) (first, end int) {
	n := p.Tasks()
	first = sort.Search(n, func(r int) bool { return p.IONodeOfRank(r) >= io })
	end = sort.Search(n, func(r int) bool { return p.IONodeOfRank(r) > io })
	return first, end
}

// TaskIONodes returns the I/O nodes that serve at least one rank, in rank order.
func (p *Partition) TaskIONodes() []int {
	var out []int
	for r := range p.Tasks() {
		if io := p.IONodeOfRank(r); len(out) == 0 || out[len(out)-1] != io {
			out = append(out, io)
		}
	}
	return out
}

// placementString describes where the ranks sit when it is not rank r on node r.
func (p *Partition) placementString() string {
	if p.Tasks() == p.Nodes && p.nodeOf == nil {
		return ""
	}
	return fmt.Sprintf(", %d tasks on %d I/O nodes", p.Tasks(), len(p.TaskIONodes()))
}
