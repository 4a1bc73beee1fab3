package ppc

import (
	"encoding/binary"
	"testing"
)

func wordBytes(w uint32) []byte { return binary.BigEndian.AppendUint32(nil, w) }

// TestSharedPatches: processes that Poke the same bytes into the same text page (or into
// the same never-written page) map one patched page and share its predecoded code;
// different bytes, or a later program store, give a private page again.
func TestSharedPatches(t *testing.T) {
	img := loadFile(t, execProg("hello"))
	procs := make([]*CPU, 4)
	for i := range procs {
		procs[i], _ = img.NewProcess(ProcessConfig{Args: []string{"p"}})
	}
	li := wD(14, 3, 0, 77) // li r3,77 over the second instruction
	for _, c := range procs[:3] {
		if err := c.Mem.Poke(img.Entry+4, wordBytes(li)); err != nil {
			t.Fatal(err)
		}
	}
	if err := procs[3].Mem.Poke(img.Entry+4, wordBytes(wD(14, 3, 0, 78))); err != nil {
		t.Fatal(err)
	}
	page := func(c *CPU, addr uint32) *page { p, _ := c.Mem.readPage(addr, PermR); return p }
	p0 := page(procs[0], img.Entry)
	if page(procs[1], img.Entry) != p0 || page(procs[2], img.Entry) != p0 {
		t.Fatal("identical patches did not map one page")
	}
	if p3 := page(procs[3], img.Entry); p3 == p0 {
		t.Fatal("a different patch maps the same page")
	}
	if s := procs[1].Mem.Stats(); s.PrivatePages != 1 || s.PrivateLeaves != 1 { // the stack's
		t.Errorf("patched process has %d private pages and %d private leaves, want 1 and 1", s.PrivatePages, s.PrivateLeaves)
	}
	for i, c := range procs {
		c.Step()
		c.Step()
		if want := uint32(77 + i/3); c.GPR[3] != want {
			t.Errorf("process %d: r3 = %d, want %d", i, c.GPR[3], want)
		}
	}
	if p0.code.Load() == nil {
		t.Error("the shared patched page has no shared predecode")
	}
	// A program store into the shared patched page copies it for that process alone.
	if err := procs[0].Mem.Protect(img.Entry&^pageMask, PageSize, PermRWX); err != nil {
		t.Fatal(err)
	}
	if err := procs[0].Mem.Write32(img.Entry+8, wD(14, 4, 0, 5)); err != nil {
		t.Fatal(err)
	}
	if page(procs[0], img.Entry) == p0 || page(procs[1], img.Entry) != p0 {
		t.Error("a store into a shared patched page was not copy-on-write")
	}
	if v, _ := procs[1].Mem.Read32(img.Entry + 8); v == wD(14, 4, 0, 5) {
		t.Error("one process's store is visible in another")
	}
	// Pages never written (the instrumentation region) share identical trampolines too.
	base := img.InstrRegion.Start + 5*PageSize
	for _, c := range procs[1:3] {
		if err := c.Mem.Poke(base+16, []byte{1, 2, 3, 4, 5}); err != nil {
			t.Fatal(err)
		}
	}
	if p := page(procs[1], base); p == nil || p != page(procs[2], base) {
		t.Error("identical trampolines in a fresh page are not shared")
	}
	if b, _ := procs[2].Mem.Read8(base + 18); b != 3 {
		t.Errorf("trampoline byte reads %d", b)
	}
}

// TestSharedPatchNoCopyPerProcess: once one process has made a patched page, the same
// patch into another process maps that page without copying the bytes written: a probe's
// trampoline installed on 65,536 ranks is written to every one of them.
func TestSharedPatchNoCopyPerProcess(t *testing.T) {
	img := loadFile(t, execProg("hello"))
	const runs = 8
	procs := make([]*CPU, runs+1)
	for i := range procs {
		procs[i], _ = img.NewProcess(ProcessConfig{Args: []string{"p"}})
	}
	patch := make([]byte, 2048)
	for i := 0; i < len(patch); i += 4 {
		copy(patch[i:], wordBytes(wD(14, 3, 0, int32(i))))
	}
	addr := img.Entry &^ pageMask
	next := 0
	allocs := testing.AllocsPerRun(runs, func() {
		if err := procs[next].Mem.Poke(addr, patch); err != nil {
			t.Fatal(err)
		}
		next++
	})
	if allocs != 0 {
		t.Errorf("a patch already made allocates %v times per process, want 0", allocs)
	}
	p0, _ := procs[0].Mem.readPage(addr, PermR)
	for i, c := range procs {
		if p, _ := c.Mem.readPage(addr, PermR); p != p0 {
			t.Fatalf("process %d does not map the shared patched page", i)
		}
	}
}
