package netreduce

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxNodes bounds generated topologies so a typo cannot exhaust memory.
const MaxNodes = 1 << 22

// Generate builds a topology from a generator spec, as MRNet's topology generator does:
//
//	b:F^D       balanced, fan-out F, depth D (F^D back-ends); b:F is flat with F back-ends
//	b:FxGxH     balanced with a fan-out per level (F*G*H back-ends)
//	k:K@N       K-nomial tree of N nodes in all (front-end included); its leaves are back-ends
//	g:F:a,b,c   generic: one ':'-separated field per level, one fan-out per node of that level
//	flat:N      the front-end connected directly to N back-ends
//	bgl:N:P:F   BG/L shape: N compute ranks, one level-2 node per P of them (I/O-node groups),
//	            then a balanced tree of fan-out F up to the front-end
//
// Hosts are "localhost"; node names are localhost:0, localhost:1, ... in creation order.
func Generate(spec string) (*Topology, error) {
	kind, arg, ok := strings.Cut(spec, ":")
	if !ok {
		return nil, errorf("topology spec %q: want b:, k:, g:, flat: or bgl:", spec)
	}
	gen, ok := generators[kind]
	if !ok {
		return nil, errorf("topology spec %q: unknown generator %q", spec, kind)
	}
	g := &builder{}
	if err := gen(g, arg); err != nil {
		return nil, errorf("topology spec %q: %w", spec, err)
	}
	return g.topology(spec)
}

var generators = map[string]func(*builder, string) error{
	"b":    genBalanced,
	"k":    genKnomial,
	"g":    genGeneric,
	"flat": genFlat,
	"bgl":  genBGL,
}

// builder accumulates a tree as parent links between creation-ordered nodes; node 0 is the root.
type builder struct {
	parent []int
}

func (g *builder) add(parent int) (int, error) {
	if len(g.parent) >= MaxNodes {
		return 0, fmt.Errorf("more than %d nodes", MaxNodes)
	}
	g.parent = append(g.parent, parent)
	return len(g.parent) - 1, nil
}

// topology lays the tree out as ParseTopology would lay out its printed file (leaves
// depth-first, internal nodes breadth-first, root last) without going through text.
func (g *builder) topology(spec string) (*Topology, error) {
	kids := make([][]int, len(g.parent))
	for n, p := range g.parent {
		if p >= 0 {
			kids[p] = append(kids[p], n)
		}
	}
	if len(kids[0]) == 0 {
		return nil, errorf("topology spec %q: the front-end has no children", spec)
	}
	rank := make([]int, len(g.parent))
	var order []int // creation ids by rank
	stack := []int{0}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if len(kids[n]) == 0 {
			rank[n] = len(order)
			order = append(order, n)
		}
		for i := len(kids[n]) - 1; i >= 0; i-- {
			stack = append(stack, kids[n][i])
		}
	}
	nback := len(order)
	for q := []int{0}; len(q) > 0; q = q[1:] {
		if n := q[0]; n != 0 && len(kids[n]) > 0 {
			rank[n] = len(order)
			order = append(order, n)
		}
		q = append(q, kids[q[0]]...)
	}
	rank[0] = len(order)
	order = append(order, 0)
	t := &Topology{names: make([]string, len(order)), parent: make([]int, len(order)),
		children: make([][]int, len(order)), nback: nback}
	for r, n := range order {
		t.names[r] = "localhost:" + strconv.Itoa(n)
		t.parent[r] = -1
		if p := g.parent[n]; p >= 0 {
			t.parent[r] = rank[p]
		}
		for _, c := range kids[n] {
			t.children[r] = append(t.children[r], rank[c])
		}
	}
	t.computeLeaves()
	return t, nil
}

func atoiPos(s, what string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s %q is not a positive integer", what, s)
	}
	return n, nil
}

// levels adds one level of children under each node of frontier, fan[i] children to the ith.
func (g *builder) level(frontier []int, fan func(i int) int) ([]int, error) {
	var next []int
	for i, p := range frontier {
		for j := 0; j < fan(i); j++ {
			c, err := g.add(p)
			if err != nil {
				return nil, err
			}
			next = append(next, c)
		}
	}
	return next, nil
}

func genBalanced(g *builder, arg string) error {
	var fans []int
	if f, d, ok := strings.Cut(arg, "^"); ok {
		fan, err := atoiPos(f, "fan-out")
		if err != nil {
			return err
		}
		depth, err := atoiPos(d, "depth")
		if err != nil {
			return err
		}
		for i := 0; i < depth && i < 64; i++ {
			fans = append(fans, fan)
		}
	} else {
		for _, f := range strings.Split(arg, "x") {
			fan, err := atoiPos(f, "fan-out")
			if err != nil {
				return err
			}
			fans = append(fans, fan)
		}
	}
	frontier := []int{0}
	g.add(-1)
	for _, f := range fans {
		var err error
		if frontier, err = g.level(frontier, func(int) int { return f }); err != nil {
			return err
		}
	}
	return nil
}

