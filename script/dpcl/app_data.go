package dpcl

import (
	"fmt"
	"github.com/dpclsh/dpclsh/script"

	"github.com/dpclsh/dpclsh/probes"
	"github.com/dpclsh/dpclsh/runtime"
	lua "github.com/yuin/gopher-lua"
)

// Probe arrays and stacks as Lua sees them: a[i] is an expression (i a number or an
// expression, 0-based as in C), the other operations are methods.
const (
	arrayTypeName = "probe.Array"
	stackTypeName = "probe.Stack"
)

// luaArray and luaStack keep the application they live in, to read them back.
type luaArray struct {
	arr *probes.Array
	app *runtime.App
}

type luaStack struct {
	stk *probes.Stack
	app *runtime.App
}

// appDataMethods are the application methods of the probe language's data: arrays,
// stacks, program globals and function ids.
var appDataMethods = []script.Function{
	{Name: "array", Doc: `app:array("int"|"int64"|"double", n [, name]) -> Array
A probe array of n elements per process (0-based), at the same address on every node.
a[i] reads element i (i a number or an int expression), a:set(i, v) or a[i]:assign(v)
stores; an index out of range stores nothing, reads 0 and counts an overflow
(a:overflows()). probe.send(a) sends every element.`, Fn: appArray},
	{Name: "stack", Doc: `app:stack("int"|"int64"|"double", depth [, name]) -> Stack
A probe stack per process (DynTG's timer stack): s:push(v), s:pop() (an expression),
s:depth(). A push on a full stack and a pop of an empty one are skipped (pop yields 0) and
counted: s:overflows(), s:underflows().`, Fn: appStack},
	{Name: "global", Doc: `app:global(name) -> Exp
The program global name as an lvalue, typed from DWARF (int, unsigned, long long, float,
double, pointers, fixed arrays, structs): g.field and g[i] (a number or an int expression)
reach members and elements, g:assign(v) writes, ptr:deref(type [, offset]) follows a
pointer. Without DWARF, a 4- or 8-byte symbol reads as int or int64. A global that does
not exist or whose type a probe cannot read (a union, a bit-field) is an error naming it.`, Fn: appGlobal},
	{Name: "func_name", Doc: `app:func_name(id) -> string
The name of the function probe.func() calls id (its index among app:functions("*")).`, Fn: appFuncName},
}

func init() {
	script.RegisterType(script.Type{
		Name: arrayTypeName,
		Doc:  "Array — a probe array (app:array): a[i], #a, tostring(a) and the methods below.",
		Methods: []script.Function{
			{Name: "set", Doc: "a:set(i, v) -> Exp\nStores v into a[i] (widening only); the value is v. Out of range: no store, one overflow.", Fn: arraySet},
			{Name: "get", Doc: "a:get(i) -> Exp\nThe element a[i] (the same as a[i]).", Fn: arrayGet},
			{Name: "read", Doc: "a:read(rank) -> {v0, v1, ...}\nThe rank's elements now (t[i+1] is a[i]), read from its memory.", Fn: arrayRead},
			{Name: "overflows", Doc: "a:overflows([rank]) -> n\nOut-of-range accesses: on rank, or summed over every rank.", Fn: arrayOverflows},
			{Name: "size", Doc: "a:size() -> n\nThe number of elements (also #a).", Fn: arraySize},
			{Name: "type", Doc: `a:type() -> "int"|"int64"|"double"`, Fn: arrayType},
		},
		Meta: []script.Function{
			{Name: "__len", Doc: "#a", Fn: arraySize},
			{Name: "__tostring", Doc: "tostring(a)", Fn: arrayString},
		},
	})
	script.RegisterType(script.Type{
		Name: stackTypeName,
		Doc:  "Stack — a probe stack (app:stack): the methods below; push, pop and depth build expressions.",
		Methods: []script.Function{
			{Name: "push", Doc: "s:push(v) -> Exp\nPushes v (widening only); no value. A full stack refuses it and counts an overflow.", Fn: stackPush},
			{Name: "pop", Doc: "s:pop() -> Exp\nRemoves and yields the top; an empty stack yields 0 and counts an underflow.", Fn: stackPop},
			{Name: "depth", Doc: "s:depth() -> Exp\nThe number of elements on the stack (int).", Fn: stackDepth},
			{Name: "read", Doc: "s:read(rank) -> {bottom, ..., top}\nThe rank's elements in use now.", Fn: stackRead},
			{Name: "overflows", Doc: "s:overflows([rank]) -> n\nPushes refused on a full stack: on rank, or summed over every rank.", Fn: stackCounter(false)},
			{Name: "underflows", Doc: "s:underflows([rank]) -> n\nPops of an empty stack: on rank, or summed over every rank.", Fn: stackCounter(true)},
		},
		Meta: []script.Function{
			{Name: "__tostring", Doc: "tostring(s)", Fn: stackString},
		},
	})
}

