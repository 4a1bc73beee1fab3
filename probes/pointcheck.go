package probes

import "fmt"

// CheckAt reports whether e may run at p. retval at an exit that leaves the function by
// a tail call (b, bc or bctr out of it, not a return) is refused: the function has not
// returned, r3 holds the callee's first argument, and the value would be silently wrong.
func CheckAt(e *Exp, p Point) error {
	if p.Kind != PointEntry && (uses(e, KSkip) || uses(e, KJump)) {
		return &PointError{Addr: p.Addr, Func: p.Func, Why: fmt.Sprintf(
			"skip and replacement leave %s at its entry only (at a %s point its frame is set up)", p.Func, p.Kind)}
	}
	if p.Kind != PointExit || !uses(e, KRetval) {
		return nil
	}
	br := decodeBranch(p.Word, p.Addr)
	if br.kind == brLR {
		return nil
	}
	to := p.Callee
	if to == "" && p.Target != 0 {
		to = fmt.Sprintf("0x%x", p.Target)
	}
	if to == "" {
		to = "the function in CTR"
	}
	return &PointError{Addr: p.Addr, Func: p.Func, Why: fmt.Sprintf(
		"retval at a tail call to %s: %s has not returned yet (r3 holds the callee's argument); "+
			"probe the exits of %s instead", to, p.Func, to)}
}

// uses reports whether any node of e has kind k.
func uses(e *Exp, k Kind) bool {
	if e == nil {
		return false
	}
	if e.Kind == k {
		return true
	}
	for _, c := range e.Kids {
		if uses(c, k) {
			return true
		}
	}
	return false
}
