package ppc

import (
	"bytes"
	"errors"
	"maps"
	"math/rand/v2"
	"testing"
)

func TestMemoryPermissions(t *testing.T) {
	m := NewMemory()
	if err := m.Map(0x10000, 2*PageSize, PermRX); err != nil {
		t.Fatal(err)
	}
	if err := m.Map(0x20000, PageSize, PermRW); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		op    func() error
		fails string
	}{
		{"read rx", func() error { _, err := m.Read32(0x10004); return err }, ""},
		{"write rx", func() error { return m.Write32(0x10004, 1) }, "permission denied"},
		{"poke rx", func() error { return m.Poke(0x10004, []byte{1, 2}) }, ""},
		{"write rw", func() error { return m.Write32(0x20ffe, 7) }, "unmapped"}, // crosses into an unmapped page
		{"read unmapped", func() error { _, err := m.Read8(0x30000); return err }, "unmapped"},
		{"write across", func() error { return m.Write(0x10ffe, []byte{1, 2, 3, 4}) }, "permission denied"},
		{"fetch rw", func() error { return m.Fetch(0x20000, make([]byte, 4)) }, "permission denied"},
		{"wrap", func() error { return m.Map(0xfffff000, 0x2000, PermR) }, "wraps"},
	}
	for _, tt := range tests {
		err := tt.op()
		switch {
		case tt.fails == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.fails != "" && (err == nil || !bytes.Contains([]byte(err.Error()), []byte(tt.fails))):
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.fails)
		}
	}
	var me *MemError
	if err := m.Write32(0x10000, 1); !errors.As(err, &me) || me.Addr != 0x10000 || !me.Write {
		t.Errorf("MemError %+v", me)
	}
	if v, _ := m.Read16(0x10004); v != 0x0102 {
		t.Errorf("poke not visible: %04x", v)
	}
	if v, _ := m.Read32(0x20ffc); v != 0 {
		t.Errorf("failed write changed memory: %08x", v)
	}
	if err := m.Protect(0x10000, PageSize, PermRW); err != nil || m.Perm(0x10000) != PermRW || m.Perm(0x11000) != PermRX {
		t.Errorf("protect: %v %v %v", err, m.Perm(0x10000), m.Perm(0x11000))
	}
	if err := m.Unmap(0x10000, PageSize); err != nil || m.Mapped(0x10000, 1) {
		t.Errorf("unmap: %v", err)
	}
}

func TestMemoryCopyOnWrite(t *testing.T) {
	base := NewMemory()
	base.Map(0x10000000, 16*PageSize, PermRW)
	for i := uint32(0); i < 16; i++ {
		base.Write32(0x10000000+i*PageSize, i)
	}
	a, b := base.Clone(), base.Clone()
	if s := a.Stats(); s.PrivatePages != 0 || s.SharedPages != 16 || s.PrivateBytes != rootSize {
		t.Errorf("fresh clone stats %+v", s)
	}
	a.Write32(0x10003000, 100)
	b.Write32(0x10003000, 200)
	for _, c := range []struct {
		m    *Memory
		want uint32
	}{{base, 3}, {a, 100}, {b, 200}} {
		if v, _ := c.m.Read32(0x10003000); v != c.want {
			t.Errorf("read %d, want %d", v, c.want)
		}
	}
	if v, _ := a.Read32(0x10004000); v != 4 {
		t.Errorf("shared page reads %d", v)
	}
	s := a.Stats()
	if s.PrivatePages != 1 || s.SharedPages != 15 || s.PrivateLeaves != 1 {
		t.Errorf("after one write: %+v", s)
	}
	// A clone of a clone shares with both.
	c := a.Clone()
	a.Write32(0x10003000, 101)
	if v, _ := c.Read32(0x10003000); v != 100 {
		t.Errorf("grandchild sees parent's later write: %d", v)
	}
}

// twin is the naive model of Memory: a byte map and a permission per page.
type twin struct {
	bytes map[uint32]byte
	perm  map[uint32]Perm
}

func newTwin() twin { return twin{map[uint32]byte{}, map[uint32]Perm{}} }

func (w twin) clone() twin {
	n := newTwin()
	maps.Copy(n.bytes, w.bytes)
	maps.Copy(n.perm, w.perm)
	return n
}

// allow reports whether every byte of [addr, addr+n) has perm.
func (w twin) allow(addr, n uint32, perm Perm) bool {
	for j := uint32(0); j < n; j++ {
		if w.perm[(addr+j)&^pageMask]&perm == 0 {
			return false
		}
	}
	return true
}

func (w twin) unmap(addr uint32) {
	delete(w.perm, addr&^pageMask)
	for o := uint32(0); o < PageSize; o++ {
		delete(w.bytes, addr&^pageMask+o)
	}
}

// TestMemoryTwin drives Memory and the naive twin with the same random operations.
func TestMemoryTwin(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	mems, twins := []*Memory{NewMemory()}, []twin{newTwin()}
	for i := 0; i < 20000; i++ {
		k := r.IntN(len(mems))
		m, w := mems[k], twins[k]
		addr, n := uint32(r.IntN(1<<24)), uint32(r.IntN(20)+1)
		switch op := r.IntN(10); {
		case op == 0 && len(mems) < 8:
			mems, twins = append(mems, m.Clone()), append(twins, w.clone())
		case op == 1:
			perm, size := Perm(r.IntN(7)+1), uint32(r.IntN(3*PageSize)+1)
			m.Map(addr, size, perm)
			for pa := addr &^ pageMask; uint64(pa) < uint64(addr)+uint64(size); pa += PageSize {
				w.perm[pa] = perm
			}
		case op == 2:
			m.Unmap(addr, 1)
			w.unmap(addr)
		case op < 6:
			p := make([]byte, n)
			for j := range p {
				p[j] = byte(r.Uint32())
			}
			err := m.Write(addr, p)
			if ok := w.allow(addr, n, PermW); ok != (err == nil) {
				t.Fatalf("step %d: write 0x%x+%d: %v, twin ok=%v", i, addr, n, err, ok)
			}
			for j := uint32(0); err == nil && j < n; j++ {
				w.bytes[addr+j] = p[j]
			}
		default:
			p := make([]byte, n)
			err := m.Read(addr, p)
			if ok := w.allow(addr, n, PermR); ok != (err == nil) {
				t.Fatalf("step %d: read 0x%x+%d: %v, twin ok=%v", i, addr, n, err, ok)
			}
			for j := uint32(0); err == nil && j < n; j++ {
				if p[j] != w.bytes[addr+j] {
					t.Fatalf("step %d: byte 0x%x = %d, twin %d", i, addr+j, p[j], w.bytes[addr+j])
				}
			}
		}
	}
}
