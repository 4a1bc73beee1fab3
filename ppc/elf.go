package ppc

import (
	"debug/dwarf"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
)

// Region is a range of addresses [Start, Start+Size).
type Region struct {
	Start, Size uint32
}

// End returns the first address past the region (as uint64: a region may end at 2^32).
func (r Region) End() uint64 { return uint64(r.Start) + uint64(r.Size) }

// Contains reports whether addr lies in the region.
func (r Region) Contains(addr uint32) bool { return addr >= r.Start && uint64(addr) < r.End() }

func (r Region) overlaps(o Region) bool {
	return uint64(r.Start) < o.End() && uint64(o.Start) < r.End()
}

// Segment is one PT_LOAD segment of an image.
type Segment struct {
	Vaddr, Memsz uint32
	Offset       uint64
	Filesz       uint32
	Perm         Perm
}

// Image is a loaded static PPC32 executable: its segments in one shared base Memory that
// every process maps copy-on-write, its symbols, and the address-space layout every process
// gets (the same on every node).
type Image struct {
	Entry    uint32
	Segments []Segment
	Symbols  []Symbol
	// Text spans the executable segments.
	Text Region
	// InstrRegion is reserved for trampolines and probe variables: within branch reach
	// (±32 MiB) of all of Text, mapped RWX, and never part of the brk heap or the stack.
	InstrRegion Region
	// Stack is the stack mapping of every process; its top holds the strings and auxv.
	Stack Region
	// Code holds the executable sections' bytes: the instructions tools read.
	Code []TextSection
	// DWARF is the executable's debugging information, nil when it has none.
	DWARF *dwarf.Data

	phdr, phnum uint32
	brk         uint32
	base        *Memory
	symIndex    symbolIndex
	inlined     inlinedIndex
}

// Brk returns the initial program break: the end of the highest segment, page aligned.
func (img *Image) Brk() uint32 { return img.brk }

// Reserved returns the regions a process's mmap must never hand out: the segments, the
// instrumentation region and the stack (sorted by address).
func (img *Image) Reserved() []Region {
	var rs []Region
	for _, s := range img.Segments {
		rs = append(rs, pageRegion(s.Vaddr, s.Memsz))
	}
	rs = append(rs, img.InstrRegion, img.Stack)
	sort.Slice(rs, func(i, j int) bool { return rs[i].Start < rs[j].Start })
	return rs
}

// Layout constants. The stack sits where qemu-ppc puts it for a static binary (8 MiB ending
// at 0x40801000, a guard page below), so stack addresses a program prints agree with qemu's.
const (
	stackTop       = 0x40801000
	stackSize      = 8 << 20
	instrSize      = 16 << 20
	branchReach    = 32 << 20
	minInstrRegion = 0x10000 // keep page zero and its neighbours unmapped
)

// ELFError is a failure to load an executable: the file offset when one applies, and why.
type ELFError struct {
	Offset int64 // -1 when no single offset is at fault
	Reason string
	Err    error
}

