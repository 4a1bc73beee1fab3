package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dpclsh/dpclsh/probes"
	"github.com/dpclsh/dpclsh/probes/cobj"
)

// Module is a C probe module (DPCL's ProbeModule): a relocatable object linked into the
// instrumentation region at one address, the same on every rank, each rank with its own
// copy of the module's data.
type Module struct {
	Name string // the file's base name without ".o": how scripts and listings name it
	Path string // absolute path of the object
	Base uint32
	Size uint32
	obj  *cobj.Object
	img  *cobj.Image
	app  *App
}

// LoadModule loads the object at path into every live rank: laid out, linked against
// the program's symbols and checked completely before anything is written, so a refused
// object (an unsupported relocation, an undefined symbol, a section that does not fit)
// leaves every rank as it was. A module already loaded (the same file, or another file
// of the same name) is refused.
func (a *App) LoadModule(path string) (*Module, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, errorf("load module %s: %w", path, err)
	}
	name := strings.TrimSuffix(filepath.Base(path), ".o")
	for _, m := range a.modules {
		if m.Path == abs || m.Name == name {
			return nil, errorf("load module %s: module %s is already loaded at 0x%08x", path, m.Name, m.Base)
		}
	}
	obj, err := openModule(path)
	if err != nil {
		return nil, errorf("load module: %w", err)
	}
	live := a.liveRanks(nil)
	if len(live) == 0 {
		return nil, errorf("load module %s: %w", path, ErrNoLiveRank)
	}
	base, held, err := a.allocModule(obj)
	if err != nil {
		return nil, err
	}
	img, err := obj.Link(base, a.Prog.Symbol)
	if err != nil {
		a.free = append(a.free, span{held.base, held.size})
		return nil, errorf("load module: %w", err)
	}
	ans, err := a.WriteMemory(nil, base, img.Bytes)
	if err == nil {
		err = ans.Err("load module " + name)
	}
	if err != nil {
		return nil, err
	}
	m := &Module{Name: name, Path: abs, Base: base, Size: obj.Size(), obj: obj, img: img, app: a}
	a.modules = append(a.modules, m)
	return m, nil
}

func openModule(path string) (*cobj.Object, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return cobj.Open(f, path)
}

// allocModule reserves the module's memory for good (it is never freed: the program may
// hold pointers into it) at its alignment; a module too large names the section that
// does not fit.
func (a *App) allocModule(obj *cobj.Object) (uint32, span, error) {
	align := max(obj.Align(), trampLign)
	size := obj.Size() + align - trampLign
	base, err := a.alloc(size)
	if err != nil {
		avail := uint32(0)
		if end := a.region.End(); uint64(a.next) < end {
			avail = uint32(end - uint64(a.next))
		}
		if ferr := obj.Fit(avail); ferr != nil {
			return 0, span{}, errorf("load module: %w", ferr)
		}
		return 0, span{}, errorf("load module %s: %w", obj.Name, err)
	}
	return (base + align - 1) / align * align, span{base, (size + trampLign - 1) &^ (trampLign - 1)}, nil
}

// Modules lists the loaded modules in loading order.
func (a *App) Modules() []*Module { return append([]*Module(nil), a.modules...) }

// Symbols lists the module's symbols by address.
func (m *Module) Symbols() []cobj.Symbol {
	out := make([]cobj.Symbol, 0, len(m.img.Symbols))
	for _, s := range m.img.Symbols {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Addr != out[j].Addr {
			return out[i].Addr < out[j].Addr
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// SymbolError is a name the module does not define (as a function, or as data).
type SymbolError struct {
	Module, Name, Kind string
	Have               []string
}

// Unprefixed is the error's text without "runtime: "; Error adds it.
func (e *SymbolError) Unprefixed() string {
	return fmt.Sprintf("module %s has no %s %s (its %ss: %s)", e.Module, e.Kind, e.Name, e.Kind, strings.Join(e.Have, ", "))
}

func (e *SymbolError) Error() string { return "runtime: " + e.Unprefixed() }

// Package is the name the error's text starts with.
func (e *SymbolError) Package() string { return "runtime" }

func (m *Module) lookup(name string, fn bool) (cobj.Symbol, error) {
	s, ok := m.img.Symbols[name]
	if ok && s.Func == fn && s.Section != "ABS" {
		return s, nil
	}
	kind := map[bool]string{true: "function", false: "global"}[fn]
	var have []string
	for _, s := range m.Symbols() {
		if s.Func == fn && s.Section != "ABS" {
			have = append(have, s.Name)
		}
	}
	return cobj.Symbol{}, &SymbolError{Module: m.Name, Name: name, Kind: kind, Have: have}
}

// Call is a probe expression calling the module's function name (static ones too) with
// args; its value is the int the function returns.
func (m *Module) Call(name string, args ...*probes.Exp) (*probes.Exp, error) {
	s, err := m.lookup(name, true)
	if err != nil {
		return nil, err
	}
	return probes.CallAt(m.Name+"."+name, s.Addr, args...), nil
}

// Global is the module's global (or static) variable name as an lvalue, typed from the
// module's DWARF when it was built with -g.
func (m *Module) Global(name string) (*probes.Exp, error) {
	s, err := m.lookup(name, false)
	if err != nil {
		return nil, err
	}
	e, err := probes.ObjectGlobal(m.obj.DWARF(), name, s.DwarfAddr, s.Addr, s.Size)
	if err != nil {
		return nil, errorf("module %s: %w", m.Name, err)
	}
	return e, nil
}

// Read reads the module global name on rank: one value for a scalar, every element for
// an array of scalars.
func (m *Module) Read(name string, rank int) ([]probes.Value, error) {
	e, err := m.Global(name)
	if err != nil {
		return nil, err
	}
	s := m.img.Symbols[name]
	switch t := e.Shape; {
	case t.Kind == probes.CScalar || t.Kind == probes.CPointer:
		return m.app.ReadValues(rank, s.Addr, t.Mem, 1)
	case t.Kind == probes.CArray && (t.Elem.Kind == probes.CScalar || t.Elem.Kind == probes.CPointer):
		return m.app.ReadValues(rank, s.Addr, t.Elem.Mem, t.Len)
	}
	return nil, errorf("module %s: read %s: a %s is not a scalar or an array of scalars: read its members in a probe", m.Name, name, e.Shape)
}

// App is the application the module was loaded into.
func (m *Module) App() *App { return m.app }
