package probes

import (
	"encoding/binary"
	"path"
	"sort"

	"github.com/dpclsh/dpclsh/ppc"
)

// Func is a function of the program: its symbol in the executable's image, and the
// source file and line of its entry (DWARF; "", 0 when unknown).
type Func struct {
	ppc.Symbol
	File string
	Line int
}

// Program is a program's code and symbols as probes see them: a view of the image the
// machine loaded (ppc.LoadELF parses the executable once: symbols, line table, DWARF),
// shared by every node running it.
type Program struct {
	Funcs []Func // the image's functions (ppc.Image.Funcs) with their source lines
	img   *ppc.Image
	lines []ppc.LineRow // the image's DWARF line table
}

// NewProgram is the program of a loaded executable: its function symbols, its code and,
// when present, its DWARF line table and variables.
func NewProgram(img *ppc.Image) *Program {
	b := &Program{img: img, lines: img.Lines()}
	for _, s := range img.Funcs() {
		f := Func{Symbol: s}
		f.File, f.Line = img.LineOf(s.Addr)
		b.Funcs = append(b.Funcs, f)
	}
	return b
}

// Image is the executable the program was made from.
func (b *Program) Image() *ppc.Image { return b.img }

// LineOf returns the source file and line of the instruction at addr, or "", 0.
func (b *Program) LineOf(addr uint32) (string, int) {
	return b.img.LineOf(addr)
}

// Word returns the instruction word at addr.
func (b *Program) Word(addr uint32) (uint32, bool) {
	if addr%4 != 0 {
		return 0, false
	}
	c, ok := b.code(addr, 4)
	if !ok {
		return 0, false
	}
	return binary.BigEndian.Uint32(c), true
}

// code returns the n bytes of code at addr, all within one executable section.
func (b *Program) code(addr, n uint32) ([]byte, bool) { return b.img.CodeAt(addr, n) }

// Lookup returns the function named name (any of its aliases).
func (b *Program) Lookup(name string) (Func, bool) {
	s, ok := b.img.FuncNamed(name)
	if !ok {
		return Func{}, false
	}
	return b.FuncAt(s.Addr)
}

// FuncAt returns the function containing addr.
func (b *Program) FuncAt(addr uint32) (Func, bool) {
	i := sort.Search(len(b.Funcs), func(i int) bool { return b.Funcs[i].Addr > addr }) - 1
	if i >= 0 && addr-b.Funcs[i].Addr < b.Funcs[i].Size {
		return b.Funcs[i], true
	}
	return Func{}, false
}

// Match returns the functions whose names match the glob pattern (path.Match syntax),
// sorted by address.
func (b *Program) Match(pattern string) ([]Func, error) {
	if _, err := path.Match(pattern, ""); err != nil {
		return nil, errorf("bad function pattern %q: %w", pattern, err)
	}
	var out []Func
	for _, f := range b.Funcs {
		if ok, _ := path.Match(pattern, f.Name); ok {
			out = append(out, f)
		}
	}
	return out, nil
}

// Resolve makes b usable as Target.Resolve.
func (b *Program) Resolve(name string) (uint32, bool) {
	f, ok := b.Lookup(name)
	return f.Addr, ok
}
