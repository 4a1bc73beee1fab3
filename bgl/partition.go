package bgl

import "fmt"

// Partition limits.
const (
	MaxNodes     = 65536
	MinPerIO     = 8
	MaxPerIO     = 64
	DefaultPerIO = 64 // as on the LLNL machine
)

// Coord is a compute node's position on the 3-D torus.
type Coord struct{ X, Y, Z int }

func (c Coord) String() string { return fmt.Sprintf("<%d,%d,%d>", c.X, c.Y, c.Z) }

// Partition is a block of compute nodes, its I/O nodes and its torus shape, and where the
// job's ranks sit in it. Rank r runs on compute node r unless placed otherwise
// (NewPlacedPartition); compute node n is served by I/O node n / PerIO; node n sits at
// the torus coordinate with X varying fastest.
type Partition struct {
	Nodes int    // compute nodes, 1..65536
	PerIO int    // compute nodes per I/O node, 8..64
	Shape [3]int // torus dimensions X, Y, Z; their product is Nodes

	tasks  int   // ranks (0: Nodes)
	nodeOf []int // rank -> compute node (nil: rank r on node r)
}

// NewPartition checks the sizes and picks the torus shape: the factorisation of nodes into
// X >= Y >= Z closest to a cube (65,536 nodes give 64x32x32, as on BG/L).
func NewPartition(nodes, perIO int) (*Partition, error) {
	if nodes < 1 || nodes > MaxNodes {
		return nil, opErrorf("partition", "%d compute nodes: want 1..%d", nodes, MaxNodes)
	}
	if perIO < MinPerIO || perIO > MaxPerIO {
		return nil, opErrorf("partition", "%d compute nodes per I/O node: want %d..%d", perIO, MinPerIO, MaxPerIO)
	}
	return &Partition{Nodes: nodes, PerIO: perIO, Shape: torusShape(nodes)}, nil
}

// torusShape returns X >= Y >= Z with X*Y*Z = n minimising X (then Y): the most cubic box.
func torusShape(n int) [3]int {
	best := [3]int{n, 1, 1}
	for z := 1; z*z*z <= n; z++ {
		if n%z != 0 {
			continue
		}
		m := n / z
		for y := z; y*y <= m; y++ {
			if m%y != 0 {
				continue
			}
			if x := m / y; x < best[0] || x == best[0] && y < best[1] {
				best = [3]int{x, y, z}
			}
		}
	}
	return best
}

// IONodes returns the number of I/O nodes serving the partition.
func (p *Partition) IONodes() int { return (p.Nodes + p.PerIO - 1) / p.PerIO }

// NodeOf returns the compute node a rank runs on.
func (p *Partition) NodeOf(rank int) int {
	if p.nodeOf == nil {
		return rank
	}
	return p.nodeOf[rank]
}

// IONodeOf returns the I/O node serving a compute node.
func (p *Partition) IONodeOf(node int) int { return node / p.PerIO }

// NodesOf returns the compute nodes [first, end) served by an I/O node.
func (p *Partition) NodesOf(io int) (first, end int) {
	first = io * p.PerIO
	return first, min(first+p.PerIO, p.Nodes)
}

// Coord returns a compute node's torus coordinate.
func (p *Partition) Coord(node int) Coord {
	x, y := p.Shape[0], p.Shape[1]
	return Coord{X: node % x, Y: node / x % y, Z: node / (x * y)}
}

// NodeAt returns the compute node at a torus coordinate (taken modulo the shape: it is a
// torus).
func (p *Partition) NodeAt(c Coord) int {
	m := func(v, n int) int { return (v%n + n) % n }
	return m(c.X, p.Shape[0]) + p.Shape[0]*(m(c.Y, p.Shape[1])+p.Shape[1]*m(c.Z, p.Shape[2]))
}

// Hops returns the torus distance between two compute nodes (shortest way round each ring).
func (p *Partition) Hops(a, b int) int {
	ca, cb := p.Coord(a), p.Coord(b)
	d := func(u, v, n int) int {
		k := u - v
		if k < 0 {
			k = -k
		}
		return min(k, n-k)
	}
	return d(ca.X, cb.X, p.Shape[0]) + d(ca.Y, cb.Y, p.Shape[1]) + d(ca.Z, cb.Z, p.Shape[2])
}

func (p *Partition) String() string {
	return fmt.Sprintf("%d compute nodes (%dx%dx%d torus), %d I/O nodes at %d:1%s",
		p.Nodes, p.Shape[0], p.Shape[1], p.Shape[2], p.IONodes(), p.PerIO, p.placementString())
}

// Size returns the number of ranks the partition runs, so a partition can stand in for
// an application where only its shape matters.
func (p *Partition) Size() int { return p.Tasks() }
