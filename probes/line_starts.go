package probes

import (
	"maps"
	"slices"
)

// lineStarts lists, in address order, every place the code of file:line begins, so that
// probes there fire once each time the line runs, however the compiler laid it out:
//
//   - a statement row (DWARF is_stmt) of the line that does not continue the row before
//     it, when the instruction there is the line's (the last row at the address names it)
//     or the row is the first at its address. The unrolled copies of a loop body start
//     this way, each at a row shared with its loop header's;
//   - a basic block (function entry, branch target, or the instruction after a
//     conditional branch) whose instruction is the line's and which some control-flow
//     predecessor in another line reaches: a loop body the optimizer re-enters from the
//     test moved below it, or an if's arm that carries no statement row of its own.
//
// A row shared with other lines whose instruction belongs to another (a location view)
// counts only when the line has no start of its own: a probe there serves each line.
func (b *Program) lineStarts(file string, line int) []uint32 {
	own := func(a uint32) bool {
		f, l := b.LineOf(a)
		return l == line && f == file
	}
	starts := map[uint32]bool{}
	var views []uint32
	funcs := map[uint32]Func{}
	for i, r := range b.lines {
		if r.File != file || r.Line != line {
			continue
		}
		if fn, ok := b.FuncAt(r.Addr); ok {
			funcs[fn.Addr] = fn
		}
		if !r.Stmt || b.continuesRow(i) {
			continue
		}
		if own(r.Addr) || b.firstAt(i) {
			starts[r.Addr] = true
		} else {
			views = append(views, r.Addr)
		}
	}
	for _, fn := range funcs {
		for _, a := range b.blocksEntered(fn, own) {
			starts[a] = true
		}
	}
	if len(starts) == 0 {
		for _, a := range views {
			starts[a] = true
		}
	}
	return slices.Sorted(maps.Keys(starts))
}

// continuesRow reports whether row i goes on with the line of the row just before it in
// the same sequence (as the second row of a line split by a location view does).
func (b *Program) continuesRow(i int) bool {
	if i == 0 {
		return false
	}
	p, r := b.lines[i-1], b.lines[i]
	return p.Line != 0 && p.File == r.File && p.Line == r.Line
}

// firstAt reports whether row i is the first of its address (its view 0).
func (b *Program) firstAt(i int) bool {
	return i == 0 || b.lines[i-1].Addr != b.lines[i].Addr || b.lines[i-1].Line == 0
}

// blocksEntered lists the basic blocks of fn whose first instruction satisfies own and
// that are entered from an instruction that does not (or are fn's entry).
func (b *Program) blocksEntered(fn Func, own func(uint32) bool) []uint32 {
	insns, err := b.scan(fn)
	if err != nil {
		return nil
	}
	preds := map[uint32][]uint32{} // branch target -> branches inside fn reaching it
	for _, in := range insns {
		if t := in.br.target; in.br.kind != brNone && !in.br.link && t >= fn.Addr && t-fn.Addr < fn.Size {
			preds[t] = append(preds[t], in.addr)
		}
	}
	var out []uint32
	for k, in := range insns {
		if !own(in.addr) {
			continue
		}
		if k == 0 {
			out = append(out, in.addr)
			continue
		}
		prev := insns[k-1]
		leader := len(preds[in.addr]) > 0 || (prev.br.kind == brBC && !prev.br.unconditional())
		if !leader {
			continue
		}
		entered := fallsThrough(prev.br) && !own(prev.addr)
		for _, p := range preds[in.addr] {
			entered = entered || !own(p)
		}
		if entered {
			out = append(out, in.addr)
		}
	}
	return out
}

// fallsThrough reports whether execution can go on to the next word after br: anything
// but an unconditional jump that does not link.
func fallsThrough(br branch) bool {
	switch br.kind {
	case brNone:
		return true
	case brB:
		return br.link
	}
	return br.link || !br.unconditional()
}
