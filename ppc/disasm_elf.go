package ppc

import (
	"bufio"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"io"
	"sort"
	"strconv"
)

// CodeSection is one executable section of a 32-bit big-endian PowerPC ELF file.
type CodeSection struct {
	Name  string
	Addr  uint32
	Words []uint32
}

// CodeSections returns every executable (SHF_EXECINSTR) section with contents, in file
// order. A trailing partial word is dropped.
func CodeSections(f *elf.File) ([]CodeSection, error) {
	if f.Class != elf.ELFCLASS32 || f.Data != elf.ELFDATA2MSB || f.Machine != elf.EM_PPC {
		return nil, fmt.Errorf("ppc: read code: not a 32-bit big-endian PowerPC ELF file (%v %v %v)",
			f.Class, f.Data, f.Machine)
	}
	var secs []CodeSection
	for _, s := range f.Sections {
		if s.Flags&elf.SHF_EXECINSTR == 0 || s.Type != elf.SHT_PROGBITS {
			continue
		}
		data, err := s.Data()
		if err != nil {
			return nil, fmt.Errorf("ppc: read code: section %s: %w", s.Name, err)
		}
		cs := CodeSection{Name: s.Name, Addr: uint32(s.Addr), Words: make([]uint32, len(data)/4)}
		for i := range cs.Words {
			cs.Words[i] = binary.BigEndian.Uint32(data[4*i:])
		}
		secs = append(secs, cs)
	}
	return secs, nil
}

// codeSymbol is a named address in code, with the size of what it names.
type codeSymbol struct {
	name string
	addr uint32
	size uint32
	fn   bool
}

// codeSymbols returns the function and untyped symbols of f in code: all of them, and
// those that head a listing sorted by address (of several at one address the function,
// then the global, then the first by name).
func codeSymbols(f *elf.File) (heads, all []codeSymbol) {
	syms, _ := f.Symbols() // a stripped file has no symbols: the listing has no headers
	var out []codeSymbol
	rank := func(s codeSymbol, bind elf.SymBind) int {
		r := 0
		if s.fn {
			r += 2
		}
		if bind == elf.STB_GLOBAL {
			r++
		}
		return r
	}
	best := map[uint32]int{}
	ranks := map[uint32]int{}
	for _, s := range syms {
		typ := elf.ST_TYPE(s.Info)
		if s.Name == "" || (typ != elf.STT_FUNC && typ != elf.STT_NOTYPE) || s.Section == elf.SHN_UNDEF ||
			s.Section >= elf.SHN_LORESERVE || int(s.Section) >= len(f.Sections) ||
			f.Sections[s.Section].Flags&elf.SHF_EXECINSTR == 0 {
			continue
		}
		cs := codeSymbol{name: s.Name, addr: uint32(s.Value), size: uint32(s.Size), fn: typ == elf.STT_FUNC}
		all = append(all, cs)
		r := rank(cs, elf.ST_BIND(s.Info))
		if i, ok := best[cs.addr]; ok {
			if r < ranks[cs.addr] || r == ranks[cs.addr] && cs.name >= out[i].name {
				continue
			}
			out[i], ranks[cs.addr] = cs, r
			continue
		}
		best[cs.addr], ranks[cs.addr] = len(out), r
		out = append(out, cs)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].addr < out[j].addr })
	return out, all
}

// WriteListing writes the objdump-style listing of f's code to w: per executable section
// a line "Disassembly of section NAME:", a line "ADDR <name>:" (after a blank line) where
// a symbol starts and "ADDR:\tTEXT" per word, addresses in lower-case hex without 0x.
// With names, only the functions of those names are listed, in the order given.
func WriteListing(w io.Writer, f *elf.File, names ...string) error {
	secs, err := CodeSections(f)
	if err != nil {
		return err
	}
	syms, all := codeSymbols(f)
	bw := bufio.NewWriter(w)
	if len(names) == 0 {
		for _, s := range secs {
			fmt.Fprintf(bw, "\nDisassembly of section %s:\n", s.Name)
			writeRange(bw, s, s.Addr, s.Addr+4*uint32(len(s.Words)), syms)
		}
		return bw.Flush()
	}
	for _, n := range names {
		sym, ok := findFunc(all, n)
		if !ok {
			return fmt.Errorf("ppc: disasm: no function symbol %q", n)
		}
		for _, s := range secs {
			end := s.Addr + 4*uint32(len(s.Words))
			if sym.addr >= s.Addr && sym.addr < end {
				writeRange(bw, s, sym.addr, min(sym.addr+max(sym.size, 4), end), []codeSymbol{sym})
			}
		}
	}
	return bw.Flush()
}

// findFunc returns the symbol called name, a function symbol before an untyped one.
func findFunc(syms []codeSymbol, name string) (codeSymbol, bool) {
	var found codeSymbol
	ok := false
	for _, s := range syms {
		if s.name == name && (!ok || s.fn && !found.fn) {
			found, ok = s, true
		}
	}
	return found, ok
}

// writeRange lists words [from, to) of s, with a header at every symbol in syms.
func writeRange(w *bufio.Writer, s CodeSection, from, to uint32, syms []codeSymbol) {
	i := sort.Search(len(syms), func(i int) bool { return syms[i].addr >= from })
	buf := make([]byte, 0, 64)
	for a := from &^ 3; a < to; a += 4 {
		for ; i < len(syms) && syms[i].addr <= a; i++ {
			if syms[i].addr == a {
				buf = append(buf[:0], '\n')
				buf = strconv.AppendUint(buf, uint64(a), 16)
				buf = append(buf, " <"...)
				buf = append(buf, syms[i].name...)
				w.Write(append(buf, ">:\n"...))
			}
		}
		word := s.Words[(a-s.Addr)/4]
		buf = strconv.AppendUint(buf[:0], uint64(a), 16)
		buf = append(buf, ":\t"...)
		buf = appendWord(buf, word, a)
		w.Write(append(buf, '\n'))
	}
}
