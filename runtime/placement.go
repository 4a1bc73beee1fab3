package runtime

import "github.com/dpclsh/dpclsh/bgl"

// placement reads Options.Mapping (an order or an mpirun map file) into where each rank
// sits in a block of Options.Partition compute nodes (nil: rank r on node r).
func placement(o Options) ([]int, error) {
	nodes := o.Partition
	if nodes == 0 {
		nodes = o.Nodes
	}
	return bgl.Place(o.Mapping, o.Nodes, nodes)
}

// ioGroups is, for every I/O node serving ranks in rank order, its I/O node number and
// how many ranks it serves: the daemons of the tool's tree and their back-ends.
func ioGroups(p *bgl.Partition) (ios, counts []int) {
	for _, io := range p.TaskIONodes() {
		first, end := p.RanksOf(io)
		ios, counts = append(ios, io), append(counts, end-first)
	}
	return ios, counts
}
