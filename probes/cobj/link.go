package cobj

import (
	"debug/elf"
	"fmt"
)

// Resolver finds a symbol of the program the module is loaded into.
type Resolver func(name string) (uint32, bool)

// Symbol is a symbol the module defines, at its address once linked.
type Symbol struct {
	Name    string
	Addr    uint32
	Size    uint32
	Func    bool   // STT_FUNC
	Local   bool   // STB_LOCAL: static in C
	Section string // its section's name ("COMMON", "ABS")
	// DwarfAddr is its address as the object's DWARF says it: the offset in its section.
	DwarfAddr uint32
}

// Image is a module linked at Base: the bytes to write there (zero-filled data
// included) and its symbols.
type Image struct {
	Base    uint32
	Bytes   []byte
	Symbols map[string]Symbol // a global definition wins over a local one of the same name
}

// Link places the module at base, resolves its symbols (its own first, then the program's
// through resolve) and applies its relocations. Nothing is written anywhere: an error
// leaves the caller free to give the memory back.
func (o *Object) Link(base uint32, resolve Resolver) (*Image, error) {
	if base%o.align != 0 {
		return nil, &Error{File: o.Name, Why: fmt.Sprintf("base 0x%x is not aligned to %d bytes", base, o.align)}
	}
	if uint64(base)+uint64(o.size) > 1<<32 {
		return nil, &Error{File: o.Name, Why: fmt.Sprintf("%d bytes at 0x%x pass the end of the address space", o.size, base)}
	}
	img := &Image{Base: base, Bytes: make([]byte, o.size), Symbols: o.symbols(base)}
	for _, s := range o.placed {
		copy(img.Bytes[s.Off:], s.data)
	}
	if err := o.checkTypes(); err != nil {
		return nil, err
	}
	l := &linker{o: o, base: base, resolve: resolve, out: img.Bytes}
	for _, s := range o.placed {
		for _, r := range s.rels {
			if err := l.apply(s, r); err != nil {
				return nil, err
			}
		}
	}
	return img, nil
}

// checkTypes refuses the first relocation of a type the loader does not apply, before
// symbols are looked at: a -fpic object is refused for its GOT16, not for the
// _GLOBAL_OFFSET_TABLE_ that comes with it.
func (o *Object) checkTypes() error {
	l := &linker{o: o}
	for _, s := range o.placed {
		for _, r := range s.rels {
			if t := elf.R_PPC(r.Info & 0xff); relocKinds[t].name == "" {
				return &Error{File: o.Name, Section: s.Name, Offset: r.Off, Reloc: relocName(t),
					Symbol: l.symbolName(int(r.Info >> 8)), Why: unsupportedWhy(t)}
			}
		}
	}
	return nil
}

// symbols lists the module's definitions at their linked addresses.
func (o *Object) symbols(base uint32) map[string]Symbol {
	out := map[string]Symbol{}
	for i, s := range o.syms {
		t := elf.ST_TYPE(s.Info)
		if s.Name == "" || t == elf.STT_SECTION || t == elf.STT_FILE || s.Section == elf.SHN_UNDEF {
			continue
		}
		addr, secName, ok := o.defined(i+1, base)
		if !ok {
			continue
		}
		sym := Symbol{Name: s.Name, Addr: addr, Size: uint32(s.Size), Func: t == elf.STT_FUNC,
			Local: elf.ST_BIND(s.Info) == elf.STB_LOCAL, Section: secName, DwarfAddr: uint32(s.Value)}
		if old, seen := out[s.Name]; seen && !old.Local {
			continue
		}
		out[s.Name] = sym
	}
	return out
}

// defined is the linked address of the module's own symbol k (1-based), and its section.
func (o *Object) defined(k int, base uint32) (uint32, string, bool) {
	s := o.syms[k-1]
	switch s.Section {
	case elf.SHN_ABS:
		return uint32(s.Value), "ABS", true
	case elf.SHN_COMMON:
		return base + o.commons[k], "COMMON", true
	case elf.SHN_UNDEF:
		return 0, "", false
	}
	sec := o.bySecIdx[int(s.Section)]
	if sec == nil {
		return 0, "", false
	}
	return base + sec.Off + uint32(s.Value), sec.Name, true
}

type linker struct {
	o       *Object
	base    uint32
	resolve Resolver
	out     []byte
}

// symbolAddr is S for a relocation against symbol k: the module's definition, else the
// program's; an undefined weak symbol is 0.
func (l *linker) symbolAddr(k int, site func(why string) error) (uint32, string, error) {
	if k == 0 {
		return 0, "", nil
	}
	if k > len(l.o.syms) {
		return 0, "", site(fmt.Sprintf("symbol index %d out of range", k))
	}
	s := l.o.syms[k-1]
	if addr, sec, ok := l.o.defined(k, l.base); ok {
		return addr, sec, nil
	}
	if s.Section != elf.SHN_UNDEF {
		return 0, "", site(fmt.Sprintf("its section %d is not loaded", s.Section))
	}
	if l.resolve != nil {
		if addr, ok := l.resolve(s.Name); ok {
			return addr, "", nil
		}
	}
	if elf.ST_BIND(s.Info) == elf.STB_WEAK {
		return 0, "", nil
	}
	return 0, "", site("undefined symbol: neither the module nor the program defines it")
}

// symbolName names symbol k for messages (a section symbol by its section).
func (l *linker) symbolName(k int) string {
	if k == 0 || k > len(l.o.syms) {
		return ""
	}
	s := l.o.syms[k-1]
	if elf.ST_TYPE(s.Info) == elf.STT_SECTION {
		if int(s.Section) < len(l.o.f.Sections) {
			return l.o.f.Sections[s.Section].Name
		}
	}
	return s.Name
}
