package probes

import (
	"debug/dwarf"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
)

// Func is a function of the program, from the ELF symbol table.
type Func struct {
	Name string
	Addr uint32
	Size uint32
	File string // source file of the entry (DWARF), "" when unknown
	Line int
}

// Program is a program's code and symbols, read once and shared by every node running it.
type Program struct {
	Funcs []Func            // sorted by address; one per address, under its preferred name
	names map[string]uint32 // every function symbol, aliases included
	text  []segment
	lines []lineEntry

	objects map[string]object // data symbols, for Global
	dwarf   *dwarf.Data       // nil without DWARF
}

type segment struct {
	addr uint32
	data []byte
}

// lineEntry is one row of the DWARF line table: addresses from addr up to the next row
// belong to file:line (line 0 marks the end of a sequence).
type lineEntry struct {
	addr uint32
	file string
	line int
	stmt bool // a recommended breakpoint location (DWARF is_stmt)
}

// OpenProgram reads a 32-bit big-endian PowerPC ELF executable: its executable sections,
// function symbols and, when present, its DWARF line table.
func OpenProgram(r io.ReaderAt) (*Program, error) {
	f, err := elf.NewFile(r)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, fmt.Errorf("probes: read ELF: too short for an ELF header: %w", err)
	}
	if err != nil {
		return nil, fmt.Errorf("probes: read ELF: %w", err)
	}
	defer f.Close()
	if f.Class != elf.ELFCLASS32 || f.Data != elf.ELFDATA2MSB || f.Machine != elf.EM_PPC {
		return nil, fmt.Errorf("probes: read ELF: not a 32-bit big-endian PowerPC executable (%v %v %v)", f.Class, f.Data, f.Machine)
	}
	b := &Program{}
	for _, s := range f.Sections {
		if s.Type != elf.SHT_PROGBITS || s.Flags&elf.SHF_EXECINSTR == 0 {
			continue
		}
		data, err := s.Data()
		if err != nil {
			return nil, fmt.Errorf("probes: read section %s: %w", s.Name, err)
		}
		b.text = append(b.text, segment{uint32(s.Addr), data})
	}
	if err := b.readSymbols(f); err != nil {
		return nil, err
	}
	b.readData(f)
	if d, err := f.DWARF(); err == nil {
		b.lines = readLines(d)
	}
	for i := range b.Funcs {
		b.Funcs[i].File, b.Funcs[i].Line = b.LineOf(b.Funcs[i].Addr)
	}
	return b, nil
}

func (b *Program) readSymbols(f *elf.File) error {
	syms, err := f.Symbols()
	if err != nil && !errors.Is(err, elf.ErrNoSymbols) {
		return fmt.Errorf("probes: read ELF symbols: %w", err)
	}
	best := map[uint32]elf.Symbol{}
	b.names = map[string]uint32{}
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) != elf.STT_FUNC || s.Size == 0 || s.Section == elf.SHN_UNDEF {
			continue
		}
		addr := uint32(s.Value)
		if old, ok := best[addr]; !ok || nameRank(s) < nameRank(old) {
			best[addr] = s
		}
		if _, ok := b.names[s.Name]; !ok || elf.ST_BIND(s.Info) != elf.STB_LOCAL {
			b.names[s.Name] = addr
		}
	}
	for addr, s := range best {
		b.Funcs = append(b.Funcs, Func{Name: s.Name, Addr: addr, Size: uint32(s.Size)})
	}
	sort.Slice(b.Funcs, func(i, j int) bool { return b.Funcs[i].Addr < b.Funcs[j].Addr })
	return nil
}

// nameRank orders the names of one address: global before weak before local, then the
// name with fewer leading underscores, then the shorter, then alphabetical.
func nameRank(s elf.Symbol) string {
	bind := map[elf.SymBind]byte{elf.STB_GLOBAL: '0', elf.STB_WEAK: '1'}[elf.ST_BIND(s.Info)]
	if bind == 0 {
		bind = '2'
	}
	under := len(s.Name) - len(strings.TrimLeft(s.Name, "_"))
	return fmt.Sprintf("%c%03d%06d%s", bind, under, len(s.Name), s.Name)
}

func readLines(d *dwarf.Data) []lineEntry {
	var out []lineEntry
	rd := d.Reader()
	for {
		cu, err := rd.Next()
		if err != nil || cu == nil {
			break
		}
		if cu.Tag != dwarf.TagCompileUnit {
			rd.SkipChildren()
			continue
		}
		lr, err := d.LineReader(cu)
		if err == nil && lr != nil {
			var le dwarf.LineEntry
			for lr.Next(&le) == nil {
				ent := lineEntry{addr: uint32(le.Address)}
				if !le.EndSequence && le.File != nil {
					ent.file, ent.line, ent.stmt = le.File.Name, le.Line, le.IsStmt
				}
				out = append(out, ent)
			}
		}
		rd.SkipChildren()
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].addr < out[j].addr })
	return out
}

// LineOf returns the source file and line of the instruction at addr, or "", 0.
func (b *Program) LineOf(addr uint32) (string, int) {
	i := sort.Search(len(b.lines), func(i int) bool { return b.lines[i].addr > addr }) - 1
	if i < 0 || b.lines[i].line == 0 {
		return "", 0
	}
	return b.lines[i].file, b.lines[i].line
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
func (b *Program) code(addr, n uint32) ([]byte, bool) {
	for _, s := range b.text {
		if addr >= s.addr && uint64(addr-s.addr)+uint64(n) <= uint64(len(s.data)) {
			return s.data[addr-s.addr : addr-s.addr+n], true
		}
	}
	return nil, false
}

// Lookup returns the function named name (any of its aliases).
func (b *Program) Lookup(name string) (Func, bool) {
	addr, ok := b.names[name]
	if !ok {
		return Func{}, false
	}
	return b.FuncAt(addr)
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
		return nil, fmt.Errorf("probes: bad function pattern %q: %w", pattern, err)
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
