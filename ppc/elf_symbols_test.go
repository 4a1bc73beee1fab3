package ppc

import "testing"

// TestNamedSymbols checks how a name shared by several symbols resolves: a global or weak
// one over locals, the first of several locals, functions of zero size left out, and
// functions and data objects in separate namespaces.
func TestNamedSymbols(t *testing.T) {
	syms := []Symbol{
		{Name: "f", Addr: 0x100, Size: 4, Kind: SymFunc, Bind: BindLocal, Index: 1},
		{Name: "f", Addr: 0x200, Size: 4, Kind: SymFunc, Bind: BindGlobal, Index: 2},
		{Name: "g", Addr: 0x400, Size: 4, Kind: SymFunc, Bind: BindLocal, Index: 4},
		{Name: "g", Addr: 0x300, Size: 4, Kind: SymFunc, Bind: BindLocal, Index: 3},
		{Name: "z", Addr: 0x600, Kind: SymFunc, Bind: BindGlobal, Index: 5},
		{Name: "f", Addr: 0x500, Size: 8, Kind: SymObject, Bind: BindLocal, Index: 6},
	}
	img := &Image{Symbols: syms}
	for _, tt := range []struct {
		name string
		want uint32
		ok   bool
	}{{"f", 0x200, true}, {"g", 0x300, true}, {"z", 0, false}} {
		if s, ok := img.FuncNamed(tt.name); ok != tt.ok || s.Addr != tt.want {
			t.Errorf("FuncNamed(%q) = %#x, %v; want %#x, %v", tt.name, s.Addr, ok, tt.want, tt.ok)
		}
	}
	if s, ok := img.ObjectNamed("f"); !ok || s.Addr != 0x500 || s.Size != 8 {
		t.Errorf("ObjectNamed(f) = %+v, %v", s, ok)
	}
	if got := img.FuncNames(); len(got) != 2 || got[0] != "f" || got[1] != "g" {
		t.Errorf("FuncNames = %q", got)
	}
	if fs := img.Funcs(); len(fs) != 4 || fs[0].Addr != 0x100 || fs[3].Addr != 0x400 {
		t.Errorf("Funcs = %+v", fs)
	}
}
