package ppc

import (
	"bytes"
	"encoding/binary"
	"io"
	"io/fs"
)

// debug/elf reports most damage to an ELF file's header tables as a bare "EOF" or
// "unexpected EOF". When it refuses a file, explainELF reads the 32-bit big-endian header
// itself and names the field at fault and its file offset, so a user can find it with a
// hex dump. It checks only what a file must satisfy for debug/elf to parse it.

// ELF32 header fields: name, offset, size.
type elfField struct {
	name      string
	off, size int64
}

var (
	fPhoff     = elfField{"e_phoff", 0x1c, 4}
	fShoff     = elfField{"e_shoff", 0x20, 4}
	fPhentsize = elfField{"e_phentsize", 0x2a, 2}
	fPhnum     = elfField{"e_phnum", 0x2c, 2}
	fShentsize = elfField{"e_shentsize", 0x2e, 2}
	fShnum     = elfField{"e_shnum", 0x30, 2}
	fShstrndx  = elfField{"e_shstrndx", 0x32, 2}
	elfFields  = []elfField{{"e_ident", 0, 16}, {"e_type", 0x10, 2}, {"e_machine", 0x12, 2},
		{"e_version", 0x14, 4}, {"e_entry", 0x18, 4}, fPhoff, fShoff, {"e_flags", 0x24, 4},
		{"e_ehsize", 0x28, 2}, fPhentsize, fPhnum, fShentsize, fShnum, fShstrndx}
)

const (
	ehdr32Size = 52
	phdr32Size = 32
	shdr32Size = 40
	shtNobits  = 8
)

// explainELF returns an *ELFError naming the damaged field, or nil when it finds nothing
// (debug/elf's own error then stands).
func explainELF(r io.ReaderAt) *ELFError {
	size := readerSize(r)
	hdr := make([]byte, ehdr32Size)
	n, _ := r.ReadAt(hdr, 0)
	switch {
	case n < 4 || !bytes.Equal(hdr[:4], []byte("\x7fELF")):
		return elfErr(0, "not a readable ELF file: no ELF magic number (want 7f 45 4c 46)")
	case n > 4 && hdr[4] != 1:
		return nil // not ELFCLASS32: checkHeader's message, when debug/elf gets that far
	case n > 5 && hdr[5] != 2:
		return nil
	}
	for _, fl := range elfFields {
		if int64(n) < fl.off+fl.size {
			return elfErr(fl.off, "file ends inside the ELF header: %s needs %d bytes at offset 0x%x, the file has %d bytes",
				fl.name, fl.size, fl.off, n)
		}
	}
	be := binary.BigEndian
	u16 := func(fl elfField) int64 { return int64(be.Uint16(hdr[fl.off:])) }
	u32 := func(fl elfField) int64 { return int64(be.Uint32(hdr[fl.off:])) }
	if e := elfTable(size, fPhoff, u32(fPhoff), fPhnum, u16(fPhnum), fPhentsize, u16(fPhentsize), phdr32Size); e != nil {
		return e
	}
	shnum := u16(fShnum)
	if e := elfTable(size, fShoff, u32(fShoff), fShnum, shnum, fShentsize, u16(fShentsize), shdr32Size); e != nil {
		return e
	}
	if shnum > 0 && u16(fShstrndx) >= shnum {
		return elfErr(fShstrndx.off, "e_shstrndx (at offset 0x%x) is %d, but there are only %d sections",
			fShstrndx.off, u16(fShstrndx), shnum)
	}
	return sections(r, size, u32(fShoff), shnum, u16(fShentsize))
}

// elfTable checks that a header table (program or section headers) lies inside the file.
func elfTable(size int64, off elfField, offv int64, num elfField, numv int64, ent elfField, entv, want int64) *ELFError {
	if numv == 0 {
		return nil
	}
	if entv < want {
		return elfErr(ent.off, "%s (at offset 0x%x) is %d, want %d", ent.name, ent.off, entv, want)
	}
	if end := offv + numv*entv; end > size {
		return elfErr(off.off, "%s (at offset 0x%x) = 0x%x with %s (at offset 0x%x) = %d entries of %d bytes ends at 0x%x, past the end of the file (0x%x bytes)",
			off.name, off.off, offv, num.name, num.off, numv, entv, end, size)
	}
	return nil
}

// sections checks that every section with contents lies inside the file.
func sections(r io.ReaderAt, size, shoff, shnum, shentsize int64) *ELFError {
	sh := make([]byte, shdr32Size)
	for i := range shnum {
		at := shoff + i*shentsize
		if _, err := r.ReadAt(sh, at); err != nil {
			return elfErr(at, "section header %d at offset 0x%x cannot be read", i, at)
		}
		typ := binary.BigEndian.Uint32(sh[4:])
		off, n := int64(binary.BigEndian.Uint32(sh[16:])), int64(binary.BigEndian.Uint32(sh[20:]))
		if typ != shtNobits && typ != 0 && off+n > size {
			return elfErr(at+16, "section %d: sh_offset (at offset 0x%x) = 0x%x with sh_size 0x%x ends past the end of the file (0x%x bytes)",
				i, at+16, off, n, size)
		}
	}
	return nil
}

// readerSize finds the size of r by its Size method or by probing.
func readerSize(r io.ReaderAt) int64 {
	if s, ok := r.(interface{ Size() int64 }); ok {
		return s.Size()
	}
	if s, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := s.Stat(); err == nil {
			return fi.Size()
		}
	}
	lo, hi := int64(0), int64(1)<<40
	var b [1]byte
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if n, _ := r.ReadAt(b[:], mid-1); n == 1 {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
