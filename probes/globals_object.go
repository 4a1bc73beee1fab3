package probes

import (
	"debug/dwarf"
	"fmt"
)

// Symbol returns the address of the program's function or data object name: what a C
// module loaded into the program resolves its undefined references against.
func (b *Program) Symbol(name string) (uint32, bool) {
	if s, ok := b.img.FuncNamed(name); ok {
		return s.Addr, true
	}
	obj, ok := b.img.ObjectNamed(name)
	return obj.Addr, ok
}

// ObjectGlobal is the global name of a loaded object (a C module) as an lvalue at addr,
// typed like Program.Global: from the object's DWARF d (nil without -g), where the
// variable's address is dwarfAddr (its offset in its section, as a relocatable object's
// DWARF records it), else from its size (4 or 8 bytes: int or int64).
func ObjectGlobal(d *dwarf.Data, name string, dwarfAddr, addr, size uint32) (*Exp, error) {
	t, _, haveDwarf, err := dwarfGlobal(d, name, dwarfAddr)
	if err != nil {
		return nil, &GlobalError{name, err.Error()}
	}
	if !haveDwarf {
		m, ok := map[uint32]MemType{4: MemI32, 8: MemI64}[size]
		if !ok {
			return nil, &GlobalError{name, fmt.Sprintf("no DWARF type (build the module with -g) and %d bytes: read it with probe.load", size)}
		}
		t = &CType{Kind: CScalar, Name: m.String(), Mem: m, Size: size}
	}
	return lvalue(IntConst(int32(addr)), 0, t, name), nil
}
