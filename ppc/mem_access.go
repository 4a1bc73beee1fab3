package ppc

import (
	"encoding/binary"
	"unsafe"
)

var (
	rootSize = int(unsafe.Sizeof(Memory{}))
	midSize  = int(unsafe.Sizeof(mid{}))
	leafSize = int(unsafe.Sizeof(leaf{}))
	pageSize = int(unsafe.Sizeof(page{})) + PageSize
)

// zeroPage backs reads of mapped pages that were never written.
var zeroPage [PageSize]byte

// Read copies len(p) bytes at addr into p; every byte needs PermR.
func (m *Memory) Read(addr uint32, p []byte) error { return m.read(addr, p, PermR) }

// Fetch reads like Read but needs PermX: what an instruction fetch sees.
func (m *Memory) Fetch(addr uint32, p []byte) error { return m.read(addr, p, PermX) }

func (m *Memory) read(addr uint32, p []byte, need Perm) error {
	for len(p) > 0 {
		pg, err := m.readPage(addr, need)
		if err != nil {
			return err
		}
		off := addr & pageMask
		src := zeroPage[off:]
		if pg != nil {
			src = pg.data[off:]
		}
		n := copy(p, src)
		p = p[n:]
		addr += uint32(n)
		if addr == 0 && len(p) > 0 {
			return &MemError{Addr: addr, Reason: "access wraps the address space"}
		}
	}
	return nil
}

// Write copies p to addr; every byte needs PermW. Shared pages are copied first, and
// predecoded code on the written pages is dropped.
func (m *Memory) Write(addr uint32, p []byte) error { return m.write(addr, p, false) }

// Poke writes like Write but ignores PermW (a debugger patching text); copy-on-write still
// applies, so only this Memory sees the change. Memories that Poke the same bytes into the
// same shared (or never written) page share the patched page (mem_share.go).
func (m *Memory) Poke(addr uint32, p []byte) error { return m.write(addr, p, true) }

func (m *Memory) write(addr uint32, p []byte, force bool) error {
	if err := m.writable(addr, uint32(len(p)), force); err != nil {
		return err
	}
	for len(p) > 0 {
		if n := min(len(p), int(PageSize-addr&pageMask)); force && m.derive && m.pokeShared(addr, p[:n]) {
			p = p[n:]
			addr += uint32(n)
			continue
		}
		pg, err := m.writePage(addr, force)
		if err != nil {
			return err
		}
		n := copy(pg.data[addr&pageMask:], p)
		p = p[n:]
		addr += uint32(n)
	}
	return nil
}

// writable checks a whole range first so a failing write changes nothing.
func (m *Memory) writable(addr, size uint32, force bool) error {
	return pageRange(addr, size, func(pa uint32) error {
		f := m.Perm(pa)
		if f == 0 {
			return &MemError{Addr: max(pa, addr), Write: true, Reason: reasonUnmapped}
		}
		if !force && f&PermW == 0 {
			return &MemError{Addr: max(pa, addr), Write: true, Reason: reasonPerm}
		}
		return nil
	})
}

// Read8 reads one byte.
func (m *Memory) Read8(addr uint32) (uint8, error) {
	var b [1]byte
	err := m.Read(addr, b[:])
	return b[0], err
}

// Read16 reads a big-endian halfword.
func (m *Memory) Read16(addr uint32) (uint16, error) {
	var b [2]byte
	err := m.Read(addr, b[:])
	return binary.BigEndian.Uint16(b[:]), err
}

// Read32 reads a big-endian word.
func (m *Memory) Read32(addr uint32) (uint32, error) {
	if v, ok := m.load32(addr); ok {
		return v, nil
	}
	var b [4]byte
	err := m.Read(addr, b[:])
	return binary.BigEndian.Uint32(b[:]), err
}

// Read64 reads a big-endian doubleword.
func (m *Memory) Read64(addr uint32) (uint64, error) {
	var b [8]byte
	err := m.Read(addr, b[:])
	return binary.BigEndian.Uint64(b[:]), err
}

// Write8 writes one byte.
func (m *Memory) Write8(addr uint32, v uint8) error { return m.Write(addr, []byte{v}) }

// Write16 writes a big-endian halfword.
func (m *Memory) Write16(addr uint32, v uint16) error {
	return m.Write(addr, binary.BigEndian.AppendUint16(nil, v))
}

// Write32 writes a big-endian word.
func (m *Memory) Write32(addr uint32, v uint32) error {
	return m.Write(addr, binary.BigEndian.AppendUint32(nil, v))
}

// Write64 writes a big-endian doubleword.
func (m *Memory) Write64(addr uint32, v uint64) error {
	return m.Write(addr, binary.BigEndian.AppendUint64(nil, v))
}

// The fast paths below serve the interpreter: an access that stays inside one readable (or
// private writable) page. ok=false sends the caller to the general path, which also
// produces the error.

func (m *Memory) loadPage(addr uint32, size uint32) []byte {
	l, _ := m.leafAt(addr)
	if l == nil || addr&pageMask > PageSize-size {
		return nil
	}
	j := addr >> pageShift & (leafLen - 1)
	if l.flags[j]&PermR == 0 {
		return nil
	}
	if p := l.pages[j]; p != nil {
		return p.data[:]
	}
	return zeroPage[:]
}

func (m *Memory) load32(addr uint32) (uint32, bool) {
	d := m.loadPage(addr, 4)
	if d == nil {
		return 0, false
	}
	o := addr & pageMask
	return binary.BigEndian.Uint32(d[o : o+4]), true
}
