package netreduce

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Topology is the shape of a tree: which node is the parent of which. Ranks are dense:
// back-ends (the leaves) are 0..Backends()-1 in depth-first order, then the internal
// nodes in breadth-first order, then the front-end (the root) last.
type Topology struct {
	names    []string // by rank: "host:N"
	parent   []int    // by rank; -1 for the root
	children [][]int  // by rank, in file order
	nback    int
	leaves   [][2]int // by rank: the back-end ranks under a node form [lo, hi) in DFS order
}

// TopologyError names the line of a topology file that is wrong.
type TopologyError struct {
	File string
	Line int
	Msg  string
}

// Unprefixed is the error's text without "netreduce: "; Error adds it.
func (e *TopologyError) Unprefixed() string {
	return fmt.Sprintf("topology %s:%d: %s", e.File, e.Line, e.Msg)
}

func (e *TopologyError) Error() string { return "netreduce: " + e.Unprefixed() }

// Package is the name the error's text starts with.
func (e *TopologyError) Package() string { return "netreduce" }

// Size is the number of nodes, the front-end included.
func (t *Topology) Size() int { return len(t.names) }

// Backends is the number of back-ends (leaves).
func (t *Topology) Backends() int { return t.nback }

// Root is the front-end's rank.
func (t *Topology) Root() int { return len(t.names) - 1 }

// IsBackend tells whether rank is a leaf.
func (t *Topology) IsBackend(rank int) bool { return rank >= 0 && rank < t.nback }

// Parent returns rank's parent, -1 for the front-end.
func (t *Topology) Parent(rank int) int { return t.parent[rank] }

// Children returns rank's children (do not modify).
func (t *Topology) Children(rank int) []int { return t.children[rank] }

// Name returns the "host:N" name of rank.
func (t *Topology) Name(rank int) string { return t.names[rank] }

// BackendRange returns the back-ends under rank as the half-open range [lo, hi): ranks are
// assigned depth-first, so every subtree's back-ends are contiguous.
func (t *Topology) BackendRange(rank int) (lo, hi int) {
	r := t.leaves[rank]
	return r[0], r[1]
}

// Depth is the number of edges on the longest path from the front-end to a back-end.
func (t *Topology) Depth() int {
	d := 0
	for r := 0; r < t.nback; r++ {
		n := 0
		for p := t.parent[r]; p >= 0; p = t.parent[p] {
			n++
		}
		d = max(d, n)
	}
	return d
}

// Internal returns the ranks of the internal nodes (neither back-end nor front-end).
func (t *Topology) Internal() []int {
	out := make([]int, 0, t.Size()-t.nback-1)
	for r := t.nback; r < t.Root(); r++ {
		out = append(out, r)
	}
	return out
}

// Cover returns the smallest covering subtree of a set of back-ends: the internal nodes
// (front-end excluded) that lie on a path from one of them to the front-end, ascending.
func (t *Topology) Cover(backends []int) []int {
	seen := make(map[int]bool)
	for _, b := range backends {
		for p := t.parent[b]; p >= 0 && p != t.Root() && !seen[p]; p = t.parent[p] {
			seen[p] = true
		}
	}
	out := make([]int, 0, len(seen))
	for r := range seen {
		out = append(out, r)
	}
	sort.Ints(out)
	return out
}

// edge is a parsed "parent => children" line.
type edge struct {
	line     int
	parent   string
	children []string
}

// ParseTopology reads MRNet's topology file format: lines `host:N => child:N child:N ;`,
// `#` comments, blank lines; a statement may span lines until its `;`. name is used in
// errors. There must be exactly one root, no node may have two parents, and no cycles.
func ParseTopology(name string, r io.Reader) (*Topology, error) {
	edges, err := scanEdges(name, r)
	if err != nil {
		return nil, err
	}
	return buildTopology(name, edges)
}

// ParseTopologyString is ParseTopology over a string.
func ParseTopologyString(name, text string) (*Topology, error) {
	return ParseTopology(name, strings.NewReader(text))
}

