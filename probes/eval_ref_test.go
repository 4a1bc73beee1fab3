package probes

import (
	"encoding/binary"
	"math"
)

// Env is what an evaluated expression reads and changes: the reference semantics the
// generated code must reproduce. Arg and Retval receive the register class and index
// (see Arg); Call and Send receive converted argument values.
type Env interface {
	Load(v *Var) Value
	Store(v *Var, x Value)
	Arg(t Type, i int) Value
	Retval(t Type) Value
	Rank() int32
	Timebase() int64
	Counter(name string) int64
	Call(fn string, args []Value) int32
	Send(vals []Value)
	// LoadMem reads a value of memory type m at addr (arrays, stacks and their counters
	// live in memory too); ok is false when the node could not read it (a fault).
	LoadMem(addr uint32, m MemType) (v Value, ok bool)
	// StoreMem writes x (already of m's value type) as m at addr; false on a fault.
	StoreMem(addr uint32, m MemType, x Value) bool
	// Point and Func are the point's index and its function's (see PointIndex).
	Point() int32
	Func() int32
}

// Eval type-checks e and evaluates it in env. Integer arithmetic wraps; division by zero
// yields 0 and x % 0 yields x; INT_MIN / -1 yields INT_MIN and INT_MIN % -1 yields 0, for
// int and int64 alike (so
// x == x/y*y + x%y always holds); shift counts are taken modulo 64, and a 32-bit shift by
// 32..63 gives 0 (<<) or the sign (>>), as the PowerPC slw/sraw instructions do.
func Eval(e *Exp, env Env) (Value, error) {
	if _, err := Check(e); err != nil {
		return Value{}, err
	}
	return eval(e, env), nil
}

// convert applies C's conversion to a wider type (only widening occurs after Check).
func convert(v Value, t Type) Value {
	switch {
	case t == v.T || t == Void:
		return v
	case t == Double:
		return DoubleValue(float64(v.I))
	case t == Int64:
		return Int64Value(v.I)
	}
	return IntValue(int32(v.I))
}

func truth(v Value) bool {
	if v.T == Double {
		return v.F != 0
	}
	return v.I != 0
}

func boolValue(b bool) Value {
	if b {
		return IntValue(1)
	}
	return IntValue(0)
}

func eval(e *Exp, env Env) Value {
	switch e.Kind {
	case KConst:
		return e.Val
	case KVar:
		return env.Load(e.Var)
	case KArg:
		return env.Arg(e.T, e.Idx)
	case KRetval:
		return env.Retval(e.T)
	case KRank:
		return IntValue(env.Rank())
	case KTimebase:
		return Int64Value(env.Timebase())
	case KCounter:
		return Int64Value(env.Counter(e.Name))
	case KCall, KSend:
		return evalCallSend(e, env)
	case KAssign:
		x := convert(eval(e.Kids[0], env), e.Var.T)
		env.Store(e.Var, x)
		return x
	case KSeq:
		var v Value
		for _, k := range e.Kids {
			v = eval(k, env)
		}
		return v
	case KWhen:
		return evalWhen(e, env)
	case KIndex, KSetIndex, KPush, KPop, KDepth, KPoint, KFunc, KLoad, KStore:
		return evalData(e, env)
	case KLAnd:
		return boolValue(truth(eval(e.Kids[0], env)) && truth(eval(e.Kids[1], env)))
	case KLOr:
		return boolValue(truth(eval(e.Kids[0], env)) || truth(eval(e.Kids[1], env)))
	case KLNot:
		return boolValue(!truth(eval(e.Kids[0], env)))
	case KNeg, KBNot:
		return evalUnary(e.Kind, eval(e.Kids[0], env))
	}
	return evalBinary(e.Kind, eval(e.Kids[0], env), eval(e.Kids[1], env))
}

