package ppc

import (
	"bytes"
	"testing"
)

// TestPokeBatch: a batch (a trampoline in the instrumentation region, the branch to it
// in the text, a word of data) applied to processes gives each the bytes Poke by Poke
// would; processes starting from the same shared table end with the same table, taken
// from the batch's memory of the first; a process that patched that text differently
// before, or whose batch writes a data page, gets the writes one by one and its own
// bytes.
func TestPokeBatch(t *testing.T) {
	img := loadFile(t, execProg("hello"))
	procs := make([]*CPU, 6)
	for i := range procs {
		procs[i], _ = img.NewProcess(ProcessConfig{Args: []string{"p"}})
	}
	tramp := img.InstrRegion.Start + 3*PageSize + 8
	branch := wD(14, 3, 0, 77)
	text := func() *PokeBatch {
		b := NewPokeBatch()
		b.Add(tramp, []byte{9, 8, 7, 6, 5, 4, 3, 2})
		b.Add(img.Entry+4, wordBytes(branch))
		return b
	}
	batch := text()
	// procs[3] patched the same word before; procs[4] and procs[5] are the references,
	// Poke by Poke, for the others and for procs[3].
	for _, c := range []*CPU{procs[3], procs[5]} {
		if err := c.Mem.Poke(img.Entry+4, wordBytes(wD(14, 3, 0, 1))); err != nil {
			t.Fatal(err)
		}
		if err := c.Mem.Poke(img.Entry+8, wordBytes(wD(14, 4, 0, 2))); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range procs[:4] {
		if err := c.Mem.PokeBatch(batch); err != nil {
			t.Fatal(err)
		}
	}
	for _, w := range batch.writes {
		for _, c := range procs[4:] {
			if err := c.Mem.Poke(w.addr, w.data); err != nil {
				t.Fatal(err)
			}
		}
	}
	read := func(c *CPU, addr, n uint32) []byte {
		b := make([]byte, n)
		if err := c.Mem.Read(addr, b); err != nil {
			t.Fatal(err)
		}
		return b
	}
	for i, c := range procs[:4] {
		ref := procs[4]
		if i == 3 {
			ref = procs[5]
		}
		for _, a := range []uint32{tramp &^ pageMask, img.Entry &^ pageMask} {
			want := read(ref, a, PageSize)
			if got := read(c, a, PageSize); !bytes.Equal(got, want) {
				t.Errorf("process %d: page 0x%x differs from Poke by Poke", i, a)
			}
		}
	}
	if len(batch.memo) != 2 {
		t.Errorf("batch remembers %d outcomes, want 2 (the image's table and procs[3]'s)", len(batch.memo))
	}
	for _, i := range batch.roots {
		if procs[1].Mem.root[i] != procs[0].Mem.root[i] || procs[2].Mem.root[i] != procs[0].Mem.root[i] {
			t.Errorf("root slot %d: processes patched alike hold different mids", i)
		}
		if procs[3].Mem.root[i] == procs[0].Mem.root[i] && i == img.Entry>>midShift {
			t.Errorf("root slot %d: the process patched differently took the others' mid", i)
		}
	}
	// Still copy-on-write: a store by one process is its own.
	if err := procs[0].Mem.Protect(img.Entry&^pageMask, PageSize, PermRWX); err != nil {
		t.Fatal(err)
	}
	if err := procs[0].Mem.Write32(img.Entry+12, 0xdeadbeef); err != nil {
		t.Fatal(err)
	}
	if v, _ := procs[1].Mem.Read32(img.Entry + 12); v == 0xdeadbeef {
		t.Error("one process's store after a batch is visible in another")
	}
	// A batch writing a data page makes that region private: written one by one, never
	// remembered, and the bytes are each process's own.
	data := img.Brk() - 64
	db := NewPokeBatch()
	db.Add(img.Entry+4, wordBytes(branch))
	db.Add(data, []byte{1, 2, 3, 4})
	for _, c := range procs[1:3] {
		if err := c.Mem.PokeBatch(db); err != nil {
			t.Fatal(err)
		}
	}
	if len(db.memo) != 0 {
		t.Errorf("a batch writing a data page remembered %d outcomes", len(db.memo))
	}
	if !bytes.Equal(read(procs[2], data, 4), []byte{1, 2, 3, 4}) {
		t.Error("the batch's data write is missing")
	}
	if err := procs[1].Mem.Write32(data, 5); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(read(procs[2], data, 4), []byte{1, 2, 3, 4}) {
		t.Error("one process's data store after a batch is visible in another")
	}
	// A failing write returns Poke's error and leaves nothing remembered.
	bad := NewPokeBatch()
	bad.Add(0x10, []byte{1})
	if err := procs[0].Mem.PokeBatch(bad); err == nil {
		t.Error("a batch writing unmapped memory succeeded")
	}
}
