package probes

import (
	"fmt"
	"strings"
)

// Array is a probe array: N elements of type T in the instrumentation region, the same
// address on every node, and an overflow counter (an int) bumped by every access whose
// index is outside 0..N-1 (the access is skipped: a read gives 0, a store writes nothing).
type Array struct {
	Name string
	T    Type
	N    int
	Addr uint32 // element 0
	Over uint32 // the overflow counter
}

// Stack is a probe stack of up to Depth elements of type T (DynTG's timer stack). Its
// header holds the depth in use and the overflow and underflow counters; the elements
// follow. A push on a full stack and a pop of an empty one are skipped and counted.
type Stack struct {
	Name  string
	T     Type
	Depth int
	Addr  uint32 // the header: depth in use, overflows, underflows (ints), then padding
}

// Stack header layout.
const (
	stackTop   = 0  // elements in use
	stackOver  = 4  // pushes refused because the stack was full
	stackUnder = 8  // pops of an empty stack
	stackElems = 16 // element 0 (8-aligned)
)

// OverAddr, UnderAddr and TopAddr locate a stack's counters; ElemAddr its element i.
func (s *Stack) OverAddr() uint32  { return s.Addr + stackOver }
func (s *Stack) UnderAddr() uint32 { return s.Addr + stackUnder }
func (s *Stack) TopAddr() uint32   { return s.Addr + stackTop }
func (s *Stack) ElemAddr(i int) uint32 {
	return s.Addr + stackElems + uint32(i)*s.T.size()
}

// ElemAddr is the address of element i.
func (a *Array) ElemAddr(i int) uint32 { return a.Addr + uint32(i)*a.T.size() }

// MaxArray is the largest element count of an array or stack.
const MaxArray = 1 << 20

// AllocArray reserves an array of n elements of type t and its overflow counter. An empty
// name gets one made from the address ("a_10000010").
func (s *Slots) AllocArray(name string, t Type, n int) (*Array, error) {
	if t == Void {
		return nil, errorf("allocate array %q: an array needs an element type (int, int64 or double)", name)
	}
	if n < 1 || n > MaxArray {
		return nil, errorf("allocate %s array %q: %d elements (want 1..%d)", t, name, n, MaxArray)
	}
	addr, err := s.reserve(name, "array", t, 8+uint32(n)*t.size())
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = fmt.Sprintf("a_%x", addr)
	}
	if err := s.claim(name); err != nil {
		return nil, err
	}
	return &Array{Name: name, T: t, N: n, Over: addr, Addr: addr + 8}, nil
}

// AllocStack reserves a stack of up to depth elements of type t with its header.
func (s *Slots) AllocStack(name string, t Type, depth int) (*Stack, error) {
	if t == Void {
		return nil, errorf("allocate stack %q: a stack needs an element type (int, int64 or double)", name)
	}
	if depth < 1 || depth > MaxArray {
		return nil, errorf("allocate %s stack %q: depth %d (want 1..%d)", t, name, depth, MaxArray)
	}
	addr, err := s.reserve(name, "stack", t, stackElems+uint32(depth)*t.size())
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = fmt.Sprintf("s_%x", addr)
	}
	if err := s.claim(name); err != nil {
		return nil, err
	}
	return &Stack{Name: name, T: t, Depth: depth, Addr: addr}, nil
}

// reserve takes size bytes, 8-aligned, from the window.
func (s *Slots) reserve(name, what string, t Type, size uint32) (uint32, error) {
	addr := (s.next + 7) &^ 7
	if uint64(addr)+uint64(size) > uint64(s.limit) || addr < s.next {
		return 0, errorf("allocate %s %s %q: %d bytes do not fit in what is left of [0x%x,0x%x)", t, what, name, size, s.base, s.limit)
	}
	if name != "" && s.names[name] {
		return 0, errorf("allocate %s %q: name already used", what, name)
	}
	s.next = addr + size
	return addr, nil
}

func (s *Slots) claim(name string) error {
	if s.names[name] {
		return errorf("allocate %q: name already used", name)
	}
	s.names[name] = true
	return nil
}

// MemType is the C type of a value in program memory: what load, store and program
// globals read and write. Each maps to the value type it is computed in (ValueType):
// the small signed and unsigned integers, int and pointers to int; unsigned int to int64
// (so its value is exact); long long and unsigned long long to int64 (the latter wraps);
// float and double to double.
type MemType uint8

// The memory types.
const (
	MemNone MemType = iota
	MemI8
	MemU8
	MemI16
	MemU16
	MemI32
	MemU32
	MemI64
	MemU64
	MemF32
	MemF64
	MemPtr
	memTypeCount
)

var memTypes = [memTypeCount]struct {
	name string
	size uint32
	val  Type
}{
	MemI8: {"char", 1, Int}, MemU8: {"uchar", 1, Int}, MemI16: {"short", 2, Int},
	MemU16: {"ushort", 2, Int}, MemI32: {"int", 4, Int}, MemU32: {"unsigned", 4, Int64},
	MemI64: {"int64", 8, Int64}, MemU64: {"uint64", 8, Int64}, MemF32: {"float", 4, Double},
	MemF64: {"double", 8, Double}, MemPtr: {"pointer", 4, Int},
}

// memAliases are the other spellings ParseMemType accepts.
var memAliases = map[string]MemType{
	"signed char": MemI8, "int8": MemI8, "unsigned char": MemU8, "uint8": MemU8,
	"int16": MemI16, "short int": MemI16, "unsigned short": MemU16, "uint16": MemU16,
	"int32": MemI32, "long": MemI32, "long int": MemI32, "unsigned int": MemU32, "uint32": MemU32,
	"unsigned long": MemU32, "long long": MemI64, "long long int": MemI64,
	"unsigned long long": MemU64, "ptr": MemPtr, "void *": MemPtr,
}

func (m MemType) String() string {
	if m < memTypeCount && m != MemNone {
		return memTypes[m].name
	}
	return fmt.Sprintf("MemType(%d)", m)
}

// Size is the number of bytes a value of m occupies.
func (m MemType) Size() uint32 { return memTypes[m].size }

// ValueType is the expression type a value of m is computed in.
func (m MemType) ValueType() Type { return memTypes[m].val }

// ParseMemType maps a C type name to its MemType: char, uchar, short, ushort, int,
// unsigned, int64 (long long), uint64, float, double, pointer, and the usual spellings.
func ParseMemType(s string) (MemType, error) {
	s = strings.Join(strings.Fields(s), " ")
	for m := MemI8; m < memTypeCount; m++ {
		if memTypes[m].name == s {
			return m, nil
		}
	}
	if m, ok := memAliases[s]; ok {
		return m, nil
	}
	if strings.HasSuffix(s, "*") {
		return MemPtr, nil
	}
	names := make([]string, 0, memTypeCount)
	for m := MemI8; m < memTypeCount; m++ {
		names = append(names, memTypes[m].name)
	}
	return MemNone, errorf("unknown memory type %q (want one of %s, or a pointer type)", s, strings.Join(names, ", "))
}