func genFlat(g *builder, arg string) error { return genBalanced(g, arg) }

func genGeneric(g *builder, arg string) error {
	frontier := []int{0}
	g.add(-1)
	for li, field := range strings.Split(arg, ":") {
		parts := strings.Split(field, ",")
		if len(parts) != len(frontier) {
			return fmt.Errorf("level %d lists %d fan-outs for %d nodes", li+1, len(parts), len(frontier))
		}
		fans := make([]int, len(parts))
		for i, p := range parts {
			n, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil || n < 0 {
				return fmt.Errorf("level %d: fan-out %q is not a non-negative integer", li+1, p)
			}
			fans[i] = n
		}
		var err error
		if frontier, err = g.level(frontier, func(i int) int { return fans[i] }); err != nil {
			return err
		}
	}
	return nil
}

func genKnomial(g *builder, arg string) error {
	ks, ns, ok := strings.Cut(arg, "@")
	if !ok {
		return fmt.Errorf("want k:K@N")
	}
	k, err := atoiPos(ks, "K")
	if err != nil {
		return err
	}
	n, err := atoiPos(ns, "N")
	if err != nil {
		return err
	}
	if k < 2 || n < 2 || n > MaxNodes {
		return fmt.Errorf("need K >= 2 and 2 <= N <= %d", MaxNodes)
	}
	g.parent = make([]int, n)
	g.parent[0] = -1
	// In a K-nomial tree node r's parent is r with its lowest non-zero base-K digit cleared.
	for r := 1; r < n; r++ {
		stride := 1
		for (r/stride)%k == 0 {
			stride *= k
		}
		g.parent[r] = r - ((r/stride)%k)*stride
	}
	return nil
}

func genBGL(g *builder, arg string) error {
	f := strings.Split(arg, ":")
	if len(f) != 3 {
		return fmt.Errorf("want bgl:N:PER_IO:FANOUT")
	}
	var v [3]int
	for i, what := range []string{"N", "PER_IO", "FANOUT"} {
		n, err := atoiPos(f[i], what)
		if err != nil {
			return err
		}
		v[i] = n
	}
	n, perIO, fan := v[0], v[1], v[2]
	if fan < 2 {
		return fmt.Errorf("FANOUT must be at least 2")
	}
	return buildBGL(g, (n+perIO-1)/perIO, fan, func(i int) int { return min(perIO, n-i*perIO) })
}

// GenerateBGL is the BG/L shape of bgl:N:P:F with I/O-node groups of any sizes: group i
// has groups[i] back-ends (a job placed so that its I/O nodes serve different numbers
// of ranks), with a balanced tree of fan-out fan above the groups.
func GenerateBGL(groups []int, fan int) (*Topology, error) {
	spec := fmt.Sprintf("bgl groups %v fan-out %d", groups, fan)
	if fan < 2 || len(groups) == 0 {
		return nil, errorf("topology %s: want a fan-out of at least 2 and a group", spec)
	}
	for i, n := range groups {
		if n < 1 {
			return nil, errorf("topology %s: group %d is empty", spec, i)
		}
	}
	g := &builder{}
	if err := buildBGL(g, len(groups), fan, func(i int) int { return groups[i] }); err != nil {
		return nil, errorf("topology %s: %w", spec, err)
	}
	return g.topology(spec)
}

// buildBGL adds groups level-2 nodes under a balanced tree of fan-out fan, and per(i)
// back-ends under group i.
func buildBGL(g *builder, groups, fan int, per func(i int) int) error {
	// Build bottom-up: level sizes from the I/O-node groups up to the front-end's children.
	sizes := []int{groups}
	for sizes[len(sizes)-1] > fan {
		sizes = append(sizes, (sizes[len(sizes)-1]+fan-1)/fan)
	}
	frontier := []int{0}
	g.add(-1)
	for li := len(sizes) - 1; li >= 0; li-- {
		total := sizes[li]
		per := func(i int) int { return spread(total, len(frontier), i) }
		var err error
		if frontier, err = g.level(frontier, per); err != nil {
			return err
		}
	}
	_, err := g.level(frontier, per)
	return err
}

// spread divides total items among parts as evenly as possible, earlier parts first.
func spread(total, parts, i int) int {
	q, r := total/parts, total%parts
	if i < r {
		return q + 1
	}
	return q
}
