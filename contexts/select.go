package contexts

// DefaultPerIO is the number of compute nodes per I/O node on the LLNL BG/L (64:1).
const DefaultPerIO = 64

// Where returns the ranks r in [0, n) for which pred(r) is true, calling pred in rank order
// (the paper's membership function pointer).
func Where(n int, pred func(rank int) bool) (*Set, error) {
	return TryWhere(n, func(r int) (bool, error) { return pred(r), nil })
}

// TryWhere is Where with a predicate that can fail; the first error stops the scan and is
// returned wrapped with the rank it failed on.
func TryWhere(n int, pred func(rank int) (bool, error)) (*Set, error) {
	if err := CheckSize(n); err != nil {
		return nil, err
	}
	s := None(n)
	for r := range n {
		in, err := pred(r)
		if err != nil {
			return nil, errorf("predicate failed at rank %d: %w", r, err)
		}
		if in {
			s.Add(r)
		}
	}
	return s, nil
}

// IONodeGroup returns the ranks served by I/O node ionode when n ranks are assigned to I/O
// nodes in consecutive groups of perIO: ranks ionode·perIO up to (ionode+1)·perIO − 1, the
// last group possibly short. That is what a plain size can express; an application with a
// real rank-to-I/O-node map should use Where with that map.
func IONodeGroup(n, ionode, perIO int) (*Set, error) {
	if err := CheckSize(n); err != nil {
		return nil, err
	}
	if perIO < 1 {
		return nil, errorf("I/O node group: bad ranks per I/O node %d: must be at least 1", perIO)
	}
	groups := (n + perIO - 1) / perIO
	if ionode < 0 || ionode >= groups {
		return nil, errorf("I/O node group: I/O node %d out of range [0, %d) "+
			"(%d ranks at %d per I/O node)", ionode, groups, n, perIO)
	}
	s := None(n)
	s.AddRange(ionode*perIO, min((ionode+1)*perIO, n)-1)
	return s, nil
}

// Box is an axis-aligned box on a 3-D torus: for each axis, coordinates Lo[i] through Hi[i]
// inclusive; Lo[i] > Hi[i] wraps around the torus (Lo..Shape-1 then 0..Hi).
type Box struct {
	Lo, Hi [3]int
}

// TorusBox returns the ranks in [0, n) whose nodes lie in box on a torus of the given shape
// (X, Y, Z), placing rank r at x = r mod X, y = (r / X) mod Y, z = r / (X·Y) — BG/L's default
// XYZ mapping with one process per node. The torus must have room for n ranks.
func TorusBox(n int, shape [3]int, box Box) (*Set, error) {
	if err := CheckSize(n); err != nil {
		return nil, err
	}
	nodes := 1
	for axis, d := range shape {
		if d < 1 || d > MaxSize {
			return nil, errorf("torus box: bad shape %v: %c extent %d", shape, "XYZ"[axis], d)
		}
		nodes *= d
		if nodes > MaxSize {
			return nil, errorf("torus box: shape %v has more than %d nodes", shape, MaxSize)
		}
		for _, c := range [2]int{box.Lo[axis], box.Hi[axis]} {
			if c < 0 || c >= d {
				return nil, errorf("torus box: %c coordinate %d out of range [0, %d)", "XYZ"[axis], c, d)
			}
		}
	}
	if nodes < n {
		return nil, errorf("torus box: shape %v has %d nodes, fewer than %d ranks", shape, nodes, n)
	}
	s := None(n)
	xs := axisRuns(box.Lo[0], box.Hi[0], shape[0])
	for _, z := range axisCoords(box.Lo[2], box.Hi[2], shape[2]) {
		for _, y := range axisCoords(box.Lo[1], box.Hi[1], shape[1]) {
			base := shape[0] * (y + shape[1]*z)
			for _, run := range xs {
				lo, hi := base+run[0], min(base+run[1], n-1)
				if lo <= hi {
					s.AddRange(lo, hi)
				}
			}
		}
	}
	return s, nil
}

// axisRuns returns the inclusive coordinate runs lo..hi on an axis of extent d, two runs when
// the range wraps.
func axisRuns(lo, hi, d int) [][2]int {
	if lo <= hi {
		return [][2]int{{lo, hi}}
	}
	return [][2]int{{lo, d - 1}, {0, hi}}
}

// axisCoords lists the coordinates of lo..hi on an axis of extent d, wrapping when lo > hi.
func axisCoords(lo, hi, d int) []int {
	var out []int
	for _, run := range axisRuns(lo, hi, d) {
		for c := run[0]; c <= run[1]; c++ {
			out = append(out, c)
		}
	}
	return out
}
