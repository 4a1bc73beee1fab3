package probes

import (
	"fmt"
	"path/filepath"
)

// Frame is one return address of a call stack, resolved against the program.
type Frame struct {
	PC     uint32 // the return address as sent
	Func   string // the function containing the call, "" when none does
	Offset uint32 // PC - the function's entry
	File   string // the call's source file (base name) and line, from DWARF; "" and 0 without
	Line   int
}

// String is "function+0xoff (file:line)", "function+0xoff" without line information, or
// the bare address outside every function.
func (f Frame) String() string {
	if f.Func == "" {
		return fmt.Sprintf("0x%x", f.PC)
	}
	s := fmt.Sprintf("%s+0x%x", f.Func, f.Offset)
	if f.File != "" {
		s += fmt.Sprintf(" (%s:%d)", f.File, f.Line)
	}
	return s
}

// FrameAt resolves a return address: the function and line are those of the call, the
// instruction before pc (a call that ends a function returns past its end), the offset
// is pc's own.
func (b *Program) FrameAt(pc uint32) Frame {
	fr := Frame{PC: pc}
	call := pc - 4
	if pc < 4 {
		call = pc
	}
	fn, ok := b.FuncAt(call)
	if !ok {
		return fr
	}
	fr.Func, fr.Offset = fn.Name, pc-fn.Addr
	if file, line := b.LineOf(call); file != "" {
		fr.File, fr.Line = filepath.Base(file), line
	}
	return fr
}

// Stack resolves the values a Ustack sent, innermost first, up to the first 0 (where the
// walk ended).
func (b *Program) Stack(pcs []uint32) []Frame {
	var out []Frame
	for _, pc := range pcs {
		if pc == 0 {
			break
		}
		out = append(out, b.FrameAt(pc))
	}
	return out
}
