package cobj

import (
	"debug/dwarf"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Object is a relocatable PowerPC object, read and laid out, not yet placed.
type Object struct {
	Name     string // for messages: the file's name as given
	f        *elf.File
	syms     []elf.Symbol // symbol i+1 of the ELF table (index 0 is the null symbol)
	placed   []*Section   // the sections placed, in layout order
	bySecIdx map[int]*Section
	commons  map[int]uint32 // symbol index -> offset of a common symbol's storage
	size     uint32
	align    uint32
	dwarf    *dwarf.Data
}

// Section is a placed section: where it goes relative to the module's base.
type Section struct {
	Name   string
	Index  int
	Off    uint32 // offset from the module's base
	Size   uint32
	Align  uint32
	NoBits bool
	Exec   bool
	data   []byte
	rels   []elf.Rela32
}

// Open reads a relocatable 32-bit big-endian PowerPC ELF object and lays it out.
func Open(r io.ReaderAt, name string) (*Object, error) {
	f, err := elf.NewFile(r)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		// debug/elf reads the header, then the section headers at e_shoff, usually the
		// file's last bytes: a cut anywhere ends one of the two reads early.
		return nil, &Error{File: name, Why: "truncated: the file ends before its ELF header or section header table (" + err.Error() + ")"}
	}
	if err != nil {
		return nil, &Error{File: name, Why: "not an ELF object: " + err.Error()}
	}
	if f.Class != elf.ELFCLASS32 || f.Data != elf.ELFDATA2MSB || f.Machine != elf.EM_PPC {
		return nil, &Error{File: name, Why: fmt.Sprintf("not a 32-bit big-endian PowerPC object (%v %v %v)", f.Class, f.Data, f.Machine)}
	}
	if f.Type != elf.ET_REL {
		return nil, &Error{File: name, Why: fmt.Sprintf("%v, not a relocatable object (build it with -c)", f.Type)}
	}
	o := &Object{Name: name, f: f, bySecIdx: map[int]*Section{}, commons: map[int]uint32{}, align: 4}
	syms, err := f.Symbols()
	if err != nil && !errors.Is(err, elf.ErrNoSymbols) {
		return nil, &Error{File: name, Why: "reading its symbols: " + err.Error()}
	}
	o.syms = syms
	if err := o.readSections(); err != nil {
		return nil, err
	}
	if err := o.readRelocations(); err != nil {
		return nil, err
	}
	if err := o.layout(); err != nil {
		return nil, err
	}
	if d, err := f.DWARF(); err == nil {
		o.dwarf = d
	}
	return o, nil
}

// sectionClass orders placement: code, read-only data, writable data, zero-filled data.
func sectionClass(s *elf.Section) int {
	switch {
	case s.Flags&elf.SHF_EXECINSTR != 0:
		return 0
	case s.Type == elf.SHT_NOBITS:
		return 3
	case s.Flags&elf.SHF_WRITE == 0:
		return 1
	}
	return 2
}

func (o *Object) readSections() error {
	for i, s := range o.f.Sections {
		if s.Flags&elf.SHF_ALLOC == 0 {
			continue
		}
		if why := refusedSection(s); why != "" {
			return &Error{File: o.Name, Section: s.Name, Why: why}
		}
		sec := &Section{Name: s.Name, Index: i, Size: uint32(s.Size), Align: max(uint32(s.Addralign), 1),
			NoBits: s.Type == elf.SHT_NOBITS, Exec: s.Flags&elf.SHF_EXECINSTR != 0}
		if s.Size > 1<<31 {
			return &Error{File: o.Name, Section: s.Name, Why: fmt.Sprintf("%d bytes is too large", s.Size)}
		}
		if !sec.NoBits {
			data, err := s.Data()
			if err != nil {
				return &Error{File: o.Name, Section: s.Name, Why: "reading it: " + err.Error()}
			}
			sec.data = data
		}
		o.placed = append(o.placed, sec)
		o.bySecIdx[i] = sec
	}
	sort.SliceStable(o.placed, func(i, j int) bool {
		return sectionClass(o.f.Sections[o.placed[i].Index]) < sectionClass(o.f.Sections[o.placed[j].Index])
	})
	return nil
}

