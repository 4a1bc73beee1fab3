package bgl

import "math/bits"

// The collective cost model. BG/L runs collectives on two networks beside the torus: the
// global interrupt network (barriers) and the collective network, a tree through every
// node of the partition that combines (sums, min/max, bitwise) in its routers. So:
//
//   - a broadcast or reduction crosses the tree once (Bcast, Reduce, Gather, Scatter,
//     Scan) or twice, up and down (Allreduce, Allgather, Reduce_scatter, communicator
//     creation); one crossing costs CollTreeBaseNS plus CollTreeHopNS per level of a
//     binary tree over the communicator's nodes, plus CollTreeNSPerByte per byte;
//   - an all-to-all uses the torus: it costs the torus latency across the communicator's
//     diameter plus the larger of the injection bound (each node pushes its data out over
//     its six links) and the bisection bound (half the data crosses the middle of the
//     torus, 2*Y*Z links wide for an X>=Y>=Z torus of the communicator's size);
//   - a barrier costs BarrierNS on the global interrupt network.
//
// The parameters (ns), in one table; at 65,536 nodes one tree crossing is about the
// TreeLatencyNS the tool tree uses.
const (
	// CollTreeBaseNS is a collective network crossing's fixed cost (injection, software).
	CollTreeBaseNS = 1000
	// CollTreeHopNS is added per level of the tree (a router and a link).
	CollTreeHopNS = 90
	// CollTreeNSPerByte is the collective network's inverse bandwidth (about 350 MB/s).
	CollTreeNSPerByte = TreeNSPerByte
	// TorusLinks is the number of torus links a node injects on.
	TorusLinks = 6
)

// treeDepth is the depth of a binary tree over size nodes.
func treeDepth(size int) uint64 { return uint64(bits.Len(uint(max(size, 1) - 1))) }

// alltoallCost is an all-to-all of total bytes (all pairs, self excluded) among size
// nodes, where the busiest node sends maxOut bytes.
func alltoallCost(size int, total, maxOut uint64) uint64 {
	shape := torusShape(size)
	diameter := uint64(shape[0]/2 + shape[1]/2 + shape[2]/2)
	lat := TorusLatencyNS + diameter*TorusHopNS
	inject := maxOut * TorusNSPerByte / TorusLinks
	links := uint64(2 * shape[1] * shape[2])
	if shape[0] == 1 {
		links = 1
	}
	// Uniform traffic: about half of all bytes cross the bisection, half each way.
	bisect := total / 4 * TorusNSPerByte / links
	return lat + max(inject, bisect)
}