func evalCallSend(e *Exp, env Env) Value {
	vals := make([]Value, 0, len(e.Kids))
	for _, k := range e.Kids {
		if k.Kind == KWhole {
			vals = append(vals, evalWhole(k.Arr, env)...)
			continue
		}
		vals = append(vals, eval(k, env))
	}
	if e.Kind == KSend {
		env.Send(vals)
		return Value{}
	}
	return IntValue(env.Call(e.Name, vals))
}

func evalWhen(e *Exp, env Env) Value {
	t := typeOf(e)
	if truth(eval(e.Kids[0], env)) {
		return convert(eval(e.Kids[1], env), t)
	}
	if len(e.Kids) == 3 {
		return convert(eval(e.Kids[2], env), t)
	}
	return Value{}
}

func evalUnary(k Kind, v Value) Value {
	switch v.T {
	case Double:
		return DoubleValue(-v.F)
	case Int:
		if k == KBNot {
			return IntValue(^int32(v.I))
		}
		return IntValue(-int32(v.I))
	}
	if k == KBNot {
		return Int64Value(^v.I)
	}
	return Int64Value(-v.I)
}

func evalBinary(k Kind, a, b Value) Value {
	switch k {
	case KShl, KShr:
		return evalShift(k, a, b)
	}
	t := promote(a.T, b.T)
	a, b = convert(a, t), convert(b, t)
	if k >= KEq && k <= KGe {
		return boolValue(compare(k, a, b))
	}
	switch t {
	case Double:
		return DoubleValue(doubleOp(k, a.F, b.F))
	case Int:
		return IntValue(int32Op(k, int32(a.I), int32(b.I)))
	}
	return Int64Value(int64Op(k, a.I, b.I))
}

func compare(k Kind, a, b Value) bool {
	if a.T == Double {
		x, y := a.F, b.F
		return [...]bool{KEq - KEq: x == y, KNe - KEq: x != y, KLt - KEq: x < y,
			KLe - KEq: x <= y, KGt - KEq: x > y, KGe - KEq: x >= y}[k-KEq]
	}
	x, y := a.I, b.I
	return [...]bool{KEq - KEq: x == y, KNe - KEq: x != y, KLt - KEq: x < y,
		KLe - KEq: x <= y, KGt - KEq: x > y, KGe - KEq: x >= y}[k-KEq]
}

func doubleOp(k Kind, x, y float64) float64 {
	switch k {
	case KAdd:
		return x + y
	case KSub:
		return x - y
	case KMul:
		return x * y
	}
	return x / y
}

func int32Div(x, y int32) int32 {
	switch y {
	case 0:
		return 0
	case -1:
		return -x
	}
	return x / y
}

func int32Op(k Kind, x, y int32) int32 {
	switch k {
	case KAdd:
		return x + y
	case KSub:
		return x - y
	case KMul:
		return x * y
	case KDiv:
		return int32Div(x, y)
	case KMod:
		return x - int32Div(x, y)*y
	case KBAnd:
		return x & y
	case KBOr:
		return x | y
	}
	return x ^ y
}

func int64Div(x, y int64) int64 {
	switch y {
	case 0:
		return 0
	case -1:
		return -x
	}
	return x / y
}

func int64Op(k Kind, x, y int64) int64 {
	switch k {
	case KDiv:
		return int64Div(x, y)
	case KMod:
		return x - int64Div(x, y)*y
	case KAdd:
		return x + y
	case KSub:
		return x - y
	case KMul:
		return x * y
	case KBAnd:
		return x & y
	case KBOr:
		return x | y
	}
	return x ^ y
}

func evalShift(k Kind, a, b Value) Value {
	n := uint(uint32(b.I)) & 63
	if a.T == Int {
		x := int32(a.I)
		if k == KShl {
			return IntValue(x << n)
		}
		return IntValue(x >> n)
	}
	if k == KShl {
		return Int64Value(a.I << n)
	}
	return Int64Value(a.I >> n)
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

func zero(t Type) Value { return Value{T: t} }

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
