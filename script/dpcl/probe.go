package dpcl

import (
	"errors"
	"slices"

	"github.com/dpclsh/dpclsh/probes"
	"github.com/dpclsh/dpclsh/runtime"
	"github.com/dpclsh/dpclsh/script"
	lua "github.com/yuin/gopher-lua"
)

// probeTypeName is the metatable name of probe expressions.
const probeTypeName = "probe.Exp"

func init() {
	script.RegisterModule(script.Module{
		Name: "probe",
		Doc: `probe — probe expressions, compiled to PowerPC 440 code (DPCL's ProbeExp).
Values are int (32-bit), int64 or double. A Lua number is an int when integral and within
32 bits, else a double; mixed operands widen (int -> int64 -> double). Arithmetic uses the
metamethods + - * / % and unary - with C semantics (integer / truncates; x / 0 is 0 and
x % 0 is x); everything else is a method: e:band e:bor e:bxor e:shl e:shr e:bnot,
e:eq e:ne e:lt e:le e:gt e:ge (Lua cannot overload == against numbers), v:assign(e),
e:disasm(), e:type(). tostring(e) is the C-like source. Variables come from app:var(type).`,
		Funcs: append([]script.Function{
			{Name: "int", Doc: "probe.int(n) -> Exp\nA 32-bit integer constant.", Fn: probeConst(probes.Int)},
			{Name: "int64", Doc: "probe.int64(n) -> Exp\nA 64-bit integer constant.", Fn: probeConst(probes.Int64)},
			{Name: "double", Doc: "probe.double(x) -> Exp\nA double constant.", Fn: probeConst(probes.Double)},
			{Name: "arg", Doc: `probe.arg(i [, "int"|"int64"|"double"]) -> Exp
Argument register i at a function entry (SysV PPC32): r(3+i) for int (i in 0..7), the pair
r(3+i):r(4+i) for int64 (i = 0, 2, 4, 6), f(1+i) for double. i counts registers of the
class, which is the C argument position when the earlier arguments are words.`, Fn: probeArg},
			{Name: "retval", Doc: "probe.retval([type]) -> Exp\nThe return value at a function exit: r3, r3:r4 or f1.", Fn: probeRetval},
			{Name: "rank", Doc: "probe.rank() -> Exp\nThe node's MPI rank (int).", Fn: probeNullary(probes.Rank)},
			{Name: "timebase", Doc: `probe.timebase() -> Exp
The node's time base (int64), in ticks of dpcl.timebase_hz (700e6 on BG/L: one tick is
1/700 µs, about 1.43 ns); virtual time, the same clock as mftb and MPI_Wtime.`, Fn: probeNullary(probes.Timebase)},
			{Name: "point_timebase", Doc: `probe.point_timebase() -> Exp
The time base (int64, as probe.timebase) when the point was reached: the trampoline reads
it on arrival, before saving the registers its snippets use, so snippets timing one
interval from an entry to an exit measure the same ticks whatever else each computes
(probe.timebase is read where the snippet reaches it). dpcl.trace's nsecs is this.`, Fn: probeNullary(probes.PointTimebase)},
			{Name: "counter", Doc: `probe.counter(name) -> Exp
A CPU event counter (int64): "instructions", "cycles", "loads", "stores", "branches"
(taken, conditional or not), "branches_not_taken" (conditional branches that fell through),
"fpops".`, Fn: probeCounter},
			{Name: "call", Doc: `probe.call(function_name, args...) -> Exp
probe.call(mod, function_name, args...) -> Exp
Calls a function of the program, or of the C module mod (app:load_module), static ones
included; its value is the int it returns.`, Fn: probeCall},
			{Name: "send", Doc: `probe.send(v1, v2, ...) -> Exp
Hands the values to the tool (the ais_send hypercall); no value. An array (app:array)
sends all its elements; up to 256 values in all. Filters such as "sum" work element-wise.`, Fn: probeSend},
			{Name: "seq", Doc: "probe.seq{e1, e2, ...} -> Exp\nEvaluates in order; the value is the last one's.", Fn: probeSeq},
			{Name: "when", Doc: "probe.when(cond, then [, else]) -> Exp\nConditional; with both arms its value is the taken arm's.", Fn: probeWhen},
			{Name: "land", Doc: "probe.land(a, b) -> Exp\nShort-circuit a && b (0 or 1).", Fn: probeLogical(probes.KLAnd)},
			{Name: "lor", Doc: "probe.lor(a, b) -> Exp\nShort-circuit a || b (0 or 1).", Fn: probeLogical(probes.KLOr)},
			{Name: "lnot", Doc: "probe.lnot(a) -> Exp\n!a (0 or 1).", Fn: probeLNot},
		}, slices.Concat(probeDataFuncs, probeStackFuncs, probeLeaveFuncs, probeSumFuncs)...),
		Init: probeDataInit,
	})
	script.RegisterType(script.Type{
		Name: probeTypeName,
		Doc:  "Exp — a probe expression; see help(probe).",
		Methods: append(append(probeBinaryMethods(), []script.Function{
			{Name: "bnot", Doc: "e:bnot() -> Exp\nBitwise complement ~e (int, int64).", Fn: probeUnaryMethod(probes.KBNot)},
			{Name: "assign", Doc: "v:assign(e) -> Exp\nStores e into the lvalue v: a probe variable, an array element a[i], a program global\nor a load (widening only); the value is the stored one.", Fn: probeAssign},
			{Name: "disasm", Doc: "e:disasm([base]) -> string\nThe PowerPC code compiled for e, placed at base (default 0).", Fn: probeDisasm},
			{Name: "tostring", Doc: "e:tostring() -> string\nThe C-like source of e.", Fn: probeToString},
			{Name: "type", Doc: "e:type() -> string\n\"int\", \"int64\", \"double\" or \"void\".", Fn: probeTypeOf},
		}...), expDataMethods...),
		Meta: []script.Function{
			{Name: "__add", Doc: "a + b", Fn: probeOperator(probes.KAdd, "+")},
			{Name: "__sub", Doc: "a - b", Fn: probeOperator(probes.KSub, "-")},
			{Name: "__mul", Doc: "a * b", Fn: probeOperator(probes.KMul, "*")},
			{Name: "__div", Doc: "a / b", Fn: probeOperator(probes.KDiv, "/")},
			{Name: "__mod", Doc: "a % b", Fn: probeOperator(probes.KMod, "%")},
			{Name: "__unm", Doc: "-a", Fn: probeNeg},
			{Name: "__tostring", Doc: "tostring(e)", Fn: probeToString},
		},
	})
}

