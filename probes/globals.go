package probes

import (
	"debug/dwarf"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// CType is the C type of a program global as DWARF describes it, reduced to what probe
// expressions can read: scalars (a MemType), pointers, fixed arrays and structs.
type CType struct {
	Kind   CKind
	Name   string  // the C spelling, for messages
	Mem    MemType // CScalar and CPointer
	Size   uint32
	Elem   *CType // CArray: the element; CPointer: the pointee (nil when not expressible)
	Len    int    // CArray
	Fields []CField
}

// CField is a struct member at a byte offset.
type CField struct {
	Name string
	Off  uint32
	Type *CType
}

// CKind classifies CTypes.
type CKind uint8

// The kinds of C types.
const (
	CScalar CKind = iota
	CPointer
	CArray
	CStruct
)

func (t *CType) String() string { return t.Name }

// Field returns the member called name.
func (t *CType) Field(name string) (CField, bool) {
	for _, f := range t.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return CField{}, false
}

// GlobalError is a program global that does not exist or whose type cannot be expressed.
type GlobalError struct {
	Name string
	Why  string
}

// Unprefixed is the error's text without "probes: "; Error adds it.
func (e *GlobalError) Unprefixed() string { return fmt.Sprintf("global %s: %s", e.Name, e.Why) }

func (e *GlobalError) Error() string { return "probes: " + e.Unprefixed() }

// Package is the name the error's text starts with.
func (e *GlobalError) Package() string { return "probes" }

// Global returns the program global name as an lvalue: a load of its type from DWARF at
// its address from the ELF symbol table (its DWARF location when it has no symbol). A
// struct or array global is an aggregate to take a field (Member) or an element
// (Element) of; only scalars and pointers are values.
func (b *Program) Global(name string) (*Exp, error) {
	obj, haveSym := b.img.ObjectNamed(name)
	t, addr, haveDwarf, err := dwarfGlobal(b.img.DWARF, name, obj.Addr)
	if err != nil {
		return nil, &GlobalError{name, err.Error()}
	}
	switch {
	case !haveSym && !haveDwarf:
		return nil, &GlobalError{name, "no such global in the program's symbols" + b.suggest(name)}
	case !haveDwarf && (obj.Size == 4 || obj.Size == 8):
		m := map[uint32]MemType{4: MemI32, 8: MemI64}[obj.Size]
		t = &CType{Kind: CScalar, Name: m.String(), Mem: m, Size: obj.Size}
	case !haveDwarf:
		return nil, &GlobalError{name, fmt.Sprintf("no DWARF type and %d bytes: read it with probe.load", obj.Size)}
	}
	if haveSym {
		addr = obj.Addr
	}
	return lvalue(IntConst(int32(addr)), 0, t, name), nil
}

// suggest lists globals with a similar name.
func (b *Program) suggest(name string) string {
	var near []string
	for _, n := range b.img.ObjectNames() {
		ln, lname := strings.ToLower(n), strings.ToLower(name)
		if len(n) > 2 && (strings.Contains(ln, lname) || strings.Contains(lname, ln)) {
			near = append(near, n)
		}
	}
	sort.Strings(near)
	if len(near) == 0 {
		return ""
	}
	return " (did you mean " + strings.Join(near[:min(5, len(near))], ", ") + "?)"
}

// lvalue is the expression for an object of type t at addr + off.
func lvalue(addr *Exp, off int32, t *CType, name string) *Exp {
	e := &Exp{Kind: KLoad, Kids: []*Exp{addr}, Idx: int(off), Name: name, Shape: t}
	if t.Kind == CScalar || t.Kind == CPointer {
		e.Mem = t.Mem
	}
	return e
}

// Member is the field of the struct lvalue e called name.
func Member(e *Exp, name string) (*Exp, error) {
	if e.Shape == nil || e.Shape.Kind != CStruct {
		return nil, errorf("%s has no field %s: it is not a struct", e, name)
	}
	f, ok := e.Shape.Field(name)
	if !ok {
		names := make([]string, len(e.Shape.Fields))
		for i, f := range e.Shape.Fields {
			names[i] = f.Name
		}
		return nil, errorf("%s (%s) has no field %s (fields: %s)", e, e.Shape, name, strings.Join(names, ", "))
	}
	return lvalue(e.Kids[0], int32(e.Idx)+int32(f.Off), f.Type, e.Name+"."+name), nil
}

// Element is element i of the array lvalue e; a constant index is checked against the
// array's length, an expression index is not (a wild one reads through the fault fixup).
// A pointer is indexed as C does, p[i] being *(p + i): a table the program grows with
// realloc reads like a fixed one.
func Element(e *Exp, i *Exp) (*Exp, error) {
	if e.Shape != nil && e.Shape.Kind == CPointer && e.Shape.Elem != nil && e.Shape.Elem.Size > 0 {
		return pointee(e, i)
	}
	if e.Shape == nil || e.Shape.Kind != CArray {
		return nil, errorf("%s cannot be indexed: it is not an array or a pointer to a known type", e)
	}
	et := e.Shape.Elem
	if i.Kind == KConst && i.Val.T == Int {
		if i.Val.I < 0 || i.Val.I >= int64(e.Shape.Len) {
			return nil, errorf("%s[%d]: index out of range 0..%d", e, i.Val.I, e.Shape.Len-1)
		}
		return lvalue(e.Kids[0], int32(e.Idx)+int32(i.Val.I)*int32(et.Size), et, fmt.Sprintf("%s[%d]", e.Name, i.Val.I)), nil
	}
	if t, err := Check(i); err != nil || t != Int {
		return nil, errorf("%s[%s]: the index must be an int expression", e, i)
	}
	addr := Binary(KAdd, e.Kids[0], Binary(KMul, i, IntConst(int32(et.Size))))
	return lvalue(addr, int32(e.Idx), et, fmt.Sprintf("%s[%s]", e.Name, i)), nil
}

// pointee is element i of what the pointer lvalue e points at.
func pointee(e *Exp, i *Exp) (*Exp, error) {
	et := e.Shape.Elem
	if t, err := Check(i); err != nil || t != Int {
		return nil, errorf("%s[%s]: the index must be an int expression", e, i)
	}
	addr := Binary(KAdd, e, Binary(KMul, i, IntConst(int32(et.Size))))
	return lvalue(addr, 0, et, fmt.Sprintf("%s[%s]", e.Name, i)), nil
}

// dwarfGlobal finds name's variable in d (nil: no DWARF): its type and address (from its
// location), preferring the one at symAddr when several CUs define it.
func dwarfGlobal(d *dwarf.Data, name string, symAddr uint32) (*CType, uint32, bool, error) {
	if d == nil {
		return nil, 0, false, nil
	}
	var found *dwarf.Entry
	var foundAddr uint32
	rd := d.Reader()
	for {
		ent, err := rd.Next()
		if err != nil || ent == nil {
			break
		}
		if ent.Tag != dwarf.TagVariable || ent.Val(dwarf.AttrName) != name {
			continue
		}
		addr, ok := locationAddr(ent)
		if !ok || ent.Val(dwarf.AttrType) == nil {
			continue
		}
		if found == nil || addr == symAddr {
			found, foundAddr = ent, addr
		}
	}
	if found == nil {
		return nil, 0, false, nil
	}
	dt, err := d.Type(found.Val(dwarf.AttrType).(dwarf.Offset))
	if err != nil {
		return nil, 0, false, fmt.Errorf("reading its DWARF type: %w", err)
	}
	t, err := cType(dt, 0)
	if err != nil {
		return nil, 0, false, err
	}
	return t, foundAddr, true, nil
}

// locationAddr reads a DW_OP_addr location (a static variable's address).
func locationAddr(e *dwarf.Entry) (uint32, bool) {
	loc, ok := e.Val(dwarf.AttrLocation).([]byte)
	if !ok || len(loc) != 5 || loc[0] != 0x03 {
		return 0, false
	}
	return uint32(loc[1])<<24 | uint32(loc[2])<<16 | uint32(loc[3])<<8 | uint32(loc[4]), true
}

var errDepth = errors.New("type nests too deeply")

// cType converts a DWARF type; what probes cannot read is an error naming it.
func cType(dt dwarf.Type, depth int) (*CType, error) {
	if depth > 16 {
		return nil, errDepth
	}
	switch t := dt.(type) {
	case *dwarf.TypedefType:
		c, err := cType(t.Type, depth+1)
		if err != nil {
			return nil, err
		}
		cp := *c
		cp.Name = t.Name
		return &cp, nil
	case *dwarf.QualType:
		return cType(t.Type, depth+1)
	case *dwarf.PtrType:
		p := &CType{Kind: CPointer, Name: t.String(), Mem: MemPtr, Size: 4}
		if e, err := cType(t.Type, depth+1); err == nil {
			p.Elem = e
		}
		return p, nil
	case *dwarf.ArrayType:
		return arrayCType(t, depth)
	case *dwarf.StructType:
		return structCType(t, depth)
	}
	if m, ok := scalarMem(dt); ok {
		return &CType{Kind: CScalar, Name: dt.String(), Mem: m, Size: m.Size()}, nil
	}
	return nil, fmt.Errorf("its DWARF type %s (%d bytes) cannot be expressed in a probe", dt, dt.Size())
}

// scalarMem maps DWARF base types to memory types.
func scalarMem(dt dwarf.Type) (MemType, bool) {
	size := dt.Size()
	switch dt.(type) {
	case *dwarf.IntType, *dwarf.CharType, *dwarf.EnumType:
		return map[int64]MemType{1: MemI8, 2: MemI16, 4: MemI32, 8: MemI64}[size], size == 1 || size == 2 || size == 4 || size == 8
	case *dwarf.UintType, *dwarf.UcharType, *dwarf.BoolType:
		return map[int64]MemType{1: MemU8, 2: MemU16, 4: MemU32, 8: MemU64}[size], size == 1 || size == 2 || size == 4 || size == 8
	case *dwarf.FloatType:
		return map[int64]MemType{4: MemF32, 8: MemF64}[size], size == 4 || size == 8
	}
	return MemNone, false
}

func arrayCType(t *dwarf.ArrayType, depth int) (*CType, error) {
	if t.Count < 0 {
		return nil, fmt.Errorf("its DWARF type %s is an array of unknown length", t)
	}
	e, err := cType(t.Type, depth+1)
	if err != nil {
		return nil, err
	}
	return &CType{Kind: CArray, Name: t.String(), Elem: e, Len: int(t.Count), Size: e.Size * uint32(t.Count)}, nil
}

func structCType(t *dwarf.StructType, depth int) (*CType, error) {
	if t.Incomplete || t.Kind != "struct" {
		return nil, fmt.Errorf("its DWARF type %s cannot be expressed in a probe (an incomplete struct or a union)", t)
	}
	c := &CType{Kind: CStruct, Name: t.String(), Size: uint32(t.ByteSize)}
	for _, f := range t.Field {
		if f.BitSize != 0 {
			return nil, fmt.Errorf("its DWARF type %s has a bit-field %s, which a probe cannot read", t, f.Name)
		}
		ft, err := cType(f.Type, depth+1)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.Name, err)
		}
		c.Fields = append(c.Fields, CField{Name: f.Name, Off: uint32(f.ByteOffset), Type: ft})
	}
	return c, nil
}

// Deref is what the pointer lvalue e points to, typed from DWARF: a scalar load or an
// aggregate to take a Member or Element of.
func Deref(e *Exp) (*Exp, error) {
	if e.Shape == nil || e.Shape.Kind != CPointer || e.Shape.Elem == nil {
		return nil, errorf("deref %s: the pointee's type is not known: give one (e:deref(type))", e)
	}
	name := e.Name
	if name == "" {
		name = e.String()
	}
	return lvalue(e, 0, e.Shape.Elem, "(*"+name+")"), nil
}
