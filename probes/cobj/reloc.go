package cobj

import (
	"debug/elf"
	"encoding/binary"
	"fmt"
)

// The PC-relative 16-bit forms (the .got2 pointer of PIE and PIC code); debug/elf does
// not name them.
const (
	rPPCRel16   elf.R_PPC = 249
	rPPCRel16Lo elf.R_PPC = 250
	rPPCRel16Hi elf.R_PPC = 251
	rPPCRel16Ha elf.R_PPC = 252
)

// field is where a relocation's value goes and how it must fit.
type field uint8

const (
	fWord   field = iota // 32 bits
	fLo                  // low half, any value
	fHi                  // high half
	fHa                  // high half adjusted for a signed low half
	fHalf                // 16 bits, must fit (signed or unsigned)
	fSigned              // 16 bits, must fit signed (small-data offsets)
	fBr24                // the LI field of b/bl: signed 26-bit byte offset, word aligned
	fBr14                // the BD field of bc: signed 16-bit byte offset, word aligned
	fSDA21               // RA (base register) and the signed 16-bit offset of a D-form
)

// base is what the value is relative to.
type base uint8

const (
	absolute base = iota
	pcRel
	sdaRel
)

type relocKind struct {
	name      string
	field     field
	rel       base
	noAddend  bool // PLTREL24: the addend is a .got2 offset, not part of the target
	halfAlign bool // the offset names a halfword (2 bytes into a word for the 16-bit forms)
}

// relocKinds is every relocation type a module may use.
var relocKinds = map[elf.R_PPC]relocKind{
	elf.R_PPC_NONE:      {name: "R_PPC_NONE"},
	elf.R_PPC_ADDR32:    {name: "R_PPC_ADDR32", field: fWord},
	elf.R_PPC_UADDR32:   {name: "R_PPC_UADDR32", field: fWord},
	elf.R_PPC_ADDR16:    {name: "R_PPC_ADDR16", field: fHalf, halfAlign: true},
	elf.R_PPC_ADDR16_LO: {name: "R_PPC_ADDR16_LO", field: fLo, halfAlign: true},
	elf.R_PPC_ADDR16_HI: {name: "R_PPC_ADDR16_HI", field: fHi, halfAlign: true},
	elf.R_PPC_ADDR16_HA: {name: "R_PPC_ADDR16_HA", field: fHa, halfAlign: true},
	elf.R_PPC_REL24:     {name: "R_PPC_REL24", field: fBr24, rel: pcRel},
	elf.R_PPC_LOCAL24PC: {name: "R_PPC_LOCAL24PC", field: fBr24, rel: pcRel},
	elf.R_PPC_PLTREL24:  {name: "R_PPC_PLTREL24", field: fBr24, rel: pcRel, noAddend: true},
	elf.R_PPC_REL14:     {name: "R_PPC_REL14", field: fBr14, rel: pcRel},
	elf.R_PPC_REL32:     {name: "R_PPC_REL32", field: fWord, rel: pcRel},
	rPPCRel16:           {name: "R_PPC_REL16", field: fSigned, rel: pcRel, halfAlign: true},
	rPPCRel16Lo:         {name: "R_PPC_REL16_LO", field: fLo, rel: pcRel, halfAlign: true},
	rPPCRel16Hi:         {name: "R_PPC_REL16_HI", field: fHi, rel: pcRel, halfAlign: true},
	rPPCRel16Ha:         {name: "R_PPC_REL16_HA", field: fHa, rel: pcRel, halfAlign: true},
	elf.R_PPC_SDAREL16:  {name: "R_PPC_SDAREL16", field: fSigned, rel: sdaRel, halfAlign: true},
	elf.R_PPC_EMB_SDA21: {name: "R_PPC_EMB_SDA21", field: fSDA21, rel: sdaRel},
}

// relocName names a relocation type the way readelf does.
func relocName(t elf.R_PPC) string {
	if k, ok := relocKinds[t]; ok {
		return k.name
	}
	return t.String()
}

// unsupportedWhy adds advice for the types a compiler emits under options modules
// cannot use.
func unsupportedWhy(t elf.R_PPC) string {
	why := "unsupported relocation type"
	switch t {
	case elf.R_PPC_GOT16, elf.R_PPC_GOT16_LO, elf.R_PPC_GOT16_HI, elf.R_PPC_GOT16_HA:
		why += " (a module has no GOT: build it without -fpic: -fPIC, -fPIE or -fno-pic)"
	case elf.R_PPC_ADDR24, elf.R_PPC_ADDR14, elf.R_PPC_ADDR14_BRTAKEN, elf.R_PPC_ADDR14_BRNTAKEN:
		why += " (an absolute branch cannot reach the instrumentation region)"
	}
	return why
}