// dataIndexInit makes a[i] index an array (methods still answer string keys).
func dataIndexInit(L *lua.LState) {
	mt := L.GetTypeMetatable(arrayTypeName).(*lua.LTable)
	methods, ok := mt.RawGetString("__index").(*lua.LTable)
	if !ok {
		return
	}
	mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		if k, ok := L.Get(2).(lua.LString); ok {
			L.Push(methods.RawGetString(string(k)))
			return 1
		}
		return arrayGet(L)
	}))
}

func checkArray(L *lua.LState, n int) *luaArray {
	return script.CheckObject[*luaArray](L, n, arrayTypeName)
}
func checkStack(L *lua.LState, n int) *luaStack {
	return script.CheckObject[*luaStack](L, n, stackTypeName)
}

// elemType reads an element type name: an unknown one is an error naming it.
func elemType(L *lua.LState, n int, what string) probes.Type {
	t, err := probes.ParseType(L.CheckString(n))
	if err != nil {
		L.ArgError(n, what+": "+script.ErrorText(err, "probes"))
	}
	return t
}

func appArray(L *lua.LState) int {
	app := checkApp1(L)
	arr, err := app.Array(elemType(L, 2, "array element type"), L.CheckInt(3), L.OptString(4, ""))
	if err != nil {
		return appErr(L, "array", err)
	}
	L.Push(script.NewObject(L, arrayTypeName, &luaArray{arr: arr, app: app}))
	return 1
}

func appStack(L *lua.LState) int {
	app := checkApp1(L)
	s, err := app.Stack(elemType(L, 2, "stack element type"), L.CheckInt(3), L.OptString(4, ""))
	if err != nil {
		return appErr(L, "stack", err)
	}
	L.Push(script.NewObject(L, stackTypeName, &luaStack{stk: s, app: app}))
	return 1
}

func appFuncName(L *lua.LState) int {
	name, err := checkApp1(L).FuncName(L.CheckInt(2))
	if err != nil {
		return appErr(L, "func_name", err)
	}
	L.Push(lua.LString(name))
	return 1
}

func arrayGet(L *lua.LState) int {
	a := checkArray(L, 1)
	return pushExp(L, a.arr.Name+"[]", probes.Index(a.arr, ProbeExpOf(L, 2)))
}

func arraySet(L *lua.LState) int {
	a := checkArray(L, 1)
	return pushExp(L, a.arr.Name+":set", probes.SetIndex(a.arr, ProbeExpOf(L, 2), ProbeExpOf(L, 3)))
}

func arraySize(L *lua.LState) int {
	L.Push(lua.LNumber(checkArray(L, 1).arr.N))
	return 1
}

func arrayType(L *lua.LState) int {
	L.Push(lua.LString(checkArray(L, 1).arr.T.String()))
	return 1
}

func arrayString(L *lua.LState) int {
	a := checkArray(L, 1).arr
	L.Push(lua.LString(fmt.Sprintf("Array %s %s[%d] at 0x%x", a.Name, a.T, a.N, a.Addr)))
	return 1
}

// valuesTable converts values to a Lua array (ints and int64 as numbers).
func valuesTable(L *lua.LState, vals []probes.Value) *lua.LTable {
	t := L.CreateTable(len(vals), 0)
	for _, v := range vals {
		if v.T == probes.Double {
			t.Append(lua.LNumber(v.F))
		} else {
			t.Append(lua.LNumber(v.I))
		}
	}
	return t
}

func arrayRead(L *lua.LState) int {
	a := checkArray(L, 1)
	vals, err := a.app.ReadValues(L.CheckInt(2), a.arr.Addr, probes.ElemMem(a.arr.T), a.arr.N)
	if err != nil {
		return appErr(L, "read", err)
	}
	L.Push(valuesTable(L, vals))
	return 1
}

