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

func zero(t Type) Value { return Value{T: t} }

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

// EncodeMem writes x (of m's value type) as memory of type m, big-endian.
func EncodeMem(m MemType, x Value) []byte {
	b := make([]byte, 8)
	switch m {
	case MemF32:
		binary.BigEndian.PutUint32(b, math.Float32bits(float32(x.F)))
	case MemF64:
		binary.BigEndian.PutUint64(b, math.Float64bits(x.F))
	default:
		binary.BigEndian.PutUint64(b, uint64(x.I))
		return b[8-m.Size():]
	}
	return b[:m.Size()]
}

func evalData(e *Exp, env Env) Value {
	switch e.Kind {
	case KPoint:
		return IntValue(env.Point())
	case KFunc:
		return IntValue(env.Func())
	case KIndex, KSetIndex:
		return evalIndex(e, env)
	case KPush, KPop, KDepth:
		return evalStack(e, env)
	}
	return evalMem(e, env)
}

// bump adds one to the int counter at addr.
func bump(env Env, addr uint32) {
	v, _ := env.LoadMem(addr, MemI32)
	env.StoreMem(addr, MemI32, IntValue(int32(v.I)+1))
}

func evalIndex(e *Exp, env Env) Value {
	a := e.Arr
	i := uint32(eval(e.Kids[0], env).I)
	var x Value
	if e.Kind == KSetIndex {
		x = convert(eval(e.Kids[1], env), a.T)
	}
	if i >= uint32(a.N) {
		bump(env, a.Over)
		if e.Kind == KSetIndex {
			return x
		}
		return zero(a.T)
	}
	addr := a.Addr + i*a.T.size()
	if e.Kind == KSetIndex {
		env.StoreMem(addr, elemMem(a.T), x)
		return x
	}
	v, _ := env.LoadMem(addr, elemMem(a.T))
	return v
}

func evalStack(e *Exp, env Env) Value {
	s := e.Stk
	var x Value
	if e.Kind == KPush {
		x = convert(eval(e.Kids[0], env), s.T) // before reading the depth: x may pop
	}
	topV, _ := env.LoadMem(s.TopAddr(), MemI32)
	top := uint32(topV.I)
	switch e.Kind {
	case KDepth:
		return IntValue(int32(top))
	case KPush:
		if top >= uint32(s.Depth) {
			bump(env, s.OverAddr())
			return Value{}
		}
		env.StoreMem(s.ElemAddr(int(top)), elemMem(s.T), x)
		env.StoreMem(s.TopAddr(), MemI32, IntValue(int32(top+1)))
		return Value{}
	}
	if top-1 >= uint32(s.Depth) {
		bump(env, s.UnderAddr())
		return zero(s.T)
	}
	env.StoreMem(s.TopAddr(), MemI32, IntValue(int32(top-1)))
	v, _ := env.LoadMem(s.ElemAddr(int(top-1)), elemMem(s.T))
	return v
}

func evalMem(e *Exp, env Env) Value {
	addr := uint32(eval(e.Kids[0], env).I) + uint32(int32(e.Idx))
	vt := e.Mem.ValueType()
	if e.Kind == KStore {
		x := Narrow(convert(eval(e.Kids[1], env), vt), e.Mem)
		env.StoreMem(addr, e.Mem, x)
		return x
	}
	v, ok := env.LoadMem(addr, e.Mem)
	if !ok {
		return zero(vt)
	}
	return v
}

func evalWhole(a *Array, env Env) []Value {
	out := make([]Value, a.N)
	for i := range out {
		out[i], _ = env.LoadMem(a.ElemAddr(i), elemMem(a.T))
	}
	return out
}
