package probes

import (
	"encoding/binary"
	"math"
)

// elemMem is the memory type probe arrays and stacks store values of t as.
func elemMem(t Type) MemType {
	switch t {
	case Int64:
		return MemI64
	case Double:
		return MemF64
	}
	return MemI32
}

// ElemMem is the memory type of the elements of an array or stack of t.
func ElemMem(t Type) MemType { return elemMem(t) }

// Narrow converts x (of m's value type) to what memory of type m holds and reads back:
// the low bits of an integer, sign- or zero-extended, and a double rounded to float.
func Narrow(x Value, m MemType) Value {
	switch m {
	case MemI8:
		return IntValue(int32(int8(x.I)))
	case MemU8:
		return IntValue(int32(uint8(x.I)))
	case MemI16:
		return IntValue(int32(int16(x.I)))
	case MemU16:
		return IntValue(int32(uint16(x.I)))
	case MemI32, MemPtr:
		return IntValue(int32(x.I))
	case MemU32:
		return Int64Value(int64(uint32(x.I)))
	case MemF32:
		return DoubleValue(float64(float32(x.F)))
	}
	return x
}

// DecodeMem reads a value of memory type m from b (big-endian, m.Size() bytes).
func DecodeMem(m MemType, b []byte) Value {
	switch m.Size() {
	case 1:
		return Narrow(Int64Value(int64(b[0])), m)
	case 2:
		return Narrow(Int64Value(int64(binary.BigEndian.Uint16(b))), m)
	case 4:
		w := binary.BigEndian.Uint32(b)
		if m == MemF32 {
			return DoubleValue(float64(math.Float32frombits(w)))
		}
		return Narrow(Int64Value(int64(w)), m)
	}
	w := binary.BigEndian.Uint64(b)
	if m == MemF64 {
		return DoubleValue(math.Float64frombits(w))
	}
	return Int64Value(int64(w))
}

// typeOf is the type of a node already checked (its type is kept on the node).
func typeOf(e *Exp) Type {
	if t, ok := e.checkedType(); ok {
		return t
	}
	t, _ := Check(e)
	return t
}