func scanEdges(name string, r io.Reader) ([]edge, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	var edges []edge
	var cur []string
	start, line := 0, 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		text = strings.ReplaceAll(text, ";", " ; ")
		for _, f := range strings.Fields(text) {
			if len(cur) == 0 {
				start = line
			}
			if f != ";" {
				cur = append(cur, f)
				continue
			}
			e, err := makeEdge(name, start, cur)
			if err != nil {
				return nil, err
			}
			edges = append(edges, e)
			cur = nil
		}
	}
	if err := sc.Err(); err != nil {
		return nil, errorf("topology %s: %w", name, err)
	}
	if len(cur) > 0 {
		return nil, &TopologyError{name, start, "statement not terminated by ';'"}
	}
	if len(edges) == 0 {
		return nil, &TopologyError{name, line, "no statements"}
	}
	return edges, nil
}

func makeEdge(name string, line int, toks []string) (edge, error) {
	if len(toks) < 3 || toks[1] != "=>" {
		return edge{}, &TopologyError{name, line, fmt.Sprintf("want `host:N => child:N ... ;`, got %q", strings.Join(toks, " "))}
	}
	for _, tk := range append([]string{toks[0]}, toks[2:]...) {
		if err := checkNodeName(tk); err != nil {
			return edge{}, &TopologyError{name, line, err.Error()}
		}
	}
	return edge{line: line, parent: toks[0], children: toks[2:]}, nil
}

func checkNodeName(s string) error {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 || i == len(s)-1 {
		return fmt.Errorf("node %q is not host:N", s)
	}
	if _, err := strconv.ParseUint(s[i+1:], 10, 31); err != nil {
		return fmt.Errorf("node %q: N is not a number", s)
	}
	if strings.Contains(s[:i], "=>") {
		return fmt.Errorf("node %q: missing spaces around =>", s)
	}
	return nil
}

func buildTopology(name string, edges []edge) (*Topology, error) {
	kids := map[string][]string{}
	parentOf := map[string]string{}
	defLine := map[string]int{}
	var order []string
	note := func(n string, line int) {
		if _, ok := defLine[n]; !ok {
			defLine[n] = line
			order = append(order, n)
		}
	}
	for _, e := range edges {
		note(e.parent, e.line)
		if _, dup := kids[e.parent]; dup {
			return nil, &TopologyError{name, e.line, fmt.Sprintf("%s has its children listed twice", e.parent)}
		}
		kids[e.parent] = e.children
		for _, c := range e.children {
			note(c, e.line)
			if c == e.parent {
				return nil, &TopologyError{name, e.line, fmt.Sprintf("%s is its own child (cycle)", c)}
			}
			if p, dup := parentOf[c]; dup {
				return nil, &TopologyError{name, e.line, fmt.Sprintf("%s has two parents (%s and %s)", c, p, e.parent)}
			}
			parentOf[c] = e.parent
		}
	}
	var roots []string
	for _, n := range order {
		if _, ok := parentOf[n]; !ok {
			roots = append(roots, n)
		}
	}
	if len(roots) != 1 {
		return nil, rootError(name, edges, roots, defLine, parentOf)
	}
	return layout(name, roots[0], kids, order, defLine)
}

// rootError explains a graph without exactly one root: none means every node is in a cycle.
func rootError(name string, edges []edge, roots []string, defLine map[string]int, parentOf map[string]string) error {
	if len(roots) == 0 {
		return &TopologyError{name, edges[0].line, "no root: every node has a parent (cycle)"}
	}
	return &TopologyError{name, defLine[roots[1]], fmt.Sprintf("more than one root: %s and %s (disconnected)", roots[0], roots[1])}
}