// probeTargetKey holds the function that gives a session's compilation target of an
// expression's disassembly: function addresses for probe.call. The dpcl module registers
// it; without one (or while it gives nil) e:disasm() compiles for a program with no
// functions.
var probeTargetKey = script.NewKey[func() *probes.Target]("probe target")

// SetProbeTarget registers on s the function giving e:disasm()'s compilation target.
func SetProbeTarget(s *script.Session, target func() *probes.Target) { probeTargetKey.Set(s, target) }

// PushProbeVar returns a probe variable to Lua as an expression: what app:var returns.
func PushProbeVar(L *lua.LState, v *probes.Var) lua.LValue {
	return script.NewObject(L, probeTypeName, probes.Ref(v))
}

// ProbeExpOf returns the expression argument n holds (an Exp or a Lua number); a Lua
// boolean or anything else raises an argument error. Install and execute use it.
func ProbeExpOf(L *lua.LState, n int) *probes.Exp {
	e, err := probeExpOfValue(L.Get(n))
	if err != nil {
		L.ArgError(n, err.Error())
	}
	return e
}

// probeExpOfValue reads a probe expression (or a number, or an address) from v.
func probeExpOfValue(v lua.LValue) (*probes.Exp, error) {
	switch v := v.(type) {
	case lua.LNumber:
		return probes.Number(float64(v)), nil
	case lua.LBool:
		return nil, errors.New("a Lua boolean is not a probe expression: use e:eq(x) (or e:ne, e:lt, e:le, e:gt, e:ge) to compare")
	case *lua.LUserData:
		if e, ok := v.Value.(*probes.Exp); ok {
			return e, nil
		}
		if a, ok := v.Value.(script.Address); ok {
			return probes.Number(float64(a)), nil
		}
		if a, ok := v.Value.(*luaArray); ok {
			return nil, errors.New("array " + a.arr.Name + " is not a value: index it (" + a.arr.Name + "[i]) or send it whole (probe.send(" + a.arr.Name + "))")
		}
	}
	return nil, errors.New("probe expression or number expected, got " + v.Type().String())
}