// counterOf reads the int counter at addr on the rank given as argument 2, or its sum
// over every rank.
func counterOf(L *lua.LState, app *runtime.App, addr uint32) int {
	var n int64
	var err error
	if L.GetTop() >= 2 {
		var v []probes.Value
		v, err = app.ReadValues(L.CheckInt(2), addr, probes.MemI32, 1)
		if err == nil {
			n = v[0].I
		}
	} else {
		n, err = app.SumCounter(addr, nil)
	}
	if err != nil {
		return appErr(L, "counter", err)
	}
	L.Push(lua.LNumber(n))
	return 1
}

func arrayOverflows(L *lua.LState) int {
	a := checkArray(L, 1)
	return counterOf(L, a.app, a.arr.Over)
}

func stackPush(L *lua.LState) int {
	s := checkStack(L, 1)
	return pushExp(L, s.stk.Name+":push", probes.Push(s.stk, ProbeExpOf(L, 2)))
}

func stackPop(L *lua.LState) int {
	s := checkStack(L, 1)
	return pushExp(L, s.stk.Name+":pop", probes.Pop(s.stk))
}

func stackDepth(L *lua.LState) int {
	s := checkStack(L, 1)
	return pushExp(L, s.stk.Name+":depth", probes.Depth(s.stk))
}

func stackRead(L *lua.LState) int {
	s := checkStack(L, 1)
	rank := L.CheckInt(2)
	top, err := s.app.ReadValues(rank, s.stk.TopAddr(), probes.MemI32, 1)
	if err != nil {
		return appErr(L, "read", err)
	}
	n := int(min(max(top[0].I, 0), int64(s.stk.Depth)))
	vals, err := s.app.ReadValues(rank, s.stk.ElemAddr(0), probes.ElemMem(s.stk.T), n)
	if err != nil {
		return appErr(L, "read", err)
	}
	L.Push(valuesTable(L, vals))
	return 1
}

func stackCounter(under bool) lua.LGFunction {
	return func(L *lua.LState) int {
		s := checkStack(L, 1)
		addr := s.stk.OverAddr()
		if under {
			addr = s.stk.UnderAddr()
		}
		return counterOf(L, s.app, addr)
	}
}

func stackString(L *lua.LState) int {
	s := checkStack(L, 1).stk
	L.Push(lua.LString(fmt.Sprintf("Stack %s %s[%d] at 0x%x", s.Name, s.T, s.Depth, s.Addr)))
	return 1
}

func appGlobal(L *lua.LState) int {
	e, err := checkApp1(L).Prog.Global(L.CheckString(2))
	if err != nil {
		L.RaiseError("app:global: %s", script.ErrorText(err, "probes"))
	}
	L.Push(script.NewObject(L, probeTypeName, e))
	return 1
}

// expIndexInit lets a program global's lvalue reach its members (g.name) and elements
// (g[i]); string keys that name Exp methods stay methods (e:field(name) reaches a member
// a method hides).
func expIndexInit(L *lua.LState) {
	mt := L.GetTypeMetatable(probeTypeName).(*lua.LTable)
	methods, ok := mt.RawGetString("__index").(*lua.LTable)
	if !ok {
		return
	}
	mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		e := script.CheckObject[*probes.Exp](L, 1, probeTypeName)
		if k, ok := L.Get(2).(lua.LString); ok {
			if m := methods.RawGetString(string(k)); m != lua.LNil || e.Shape == nil {
				L.Push(m)
				return 1
			}
			return expMember(L, e, string(k))
		}
		return expElement(L, e, ProbeExpOf(L, 2))
	}))
}

func expMember(L *lua.LState, e *probes.Exp, name string) int {
	m, err := probes.Member(e, name)
	if err != nil {
		L.RaiseError("%s", script.ErrorText(err, "probes"))
	}
	L.Push(script.NewObject(L, probeTypeName, m))
	return 1
}

func expElement(L *lua.LState, e *probes.Exp, i *probes.Exp) int {
	m, err := probes.Element(e, i)
	if err != nil {
		L.RaiseError("%s", script.ErrorText(err, "probes"))
	}
	L.Push(script.NewObject(L, probeTypeName, m))
	return 1
}

func probeField(L *lua.LState) int {
	return expMember(L, script.CheckObject[*probes.Exp](L, 1, probeTypeName), L.CheckString(2))
}
