package ppc

import (
	"debug/elf"
	"slices"
	"sort"
)

// SymbolKind tells functions from data objects.
type SymbolKind uint8

// Symbol kinds, from the ELF symbol type.
const (
	SymFunc   SymbolKind = iota + 1
	SymObject            // STT_OBJECT
	SymTLS               // STT_TLS: an offset in the thread's block, not an address
)

// SymbolBind is a symbol's ELF binding.
type SymbolBind uint8

// Bindings, from the ELF symbol binding.
const (
	BindGlobal SymbolBind = iota
	BindWeak
	BindLocal
)

// Symbol is an ELF symbol with an address (functions and objects; sorted by address).
type Symbol struct {
	Name       string
	Addr, Size uint32
	Kind       SymbolKind
	Bind       SymbolBind
	Index      int // its place in the ELF symbol table (which of two locals of one name came first)
}

// TextSection is an executable section (SHT_PROGBITS with SHF_EXECINSTR) and its bytes.
type TextSection struct {
	Name string
	Addr uint32
	Data []byte
}

var symKinds = map[elf.SymType]SymbolKind{elf.STT_FUNC: SymFunc, elf.STT_OBJECT: SymObject, elf.STT_TLS: SymTLS}

var symBinds = map[elf.SymBind]SymbolBind{elf.STB_GLOBAL: BindGlobal, elf.STB_WEAK: BindWeak}

func readSymbols(f *elf.File) []Symbol {
	syms, err := f.Symbols()
	if err != nil {
		return nil // stripped: no symbols, which is not an error for running it
	}
	var out []Symbol
	for i, s := range syms {
		k, ok := symKinds[elf.ST_TYPE(s.Info)]
		if !ok || s.Section == elf.SHN_UNDEF || s.Name == "" {
			continue
		}
		b, ok := symBinds[elf.ST_BIND(s.Info)]
		if !ok {
			b = BindLocal
		}
		out = append(out, Symbol{Name: s.Name, Addr: uint32(s.Value), Size: uint32(s.Size), Kind: k, Bind: b, Index: i})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Addr < out[j].Addr })
	return out
}

// readCode keeps the executable sections' bytes.
func (img *Image) readCode(f *elf.File) error {
	for _, s := range f.Sections {
		if s.Type != elf.SHT_PROGBITS || s.Flags&elf.SHF_EXECINSTR == 0 {
			continue
		}
		data, err := s.Data()
		if err != nil {
			return &ELFError{Offset: int64(s.Offset), Reason: "section " + s.Name + " cannot be read", Err: err}
		}
		img.Code = append(img.Code, TextSection{Name: s.Name, Addr: uint32(s.Addr), Data: data})
	}
	return nil
}

// CodeAt returns the n bytes of code at addr, all within one executable section.
func (img *Image) CodeAt(addr, n uint32) ([]byte, bool) {
	for _, s := range img.Code {
		if addr >= s.Addr && uint64(addr-s.Addr)+uint64(n) <= uint64(len(s.Data)) {
			return s.Data[addr-s.Addr : addr-s.Addr+n], true
		}
	}
	return nil, false
}

// Lookup returns the symbol named name.
func (img *Image) Lookup(name string) (Symbol, bool) {
	for _, s := range img.Symbols {
		if s.Name == name {
			return s, true
		}
	}
	return Symbol{}, false
}

// Funcs is one function symbol (of nonzero size) per address, under its preferred name
// (PreferredName), sorted by address. The caller must not modify it.
func (img *Image) Funcs() []Symbol { return img.index().funcs }

// FuncNamed returns the function symbol (of nonzero size) named name, which may be an
// alias of the preferred name at its address. Of several of one name, the last global or
// weak one in the symbol table wins, else the first local one.
func (img *Image) FuncNamed(name string) (Symbol, bool) {
	s, ok := img.index().byName[name]
	return s, ok
}

// ObjectNamed returns the data symbol named name, chosen among several like FuncNamed.
func (img *Image) ObjectNamed(name string) (Symbol, bool) {
	s, ok := img.index().objects[name]
	return s, ok
}

// FuncNames lists every function name FuncNamed knows, aliases included, sorted.
func (img *Image) FuncNames() []string { return sortedKeys(img.index().byName) }

// ObjectNames lists every data object name ObjectNamed knows, sorted.
func (img *Image) ObjectNames() []string { return sortedKeys(img.index().objects) }

// namedSymbols maps the names of the symbols of kind (functions: of nonzero size) to
// their symbol, chosen as FuncNamed says.
func namedSymbols(syms []Symbol, kind SymbolKind) map[string]Symbol {
	byIndex := slices.Clone(syms)
	slices.SortFunc(byIndex, func(x, y Symbol) int { return x.Index - y.Index })
	out := map[string]Symbol{}
	for _, s := range byIndex {
		if s.Kind != kind || kind == SymFunc && s.Size == 0 {
			continue
		}
		if _, ok := out[s.Name]; !ok || s.Bind != BindLocal {
			out[s.Name] = s
		}
	}
	return out
}

func sortedKeys(m map[string]Symbol) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
