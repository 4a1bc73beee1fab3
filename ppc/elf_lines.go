package ppc

import (
	"debug/dwarf"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// LineRow is one row of the DWARF line table: addresses from Addr up to the next row
// belong to File:Line (Line 0 marks the end of a sequence).
type LineRow struct {
	Addr uint32
	File string
	Line int
	Stmt bool // a recommended breakpoint location (DWARF is_stmt)
}

// symbolIndex is what naming a code address needs, built from the image on first use
// (a job that never faults never reads its DWARF) and shared by every node after.
type symbolIndex struct {
	once    sync.Once
	lines   []LineRow
	funcs   []Symbol          // one per address, under its preferred name; sorted by address
	byName  map[string]Symbol // functions of nonzero size, aliases included (namedSymbols)
	objects map[string]Symbol // data objects (namedSymbols)
}

func (img *Image) index() *symbolIndex {
	x := &img.symIndex
	x.once.Do(func() {
		if img.DWARF != nil {
			x.lines = readLines(img.DWARF)
		}
		x.funcs = preferredFuncs(img.Symbols)
		x.byName = namedSymbols(img.Symbols, SymFunc)
		x.objects = namedSymbols(img.Symbols, SymObject)
	})
	return x
}

// Lines is the executable's DWARF line table sorted by address (nil without DWARF). The
// caller must not modify it.
func (img *Image) Lines() []LineRow { return img.index().lines }

// LineOf returns the source file and line of the instruction at addr, or "", 0.
func (img *Image) LineOf(addr uint32) (string, int) {
	lines := img.index().lines
	i := sort.Search(len(lines), func(i int) bool { return lines[i].Addr > addr }) - 1
	if i < 0 || lines[i].Line == 0 {
		return "", 0
	}
	return lines[i].File, lines[i].Line
}

// FuncAt returns the function symbol (of nonzero size) containing addr; of several
// symbols at one address, the preferred name (PreferredName).
func (img *Image) FuncAt(addr uint32) (Symbol, bool) {
	fs := img.index().funcs
	i := sort.Search(len(fs), func(i int) bool { return fs[i].Addr > addr }) - 1
	if i >= 0 && addr-fs[i].Addr < fs[i].Size {
		return fs[i], true
	}
	return Symbol{}, false
}

// Locate names addr by its function and source line: the image is a Symbolizer.
func (img *Image) Locate(addr uint32) (Location, bool) {
	f, ok := img.FuncAt(addr)
	if !ok {
		return Location{}, false
	}
	loc := Location{Func: f.Name, Start: f.Addr}
	loc.File, loc.Line = img.LineOf(addr)
	return loc, true
}

// PreferredName reports whether s names its address better than o: global before weak
// before local, then fewer leading underscores, then shorter, then alphabetical.
func PreferredName(s, o Symbol) bool { return nameRank(s) < nameRank(o) }

func nameRank(s Symbol) string {
	under := len(s.Name) - len(strings.TrimLeft(s.Name, "_"))
	return fmt.Sprintf("%c%03d%06d%s", '0'+s.Bind, under, len(s.Name), s.Name)
}

// preferredFuncs keeps one function symbol per address; of several of equal rank, the
// first in the symbol table.
func preferredFuncs(syms []Symbol) []Symbol {
	best := map[uint32]Symbol{}
	for _, s := range syms {
		if s.Kind != SymFunc || s.Size == 0 {
			continue
		}
		if old, ok := best[s.Addr]; !ok || PreferredName(s, old) || (nameRank(s) == nameRank(old) && s.Index < old.Index) {
			best[s.Addr] = s
		}
	}
	out := make([]Symbol, 0, len(best))
	for _, s := range best {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Addr < out[j].Addr })
	return out
}

func readLines(d *dwarf.Data) []LineRow {
	var out []LineRow
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
				row := LineRow{Addr: uint32(le.Address)}
				if !le.EndSequence && le.File != nil {
					row.File, row.Line, row.Stmt = le.File.Name, le.Line, le.IsStmt
				}
				out = append(out, row)
			}
		}
		rd.SkipChildren()
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Addr < out[j].Addr })
	return out
}
