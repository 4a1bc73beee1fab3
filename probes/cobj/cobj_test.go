package cobj

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"strings"
	"testing"
)

const (
	testBase   = 0x0f100000
	testMemcpy = 0x100225e0
)

func open(t *testing.T, name string) *Object {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	o, err := Open(bytes.NewReader(b), name)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// program is a resolver standing for a static executable's symbols.
func program(extra map[string]uint32) Resolver {
	syms := map[string]uint32{"memcpy": testMemcpy}
	for k, v := range extra {
		syms[k] = v
	}
	return func(name string) (uint32, bool) {
		v, ok := syms[name]
		return v, ok
	}
}

func word(img *Image, addr uint32) uint32 {
	return binary.BigEndian.Uint32(img.Bytes[addr-img.Base:])
}

// branchTargets lists where the image's b/bl instructions in [from, from+n) go.
func branchTargets(img *Image, from, n uint32) []uint32 {
	var out []uint32
	for a := from; a < from+n; a += 4 {
		w := word(img, a)
		if w>>26 == 18 && w&2 == 0 {
			out = append(out, a+uint32(int32(w<<6)>>6)&^3)
		}
	}
	return out
}

func TestLinkCounters(t *testing.T) {
	for _, name := range []string{"counters-O0.o", "counters-O2.o", "counters-O0-nopic.o", "counters-O2-nopic.o"} {
		t.Run(name, func(t *testing.T) {
			o := open(t, name)
			img, err := o.Link(testBase, program(nil))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []string{"record", "classify", "weigh", "calls", "total", "kinds", "last", "copied", "tags"} {
				sym, ok := img.Symbols[s]
				if !ok || sym.Addr < testBase || sym.Addr >= testBase+o.Size() {
					t.Errorf("symbol %s = %+v, %v: not inside the module", s, sym, ok)
				}
			}
			if !img.Symbols["weigh"].Local || !img.Symbols["weigh"].Func || img.Symbols["record"].Local {
				t.Errorf("weigh should be a local function, record global: %+v %+v", img.Symbols["weigh"], img.Symbols["record"])
			}
			if got := word(img, img.Symbols["total"].Addr); got != 7 {
				t.Errorf("total's initial value = %d, want 7", got)
			}
			rec := img.Symbols["record"]
			targets := branchTargets(img, rec.Addr, rec.Size)
			want := map[uint32]bool{testMemcpy: false, img.Symbols["weigh"].Addr: false, img.Symbols["classify"].Addr: false}
			for _, tg := range targets {
				if _, ok := want[tg]; ok {
					want[tg] = true
				}
			}
			for tg, seen := range want {
				if !seen {
					t.Errorf("record has no bl to 0x%x (its branches go to %x)", tg, targets)
				}
			}
		})
	}
}

func TestLayoutOrderAndFit(t *testing.T) {
	o := open(t, "counters-O2.o")
	secs := o.Sections()
	if secs[0].Name != ".text" || !secs[len(secs)-1].NoBits {
		t.Errorf("layout should start with .text and end with zero-filled data: %+v", secs)
	}
	for _, s := range secs {
		if s.Off%s.Align != 0 {
			t.Errorf("%s at 0x%x is not aligned to %d", s.Name, s.Off, s.Align)
		}
	}
	if err := o.Fit(o.Size()); err != nil {
		t.Errorf("Fit(Size) = %v", err)
	}
	last := secs[len(secs)-1]
	err := o.Fit(last.Off)
	var ce *Error
	if !errors.As(err, &ce) || ce.Section != last.Name {
		t.Errorf("Fit(%d) = %v, want an error naming %s", last.Off, err, last.Name)
	}
}

func TestRefused(t *testing.T) {
	tests := []struct {
		obj, section, reloc, symbol, why string
		resolve                          Resolver
		avail                            uint32 // 0: do not check Fit
	}{
		{obj: "counters-fpic.o", section: ".text", reloc: "R_PPC_GOT16", why: "unsupported relocation type (a module has no GOT"},
		{obj: "counters-sdata.o", section: ".text", reloc: "R_PPC_SDAREL16", why: "defines no _SDA_BASE_"},
		{obj: "counters-sdata.o", section: ".text", reloc: "R_PPC_SDAREL16", why: "does not fit in a signed 16-bit field",
			resolve: program(map[string]uint32{"_SDA_BASE_": 0x100b9170})},
		{obj: "undefined.o", section: ".text", reloc: "R_PPC_PLTREL24", symbol: "no_such_function_anywhere", why: "undefined symbol"},
		{obj: "toobig.o", section: ".bss", why: "do not fit in the 16777216 bytes free", avail: 16 << 20},
	}
	for _, tc := range tests {
		o := open(t, tc.obj)
		var err error
		if tc.avail != 0 {
			err = o.Fit(tc.avail)
		} else {
			r := tc.resolve
			if r == nil {
				r = program(nil)
			}
			_, err = o.Link(testBase, r)
		}
		var ce *Error
		if !errors.As(err, &ce) {
			t.Errorf("%s: got %v, want a *cobj.Error", tc.obj, err)
			continue
		}
		if ce.Section != tc.section || ce.Reloc != tc.reloc || (tc.symbol != "" && ce.Symbol != tc.symbol) ||
			!strings.Contains(ce.Why, tc.why) || ce.File != tc.obj {
			t.Errorf("%s: got %q (%+v), want section %s reloc %s symbol %s why ~%q", tc.obj, err, ce, tc.section, tc.reloc, tc.symbol, tc.why)
		}
		if tc.reloc != "" && !strings.Contains(err.Error(), "+0x") {
			t.Errorf("%s: %q does not name the offset", tc.obj, err)
		}
	}
}

// TestSmallDataWithinReach links small data against a _SDA_BASE_ close enough: the
// offsets are computed, not refused.
func TestSmallDataWithinReach(t *testing.T) {
	o := open(t, "counters-sdata.o")
	sdaBase := uint32(testBase + 0x2000)
	img, err := o.Link(testBase, program(map[string]uint32{"_SDA_BASE_": sdaBase}))
	if err != nil {
		t.Fatal(err)
	}
	// Some load or store of calls goes through r13 with its offset from _SDA_BASE_.
	calls := img.Symbols["calls"].Addr
	found := false
	for a := img.Symbols["record"].Addr; a < img.Symbols["record"].Addr+img.Symbols["record"].Size; a += 4 {
		w := word(img, a)
		if w>>16&31 == 13 && int16(w) == int16(calls-sdaBase) {
			found = true
		}
	}
	if !found {
		t.Errorf("no r13-relative access to calls (offset %d) in record", int32(calls-sdaBase))
	}
}

func TestAssemblerForms(t *testing.T) {
	o := open(t, "relocs.o")
	const sda = testBase + 0x100
	img, err := o.Link(testBase, program(map[string]uint32{"_SDA_BASE_": sda}))
	if err != nil {
		t.Fatal(err)
	}
	br := img.Symbols["branches"].Addr
	small := img.Symbols["small"].Addr
	if w := word(img, br); w>>16&31 != 13 || uint32(int16(w)) != small-sda {
		t.Errorf("EMB_SDA21: lwz word 0x%08x, want RA 13 and offset %d", w, small-sda)
	}
	table := img.Symbols["table"].Addr
	if w := word(img, br+4); w&0xffff != table>>16 {
		t.Errorf("ADDR16_HI: 0x%08x, want high half 0x%x", w, table>>16)
	}
	if w := word(img, br+8); w&0xffff != table&0xffff {
		t.Errorf("ADDR16_LO: 0x%08x, want 0x%x", w, table&0xffff)
	}
	if w := word(img, br+16); w&0xfffc != img.Symbols["target"].Addr-(br+16) || w>>26 != 16 {
		t.Errorf("REL14: 0x%08x, want a bc of +%d", w, img.Symbols["target"].Addr-(br+16))
	}
	if _, err := o.Link(testBase+2, program(nil)); err == nil || !strings.Contains(err.Error(), "not aligned") {
		t.Errorf("misaligned base: %v", err)
	}
}

func TestNotAnObject(t *testing.T) {
	exe, err := os.ReadFile("../../examples/apps/bin/hello_mpi.elf")
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"hello_mpi.elf": exe, "empty.o": nil, "junk.o": []byte("\x7fELF junk")} {
		_, err := Open(bytes.NewReader(b), name)
		var ce *Error
		if !errors.As(err, &ce) || ce.File != name {
			t.Errorf("%s: got %v, want a *cobj.Error naming the file", name, err)
		}
	}
}

func FuzzOpenLink(f *testing.F) {
	for _, n := range []string{"counters-O0.o", "counters-O2.o", "relocs.o", "undefined.o"} {
		b, err := os.ReadFile("testdata/" + n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		o, err := Open(bytes.NewReader(b), "fuzz.o")
		if err != nil || o.Size() > 1<<24 {
			return
		}
		_, _ = o.Link(testBase, program(map[string]uint32{"_SDA_BASE_": testBase}))
	})
}

// TestTruncatedObject: an object cut short (in its header, its sections or its section
// header table) is refused as truncated, naming the file, not as something other than ELF.
func TestTruncatedObject(t *testing.T) {
	b, err := os.ReadFile("testdata/counters-O2.o")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 20, 52, len(b) / 2, len(b) - 1} {
		_, err := Open(bytes.NewReader(b[:n]), "cut.o")
		if err == nil || !strings.Contains(err.Error(), "cut.o: truncated: the file ends before its ELF header or section header table") {
			t.Errorf("cut at %d bytes: %v", n, err)
		}
	}
}