func (e *ELFError) Error() string {
	msg := "ppc: load ELF: " + e.Reason
	if e.Offset >= 0 {
		msg = fmt.Sprintf("ppc: load ELF: at file offset 0x%x: %s", e.Offset, e.Reason)
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *ELFError) Unwrap() error { return e.Err }

// ErrNotStatic is wrapped by the error for a dynamically linked executable.
var ErrNotStatic = errors.New("not static: CNK cannot load shared libraries")

func elfErr(off int64, format string, args ...any) *ELFError {
	return &ELFError{Offset: off, Reason: fmt.Sprintf(format, args...)}
}

// LoadELF reads a static ET_EXEC 32-bit big-endian PowerPC executable and builds its shared
// base Memory. Anything else is refused with an *ELFError saying what is wrong.
func LoadELF(r io.ReaderAt) (*Image, error) {
	if e := textFile(r); e != nil {
		return nil, e
	}
	f, err := elf.NewFile(r)
	if err != nil {
		if e := explainELF(r); e != nil {
			e.Err = err
			return nil, e
		}
		return nil, &ELFError{Offset: -1, Reason: "not a readable ELF file", Err: err}
	}
	if err := checkHeader(f); err != nil {
		return nil, err
	}
	img := &Image{Entry: uint32(f.Entry), base: NewMemory(), phnum: uint32(len(f.Progs))}
	if err := img.loadSegments(f, r); err != nil {
		return nil, err
	}
	if err := img.layout(); err != nil {
		return nil, err
	}
	if !img.Text.Contains(img.Entry) {
		return nil, elfErr(-1, "entry point 0x%08x is not in an executable segment", img.Entry)
	}
	img.Symbols = readSymbols(f)
	if err := img.readCode(f); err != nil {
		return nil, err
	}
	if d, err := f.DWARF(); err == nil {
		img.DWARF = d
	}
	img.base.freeze()
	return img, nil
}

func checkHeader(f *elf.File) error {
	if e := foreignMachine(f); e != nil {
		return e
	}
	switch {
	case f.Class != elf.ELFCLASS32:
		return elfErr(4, "wrong class %v (want ELFCLASS32)", f.Class)
	case f.Data != elf.ELFDATA2MSB:
		return elfErr(5, "wrong byte order %v (want big-endian ELFDATA2MSB)", f.Data)
	case f.Machine != elf.EM_PPC:
		return elfErr(18, "wrong machine %v (want EM_PPC)", f.Machine)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			return &ELFError{Offset: -1, Reason: "has " + p.Type.String(), Err: ErrNotStatic}
		}
	}
	switch f.Type {
	case elf.ET_EXEC:
	case elf.ET_DYN:
		return &ELFError{Offset: 16, Reason: "type ET_DYN (position independent)", Err: ErrNotStatic}
	default:
		return elfErr(16, "wrong type %v (want ET_EXEC)", f.Type)
	}
	return nil
}

func (img *Image) loadSegments(f *elf.File, r io.ReaderAt) error {
	for i, p := range f.Progs {
		if p.Type == elf.PT_PHDR {
			img.phdr = uint32(p.Vaddr)
		}
		if p.Type != elf.PT_LOAD || p.Memsz == 0 {
			continue
		}
		seg, err := checkSegment(i, p)
		if err != nil {
			return err
		}
		for _, o := range img.Segments {
			if (Region{seg.Vaddr, seg.Memsz}).overlaps(Region{o.Vaddr, o.Memsz}) {
				return elfErr(-1, "segment %d [0x%08x,+0x%x) overlaps segment at 0x%08x", i, seg.Vaddr, seg.Memsz, o.Vaddr)
			}
		}
		if err := img.loadSegment(seg, r); err != nil {
			return err
		}
		if len(img.Segments) == 0 && img.phdr == 0 {
			img.phdr = seg.Vaddr - uint32(seg.Offset) + phoff(r)
		}
		img.Segments = append(img.Segments, seg)
	}
	if len(img.Segments) == 0 {
		return elfErr(-1, "no PT_LOAD segment")
	}
	sort.Slice(img.Segments, func(i, j int) bool { return img.Segments[i].Vaddr < img.Segments[j].Vaddr })
	return nil
}

// phoff reads e_phoff (offset 28 of an ELF32 header), which debug/elf does not expose;
// AT_PHDR is the first segment's load address plus e_phoff, as Linux and qemu compute it.
func phoff(r io.ReaderAt) uint32 {
	var b [4]byte
	if _, err := r.ReadAt(b[:], 28); err != nil {
		return 0
	}
	return binary.BigEndian.Uint32(b[:])
}

func checkSegment(i int, p *elf.Prog) (Segment, error) {
	switch {
	case p.Filesz > p.Memsz:
		return Segment{}, elfErr(int64(p.Off), "segment %d: file size 0x%x exceeds memory size 0x%x", i, p.Filesz, p.Memsz)
	case p.Vaddr+p.Memsz > 1<<32:
		return Segment{}, elfErr(int64(p.Off), "segment %d: [0x%x,+0x%x) wraps the 32-bit address space", i, p.Vaddr, p.Memsz)
	case p.Off+p.Filesz < p.Off:
		return Segment{}, elfErr(int64(p.Off), "segment %d: file range overflows", i)
	}
	perm := Perm(0)
	for _, b := range []struct {
		f elf.ProgFlag
		p Perm
	}{{elf.PF_R, PermR}, {elf.PF_W, PermW}, {elf.PF_X, PermX}} {
		if p.Flags&b.f != 0 {
			perm |= b.p
		}
	}
	if perm == 0 {
		perm = PermR
	}
	return Segment{Vaddr: uint32(p.Vaddr), Memsz: uint32(p.Memsz), Offset: p.Off, Filesz: uint32(p.Filesz), Perm: perm}, nil
}