// apply applies relocation r of section s.
func (l *linker) apply(s *Section, r elf.Rela32) error {
	t, k := elf.R_PPC(r.Info&0xff), int(r.Info>>8)
	site := func(why string) error {
		return &Error{File: l.o.Name, Section: s.Name, Offset: r.Off, Reloc: relocName(t), Symbol: l.symbolName(k), Why: why}
	}
	kind, ok := relocKinds[t]
	if !ok {
		return site(unsupportedWhy(t))
	}
	if t == elf.R_PPC_NONE {
		return nil
	}
	at, n := r.Off, uint64(4)
	switch {
	case kind.halfAlign:
		at, n = at&^1, 2
	case kind.field != fWord:
		at &^= 3 // the instruction holding the field
	}
	if s.NoBits || uint64(at)+n > uint64(s.Size) {
		return site(fmt.Sprintf("offset 0x%x lies outside the section's %d bytes", r.Off, s.Size))
	}
	S, symSec, err := l.symbolAddr(k, site)
	if err != nil {
		return err
	}
	A := uint32(r.Addend)
	if kind.noAddend {
		A = 0
	}
	P := l.base + s.Off + r.Off
	v := S + A
	reg := uint32(0)
	switch kind.rel {
	case pcRel:
		v -= P
	case sdaRel:
		var sda uint32
		reg, sda, err = l.sdaBase(kind, symSec, site)
		if err != nil {
			return err
		}
		v -= sda
	}
	return l.store(kind, s.Off+at, v, reg, site)
}

// sdaBase is the base register and its value for a small-data relocation: SDAREL16 is
// always r13 (_SDA_BASE_); EMB_SDA21 picks it by the target's section.
func (l *linker) sdaBase(kind relocKind, symSec string, site func(string) error) (uint32, uint32, error) {
	reg, sym := uint32(13), "_SDA_BASE_"
	if kind.field == fSDA21 {
		switch symSec {
		case ".sdata", ".sbss":
		case ".sdata2", ".sbss2":
			reg, sym = 2, "_SDA2_BASE_"
		case ".PPC.EMB.sdata0", ".PPC.EMB.sbss0":
			return 0, 0, nil
		default:
			return 0, 0, site(fmt.Sprintf("the target lies in %q, not a small-data section", symSec))
		}
	}
	if l.resolve != nil {
		if v, ok := l.resolve(sym); ok {
			return reg, v, nil
		}
	}
	return 0, 0, site(fmt.Sprintf("the module uses small data but the program defines no %s: build the module with -msdata=none (-G 0)", sym))
}

// store writes v into the field at off of the image, checking that it fits.
func (l *linker) store(kind relocKind, off, v, reg uint32, site func(string) error) error {
	be := binary.BigEndian
	sv := int64(int32(v))
	switch kind.field {
	case fWord:
		be.PutUint32(l.out[off:], v)
	case fLo:
		be.PutUint16(l.out[off:], uint16(v))
	case fHi:
		be.PutUint16(l.out[off:], uint16(v>>16))
	case fHa:
		be.PutUint16(l.out[off:], uint16((v+0x8000)>>16))
	case fHalf:
		if sv < -0x8000 || sv > 0xffff {
			return site(fmt.Sprintf("value 0x%x does not fit in 16 bits", v))
		}
		be.PutUint16(l.out[off:], uint16(v))
	case fSigned:
		if sv < -0x8000 || sv > 0x7fff {
			return site(fmt.Sprintf("offset %d does not fit in a signed 16-bit field (small data must lie within 32 KiB of its base): build the module with -msdata=none (-G 0)", sv))
		}
		be.PutUint16(l.out[off:], uint16(v))
	case fBr24:
		if sv < -1<<25 || sv >= 1<<25 || v%4 != 0 {
			return site(fmt.Sprintf("branch displacement %d does not fit in 26 bits (the target is out of the 32 MiB reach of b/bl)", sv))
		}
		w := be.Uint32(l.out[off:])
		be.PutUint32(l.out[off:], w&^0x03fffffc|v&0x03fffffc)
	case fBr14:
		if sv < -1<<15 || sv >= 1<<15 || v%4 != 0 {
			return site(fmt.Sprintf("branch displacement %d does not fit in 16 bits (the target is out of the 32 KiB reach of bc)", sv))
		}
		w := be.Uint32(l.out[off:])
		be.PutUint32(l.out[off:], w&^0xfffc|v&0xfffc)
	case fSDA21:
		if sv < -0x8000 || sv > 0x7fff {
			return site(fmt.Sprintf("offset %d does not fit in a signed 16-bit field (small data must lie within 32 KiB of its base): build the module with -msdata=none (-G 0)", sv))
		}
		w := be.Uint32(l.out[off:])
		be.PutUint32(l.out[off:], w&^0x001fffff|reg<<16|v&0xffff)
	}
	return nil
}