// pushExp type-checks e and returns it to Lua; a type error is raised as fn's error.
func pushExp(L *lua.LState, fn string, e *probes.Exp) int {
	if _, err := probes.Check(e); err != nil {
		L.RaiseError("%s: %s", fn, script.ErrorText(err, "probes"))
		return 0
	}
	L.Push(script.NewObject(L, probeTypeName, e))
	return 1
}

func probeConst(t probes.Type) lua.LGFunction {
	return func(L *lua.LState) int {
		if b, ok := L.Get(1).(lua.LBool); ok {
			L.ArgError(1, "a Lua boolean is not a number: use 1 or 0 ("+b.String()+" given)")
		}
		f := float64(L.CheckNumber(1))
		switch t {
		case probes.Int:
			if f != float64(int32(f)) {
				L.ArgError(1, "not a 32-bit integer")
			}
			return pushExp(L, "probe.int", probes.IntConst(int32(f)))
		case probes.Int64:
			if f != float64(int64(f)) || f >= 1<<63 {
				L.ArgError(1, "not a 64-bit integer")
			}
			return pushExp(L, "probe.int64", probes.Int64Const(int64(f)))
		}
		return pushExp(L, "probe.double", probes.DoubleConst(f))
	}
}

// optType reads an optional type name argument (default int).
func optType(L *lua.LState, n int) probes.Type {
	t, err := probes.ParseType(L.OptString(n, "int"))
	if err != nil {
		L.ArgError(n, script.ErrorText(err, "probes"))
	}
	return t
}

func probeArg(L *lua.LState) int {
	return pushExp(L, "probe.arg", probes.Arg(L.CheckInt(1), optType(L, 2)))
}

func probeRetval(L *lua.LState) int {
	return pushExp(L, "probe.retval", probes.Retval(optType(L, 1)))
}

func probeNullary(f func() *probes.Exp) lua.LGFunction {
	return func(L *lua.LState) int { return pushExp(L, "probe", f()) }
}

func probeCounter(L *lua.LState) int {
	return pushExp(L, "probe.counter", probes.Counter(L.CheckString(1)))
}

// expArgs converts arguments from..top to expressions.
func expArgs(L *lua.LState, from int) []*probes.Exp {
	var es []*probes.Exp
	for i := from; i <= L.GetTop(); i++ {
		es = append(es, ProbeExpOf(L, i))
	}
	return es
}

func probeCall(L *lua.LState) int {
	if ud, ok := L.Get(1).(*lua.LUserData); ok {
		if m, ok := ud.Value.(*runtime.Module); ok {
			return probeCallCModule(L, m)
		}
	}
	return pushExp(L, "probe.call", probes.Call(L.CheckString(1), expArgs(L, 2)...))
}

func probeSend(L *lua.LState) int {
	return pushExp(L, "probe.send", probes.Send(sendArgs(L)...))
}

func probeSeq(L *lua.LState) int {
	tb := L.CheckTable(1)
	var es []*probes.Exp
	for i := 1; i <= tb.Len(); i++ {
		L.Push(tb.RawGetInt(i))
		es = append(es, ProbeExpOf(L, L.GetTop()))
		L.Pop(1)
	}
	return pushExp(L, "probe.seq", probes.Seq(es...))
}

func probeWhen(L *lua.LState) int {
	var els *probes.Exp
	if L.GetTop() >= 3 {
		els = ProbeExpOf(L, 3)
	}
	return pushExp(L, "probe.when", probes.When(ProbeExpOf(L, 1), ProbeExpOf(L, 2), els))
}

func probeLogical(k probes.Kind) lua.LGFunction {
	return func(L *lua.LState) int {
		return pushExp(L, "probe."+k.String(), probes.Binary(k, ProbeExpOf(L, 1), ProbeExpOf(L, 2)))
	}
}

func probeLNot(L *lua.LState) int {
	return pushExp(L, "probe.lnot", probes.Unary(probes.KLNot, ProbeExpOf(L, 1)))
}

func probeArith(k probes.Kind) lua.LGFunction {
	return func(L *lua.LState) int {
		return pushExp(L, k.String(), probes.Binary(k, ProbeExpOf(L, 1), ProbeExpOf(L, 2)))
	}
}