func (img *Image) loadSegment(s Segment, r io.ReaderAt) error {
	// A page shared with a neighbouring segment (only the first and last can be) gets the
	// union of both permissions.
	pr := pageRegion(s.Vaddr, s.Memsz)
	first, last := pr.Start, uint32(pr.End()-PageSize)
	edge := [2]Perm{img.base.Perm(first), img.base.Perm(last)}
	if err := img.base.Map(pr.Start, pr.Size, s.Perm); err != nil {
		return err
	}
	img.base.Map(first, PageSize, s.Perm|edge[0])
	img.base.Map(last, PageSize, s.Perm|edge[1])
	const chunk = 64 << 10
	buf := make([]byte, chunk)
	for done := uint32(0); done < s.Filesz; {
		n := min(s.Filesz-done, chunk)
		off := int64(s.Offset) + int64(done)
		if _, err := r.ReadAt(buf[:n], off); err != nil {
			return &ELFError{Offset: off, Reason: fmt.Sprintf("segment at 0x%08x truncated (file size 0x%x)", s.Vaddr, s.Filesz), Err: err}
		}
		if err := img.base.Poke(s.Vaddr+done, buf[:n]); err != nil {
			return &ELFError{Offset: off, Reason: "segment contents", Err: err}
		}
		done += n
	}
	return nil
}

func pageRegion(addr, size uint32) Region {
	start := addr &^ pageMask
	end := (uint64(addr) + uint64(size) + pageMask) &^ pageMask
	return Region{Start: start, Size: uint32(end - uint64(start))}
}

// layout places the text span, break, stack and instrumentation region. The region goes
// right below the text when there is room (nothing of a static binary lives there), else
// right above the image, with the break moved past it.
func (img *Image) layout() error {
	var lo, hi uint64 = 1 << 32, 0
	var end uint64
	for _, s := range img.Segments {
		r := pageRegion(s.Vaddr, s.Memsz)
		end = max(end, r.End())
		if s.Perm&PermX != 0 {
			lo, hi = min(lo, uint64(r.Start)), max(hi, r.End())
		}
	}
	if hi == 0 {
		return elfErr(-1, "no executable segment")
	}
	img.Text = Region{Start: uint32(lo), Size: uint32(hi - lo)}
	img.Stack = Region{Start: stackTop - stackSize, Size: stackSize}
	if lo >= instrSize+minInstrRegion {
		img.InstrRegion = Region{Start: uint32(lo - instrSize), Size: instrSize}
		img.brk = uint32(end)
	} else {
		img.InstrRegion = Region{Start: uint32(end), Size: instrSize}
		img.brk = uint32(end + instrSize)
	}
	if hi-uint64(img.InstrRegion.Start) > branchReach || img.InstrRegion.End()-lo > branchReach {
		return elfErr(-1, "text [0x%08x,0x%08x) too large for an instrumentation region within ±32 MiB", lo, hi)
	}
	for _, s := range img.Segments {
		r := Region{s.Vaddr, s.Memsz}
		if r.overlaps(img.Stack) || r.overlaps(img.InstrRegion) {
			return elfErr(int64(s.Offset), "segment at 0x%08x collides with the stack [0x%08x,0x%08x) or the instrumentation region", s.Vaddr, img.Stack.Start, img.Stack.End())
		}
	}
	if err := img.base.Map(img.Stack.Start, img.Stack.Size, PermRW); err != nil {
		return err
	}
	return img.base.Map(img.InstrRegion.Start, img.InstrRegion.Size, PermRWX)
}