// layout assigns ranks: leaves depth-first, internal nodes breadth-first, root last.
func layout(name, root string, kids map[string][]string, order []string, defLine map[string]int) (*Topology, error) {
	var leaves []string
	visited := map[string]bool{}
	stack := []string{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if visited[n] {
			return nil, &TopologyError{name, defLine[n], fmt.Sprintf("cycle through %s", n)}
		}
		visited[n] = true
		cs := kids[n]
		if len(cs) == 0 {
			leaves = append(leaves, n)
		}
		for i := len(cs) - 1; i >= 0; i-- {
			stack = append(stack, cs[i])
		}
	}
	for _, n := range order {
		if !visited[n] {
			return nil, &TopologyError{name, defLine[n], fmt.Sprintf("%s is not reachable from the root %s (cycle or disconnected)", n, root)}
		}
	}
	if len(kids[root]) == 0 {
		return nil, &TopologyError{name, defLine[root], "the root has no children"}
	}
	rank := map[string]int{}
	names := append([]string(nil), leaves...)
	for i, n := range leaves {
		rank[n] = i
	}
	queue := []string{root}
	var internal []string
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n != root && len(kids[n]) > 0 {
			internal = append(internal, n)
		}
		queue = append(queue, kids[n]...)
	}
	for _, n := range append(internal, root) {
		rank[n] = len(names)
		names = append(names, n)
	}
	t := &Topology{names: names, nback: len(leaves)}
	t.parent = make([]int, len(names))
	t.children = make([][]int, len(names))
	t.parent[rank[root]] = -1
	for p, cs := range kids {
		for _, c := range cs {
			t.children[rank[p]] = append(t.children[rank[p]], rank[c])
			t.parent[rank[c]] = rank[p]
		}
	}
	t.computeLeaves()
	return t, nil
}

func (t *Topology) computeLeaves() {
	t.leaves = make([][2]int, len(t.names))
	for r := 0; r < t.nback; r++ {
		t.leaves[r] = [2]int{r, r + 1}
	}
	// Internal ranks are breadth-first, so a reverse sweep sees children before parents.
	for r := len(t.names) - 1; r >= t.nback; r-- {
		t.leaves[r] = [2]int{-1, -1}
	}
	for r := len(t.names) - 1; r >= t.nback; r-- {
		t.fillLeaves(r)
	}
}

func (t *Topology) fillLeaves(r int) [2]int {
	if t.leaves[r][0] >= 0 {
		return t.leaves[r]
	}
	lo, hi := -1, -1
	for _, c := range t.children[r] {
		cr := t.fillLeaves(c)
		if lo < 0 || cr[0] < lo {
			lo = cr[0]
		}
		hi = max(hi, cr[1])
	}
	t.leaves[r] = [2]int{lo, hi}
	return t.leaves[r]
}

// WriteFile prints the topology in MRNet's file format, one line per parent, breadth-first.
func (t *Topology) WriteFile(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, r := range t.breadthFirst() {
		if len(t.children[r]) == 0 {
			continue
		}
		bw.WriteString(t.names[r])
		bw.WriteString(" =>")
		for _, c := range t.children[r] {
			bw.WriteByte(' ')
			bw.WriteString(t.names[c])
		}
		bw.WriteString(" ;\n")
	}
	return bw.Flush()
}

// WriteDOT prints the topology as a Graphviz digraph labelled with names and ranks.
func (t *Topology) WriteDOT(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("digraph netreduce {\n")
	for _, r := range t.breadthFirst() {
		fmt.Fprintf(bw, "  n%d [label=%q];\n", r, fmt.Sprintf("%s\nrank %d", t.names[r], r))
		for _, c := range t.children[r] {
			fmt.Fprintf(bw, "  n%d -> n%d;\n", r, c)
		}
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

func (t *Topology) breadthFirst() []int {
	out := []int{t.Root()}
	for i := 0; i < len(out); i++ {
		out = append(out, t.children[out[i]]...)
	}
	return out
}

// String is the file form.
func (t *Topology) String() string {
	var b strings.Builder
	t.WriteFile(&b)
	return b.String()
}