// probeOperator is an arithmetic metamethod: a wrong operand is named by the operator and
// its side ("the + operator: its right side is a string"), where an argument error would
// say "bad argument #2 to (anonymous)", which no line of the user's code spells.
func probeOperator(k probes.Kind, op string) lua.LGFunction {
	return func(L *lua.LState) int {
		for n, side := range []string{"left", "right"} {
			v := L.Get(n + 1)
			if _, isBool := v.(lua.LBool); isBool {
				L.RaiseError("the %s operator of a probe expression: its %s side is a Lua boolean, not a probe expression: use e:eq(x) (or e:ne, e:lt, e:le, e:gt, e:ge) to compare", op, side)
			}
			if ud, ok := v.(*lua.LUserData); ok {
				if a, ok := ud.Value.(*luaArray); ok {
					L.RaiseError("the %s operator of a probe expression, %s side: array %s is not a value: index it (%s[i]) or send it whole (probe.send(%s))",
						op, side, a.arr.Name, a.arr.Name, a.arr.Name)
				}
			}
			if !isProbeOperand(v) {
				L.RaiseError("the %s operator of a probe expression needs a probe expression or a number on each side; its %s side is %s",
					op, side, script.Describe(v))
			}
		}
		return pushExp(L, k.String(), probes.Binary(k, ProbeExpOf(L, 1), ProbeExpOf(L, 2)))
	}
}

// isProbeOperand tells whether ProbeExpOf takes v as an expression.
func isProbeOperand(v lua.LValue) bool {
	switch v := v.(type) {
	case lua.LNumber:
		return true
	case *lua.LUserData:
		switch v.Value.(type) {
		case *probes.Exp, script.Address:
			return true
		}
	}
	return false
}

func probeNeg(L *lua.LState) int {
	return pushExp(L, "neg", probes.Unary(probes.KNeg, ProbeExpOf(L, 1)))
}

func probeUnaryMethod(k probes.Kind) lua.LGFunction {
	return func(L *lua.LState) int {
		return pushExp(L, k.String(), probes.Unary(k, ProbeExpOf(L, 1)))
	}
}

// probeBinaryMethods are the bitwise and comparison methods, e:band(x) ... e:ge(x).
func probeBinaryMethods() []script.Function {
	kinds := []probes.Kind{probes.KBAnd, probes.KBOr, probes.KBXor, probes.KShl, probes.KShr,
		probes.KEq, probes.KNe, probes.KLt, probes.KLe, probes.KGt, probes.KGe}
	out := make([]script.Function, len(kinds))
	for i, k := range kinds {
		out[i] = script.Function{Name: k.String(), Doc: "e:" + k.String() + "(x) -> Exp", Fn: probeArith(k)}
	}
	return out
}

func probeAssign(L *lua.LState) int {
	dst := script.CheckObject[*probes.Exp](L, 1, probeTypeName)
	if !probes.IsLvalue(dst) {
		L.ArgError(1, "assign needs an lvalue (a probe variable from app:var, an array element a[i], a program global or a load), not "+dst.String())
	}
	return pushExp(L, "assign", probes.AssignTo(dst, ProbeExpOf(L, 2)))
}

func probeTarget(L *lua.LState) *probes.Target {
	if target, ok := probeTargetKey.Get(script.SessionOf(L)); ok {
		if t := target(); t != nil {
			return t
		}
	}
	return &probes.Target{}
}

func probeDisasm(L *lua.LState) int {
	e := script.CheckObject[*probes.Exp](L, 1, probeTypeName)
	code, err := probes.Compile(e, probeTarget(L))
	if err != nil {
		L.RaiseError("disasm: %s", script.ErrorText(err, "probes"))
		return 0
	}
	L.Push(lua.LString(code.Disasm(uint32(L.OptInt64(2, 0)))))
	return 1
}

func probeToString(L *lua.LState) int {
	L.Push(lua.LString(script.CheckObject[*probes.Exp](L, 1, probeTypeName).String()))
	return 1
}

func probeTypeOf(L *lua.LState) int {
	t, _ := probes.Check(script.CheckObject[*probes.Exp](L, 1, probeTypeName))
	L.Push(lua.LString(t.String()))
	return 1
}