// refusedSection says why an allocated section cannot be loaded, or "".
func refusedSection(s *elf.Section) string {
	switch {
	case s.Type == elf.SHT_INIT_ARRAY || s.Type == elf.SHT_FINI_ARRAY || s.Type == elf.SHT_PREINIT_ARRAY,
		strings.HasPrefix(s.Name, ".ctors"), strings.HasPrefix(s.Name, ".dtors"):
		return "constructors and destructors are not run: a module cannot have them"
	case s.Flags&elf.SHF_TLS != 0:
		return "thread-local storage is not supported in a module"
	case s.Type != elf.SHT_PROGBITS && s.Type != elf.SHT_NOBITS:
		return fmt.Sprintf("section type %v cannot be loaded", s.Type)
	}
	return ""
}

func (o *Object) readRelocations() error {
	for _, s := range o.f.Sections {
		if s.Type == elf.SHT_REL {
			if o.bySecIdx[int(s.Info)] != nil {
				return &Error{File: o.Name, Section: s.Name, Why: "SHT_REL relocations (PowerPC objects use RELA)"}
			}
			continue
		}
		if s.Type != elf.SHT_RELA {
			continue
		}
		target := o.bySecIdx[int(s.Info)]
		if target == nil {
			continue // relocations of debug sections: not loaded
		}
		data, err := s.Data()
		if err != nil || len(data)%12 != 0 {
			return &Error{File: o.Name, Section: s.Name, Why: "malformed relocation section"}
		}
		for i := 0; i < len(data); i += 12 {
			target.rels = append(target.rels, elf.Rela32{
				Off:    o.f.ByteOrder.Uint32(data[i:]),
				Info:   o.f.ByteOrder.Uint32(data[i+4:]),
				Addend: int32(o.f.ByteOrder.Uint32(data[i+8:])),
			})
		}
	}
	return nil
}

// maxSize bounds a module: far beyond any instrumentation region, small enough that no
// offset computation overflows.
const maxSize = 1 << 30

// layout gives every placed section and common symbol its offset.
func (o *Object) layout() error {
	off := uint64(0)
	for _, s := range o.placed {
		if s.Align > maxSize {
			return &Error{File: o.Name, Section: s.Name, Why: fmt.Sprintf("alignment %d is too large", s.Align)}
		}
		off = alignUp(off, uint64(s.Align))
		s.Off = uint32(off)
		off += uint64(s.Size)
		o.align = max(o.align, s.Align)
		if off > maxSize {
			return &Error{File: o.Name, Section: s.Name, Why: fmt.Sprintf("the module would end at offset 0x%x: more than 1 GiB", off)}
		}
	}
	for i, s := range o.syms {
		if s.Section == elf.SHN_COMMON {
			a := max(s.Value, 1)
			if a > maxSize || s.Size > maxSize {
				return &Error{File: o.Name, Section: "COMMON", Symbol: s.Name, Why: "size or alignment too large"}
			}
			off = alignUp(off, a)
			o.commons[i+1] = uint32(off)
			off += s.Size
			o.align = max(o.align, uint32(a))
			if off > maxSize {
				return &Error{File: o.Name, Section: "COMMON", Symbol: s.Name, Why: "the module would be more than 1 GiB"}
			}
		}
	}
	o.size = uint32(alignUp(off, 4))
	return nil
}

func alignUp(v, a uint64) uint64 { return (v + a - 1) / a * a }

// Size is the number of bytes the module occupies, zero-filled data included.
func (o *Object) Size() uint32 { return o.size }

// Align is the alignment the module's base needs (its most aligned section's).
func (o *Object) Align() uint32 { return o.align }

// Sections lists the placed sections in layout order.
func (o *Object) Sections() []Section {
	out := make([]Section, len(o.placed))
	for i, s := range o.placed {
		out[i] = *s
		out[i].data, out[i].rels = nil, nil
	}
	return out
}

// DWARF is the object's debugging information (nil without -g): what types its globals.
func (o *Object) DWARF() *dwarf.Data { return o.dwarf }

// Fit checks that the module fits in avail bytes, naming the first section (or the
// common symbols) that would end beyond them.
func (o *Object) Fit(avail uint32) error {
	for _, s := range o.placed {
		if uint64(s.Off)+uint64(s.Size) > uint64(avail) {
			return &Error{File: o.Name, Section: s.Name, Offset: s.Off, Why: fmt.Sprintf(
				"%d bytes at module offset 0x%x do not fit in the %d bytes free in the instrumentation region", s.Size, s.Off, avail)}
		}
	}
	if o.size > avail {
		return &Error{File: o.Name, Section: "COMMON", Why: fmt.Sprintf(
			"the common symbols end at module offset 0x%x, beyond the %d bytes free in the instrumentation region", o.size, avail)}
	}
	return nil
}
