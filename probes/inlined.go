package probes

import (
	"fmt"
	"slices"
	"strings"
)

// InlinedPoints gives a point at the start of each inlined copy of the function name
// (DWARF DW_TAG_inlined_subroutine), in address order, deduplicated: Func is the function
// holding the copy, Callee the inlined function, File:Line the call the copy replaces. A
// function with no inlined copies is an error saying so.
func (b *Program) InlinedPoints(name string) ([]Point, error) {
	copies := b.img.InlinedCopiesOf(name)
	if len(copies) == 0 {
		return nil, errorf("%s has no inlined copies (no DW_TAG_inlined_subroutine names it; was the program built with -g?)", name)
	}
	var out []Point
	seen := map[uint32]bool{}
	for _, c := range copies {
		if seen[c.Entry] {
			continue
		}
		seen[c.Entry] = true
		p, err := b.PointAt(c.Entry)
		if err != nil {
			return nil, errorf("inlined copy of %s: %w", name, err)
		}
		p.Kind, p.Callee, p.Target, p.File, p.Line = PointInlined, name, 0, c.CallFile, c.CallLine
		out = append(out, p)
	}
	return out, nil
}

// InlinedNote says where the function name has inlined copies, for a user who probes its
// entry or exit and would otherwise see those calls go uncounted: "" when it has none.
func (b *Program) InlinedNote(name string) string {
	copies := b.img.InlinedCopiesOf(name)
	if len(copies) == 0 {
		return ""
	}
	return fmt.Sprintf("%s is also inlined at %s in %s; its entry and exit points miss those calls (app:points(%q, \"inlined\") gives them)",
		name, Plural(len(copies), "site"), strings.Join(b.InlinedInto(name), ", "), name)
}

// InlinedInto lists the functions that hold inlined copies of name, in the order of the
// copies' addresses (none when the compiler kept every call to name).
func (b *Program) InlinedInto(name string) []string {
	var into []string
	for _, c := range b.img.InlinedCopiesOf(name) {
		if f, ok := b.FuncAt(c.Entry); ok && !slices.Contains(into, f.Name) {
			into = append(into, f.Name)
		}
	}
	return into
}

// SitesNote summarises a list of points for a user: "7 sites in sum, fill".
func SitesNote(pts []Point) string {
	var funcs []string
	for _, p := range pts {
		if !slices.Contains(funcs, p.Func) {
			funcs = append(funcs, p.Func)
		}
	}
	return fmt.Sprintf("%s in %s", Plural(len(pts), "site"), strings.Join(funcs, ", "))
}

// Plural writes n and noun, with an s unless n is 1.
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
