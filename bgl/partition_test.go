package bgl

import (
	"fmt"
	"strings"
	"testing"
)

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

// TestPlacedPartitionSpreadsTasks: 8 tasks in a 64-node block at 8 per I/O node, placed
// 2 per I/O node by a map file, sit under 4 I/O nodes with consecutive ranks; bad maps
// are refused with the file and line or the ranks at fault.
func TestPlacedPartitionSpreadsTasks(t *testing.T) {
	// 4x4x4 torus: node n at <n%4, n/4%4, n/16>; I/O node k serves nodes 8k..8k+7.
	text := "# rank: X Y Z T\n0 0 0 0\n1 0 0 0\n0 2 0 0\n1 2 0 0\n0 0 1 0\n1 0 1 0\n0 2 1 0\n1 2 1 0\n"
	place, err := ParseMapFile("two.map", strings.NewReader(text), 8, 64)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlacedPartition(8, 64, 8, place)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.TaskIONodes(); fmt.Sprint(got) != "[0 1 2 3]" {
		t.Errorf("I/O nodes with tasks %v", got)
	}
	for io, want := range [][2]int{{0, 2}, {2, 4}, {4, 6}, {6, 8}, {8, 8}} {
		if f, e := p.RanksOf(io); f != want[0] || e != want[1] {
			t.Errorf("I/O node %d serves ranks [%d,%d), want %v", io, f, e, want)
		}
	}
	if p.Size() != 8 || p.Nodes != 64 || p.NodeOf(2) != 8 || p.Coord(p.NodeOf(2)) != (Coord{0, 2, 0}) {
		t.Errorf("size %d nodes %d, rank 2 on node %d", p.Size(), p.Nodes, p.NodeOf(2))
	}
	for _, tc := range []struct{ text, want string }{
		{"0 0 0 0\n0 0 0 0\n", "ranks 0 and 1 both on compute node 0"},
		{"0 2 0 0\n0 0 0 0\n", "rank 1 on I/O node 0 after rank 0 on I/O node 1"},
		{"0 0 0 0\n9 0 0 0\n", "two.map:2: <9,0,0> is outside the 4x4x4 torus"},
		{"0 0 0 0\n1 0 0 1\n", "two.map:2: task slot T=1"},
		{"0 0 0 0\n", "two.map: 1 coordinates for 2 tasks"},
	} {
		place, err := ParseMapFile("two.map", strings.NewReader(tc.text), 2, 64)
		if err == nil {
			_, err = NewPlacedPartition(2, 64, 8, place)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.text, err, tc.want)
		}
	}
	if _, err := PlaceOrder("ZYXT", 8, 64); err == nil || !strings.Contains(err.Error(), `"ZYXT"`) {
		t.Errorf("unknown order: %v", err)
	}
}
