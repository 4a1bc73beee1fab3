package bgl

import "testing"

func TestTorusShape(t *testing.T) {
	tests := []struct {
		n    int
		want [3]int
	}{
		{1, [3]int{1, 1, 1}}, {8, [3]int{2, 2, 2}}, {64, [3]int{4, 4, 4}}, {512, [3]int{8, 8, 8}},
		{1024, [3]int{16, 8, 8}}, {65536, [3]int{64, 32, 32}}, {7, [3]int{7, 1, 1}}, {12, [3]int{3, 2, 2}},
	}
	for _, tt := range tests {
		p, err := NewPartition(tt.n, 64)
		if err != nil {
			t.Fatal(err)
		}
		if p.Shape != tt.want {
			t.Errorf("%d nodes: shape %v, want %v", tt.n, p.Shape, tt.want)
		}
	}
}

func TestPartitionErrors(t *testing.T) {
	for _, c := range [][2]int{{0, 64}, {65537, 64}, {64, 7}, {64, 65}, {-1, 8}} {
		if _, err := NewPartition(c[0], c[1]); err == nil {
			t.Errorf("NewPartition(%d, %d) accepted", c[0], c[1])
		}
	}
}

// TestPartitionMap checks the rank -> node -> I/O node map and the torus coordinates
// against a naive twin, for every node count shape class.
func TestPartitionMap(t *testing.T) {
	for _, c := range [][2]int{{1, 8}, {100, 8}, {1000, 64}, {4096, 32}, {65536, 64}} {
		p, _ := NewPartition(c[0], c[1])
		if want := (c[0] + c[1] - 1) / c[1]; p.IONodes() != want {
			t.Errorf("%v: %d I/O nodes, want %d", c, p.IONodes(), want)
		}
		seen := make(map[Coord]bool, p.Nodes)
		covered := 0
		for io := 0; io < p.IONodes(); io++ {
			first, end := p.NodesOf(io)
			for n := first; n < end; n++ {
				if p.IONodeOf(p.NodeOf(n)) != io {
					t.Fatalf("%v: node %d not served by I/O node %d", c, n, io)
				}
				covered++
			}
		}
		if covered != p.Nodes {
			t.Fatalf("%v: I/O nodes cover %d nodes", c, covered)
		}
		for n := 0; n < p.Nodes; n++ {
			co := p.Coord(n)
			if seen[co] || co.X >= p.Shape[0] || co.Y >= p.Shape[1] || co.Z >= p.Shape[2] {
				t.Fatalf("%v: node %d at bad or repeated coordinate %v", c, n, co)
			}
			seen[co] = true
			if p.NodeAt(co) != n {
				t.Fatalf("%v: NodeAt(Coord(%d)) = %d", c, n, p.NodeAt(co))
			}
		}
	}
}

func TestHops(t *testing.T) {
	p, _ := NewPartition(512, 64)
	tests := []struct {
		a, b Coord
		hops int
	}{
		{Coord{0, 0, 0}, Coord{0, 0, 0}, 0}, {Coord{0, 0, 0}, Coord{7, 0, 0}, 1},
		{Coord{0, 0, 0}, Coord{4, 4, 4}, 12}, {Coord{1, 2, 3}, Coord{2, 3, 4}, 3},
	}
	for _, tt := range tests {
		if got := p.Hops(p.NodeAt(tt.a), p.NodeAt(tt.b)); got != tt.hops {
			t.Errorf("Hops(%v, %v) = %d, want %d", tt.a, tt.b, got, tt.hops)
		}
	}
	if got := p.NodeAt(Coord{-1, 0, 0}); got != 7 {
		t.Errorf("NodeAt wraps: got %d, want 7", got)
	}
}
