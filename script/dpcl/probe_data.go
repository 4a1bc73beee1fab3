package dpcl

import (
	"github.com/dpclsh/dpclsh/bgl/abi"
	"github.com/dpclsh/dpclsh/probes"
	"github.com/dpclsh/dpclsh/script"
	lua "github.com/yuin/gopher-lua"
)

// probeDataFuncs are the probe module's functions over program memory and point identity.
var probeDataFuncs = []script.Function{
	{Name: "point", Doc: `probe.point() -> Exp
The index (0-based, int) of the point the probe fires at in the list it was installed on;
-1 in app:execute.`, Fn: probeNullary(probes.PointIndex)},
	{Name: "func", Doc: `probe.func() -> Exp
An id (int) of the function containing the point: app:func_name(id) names it; ids are
0-based indices among app:functions("*"), so one snippet on many points can index an
array by function. -1 in app:execute.`, Fn: probeNullary(probes.FuncIndex)},
	{Name: "load", Doc: `probe.load(addr, type [, offset]) -> Exp
Reads a value of C type type at addr + offset of the program's memory: "char", "uchar",
"short", "ushort", "int", "unsigned", "int64" ("long long"), "uint64", "float", "double",
"pointer" (an int). unsigned reads as int64, float as double. A load from memory the
node cannot read yields 0 and counts a fault (h:stats().faults); the rank goes on.`, Fn: probeLoad},
	{Name: "store", Doc: `probe.store(addr, v [, type [, offset]]) -> Exp
Writes v at addr + offset as C type type (default: v's own type); the value is what the
memory now holds. A store to memory the node cannot write does nothing and counts a fault.`, Fn: probeStore},
}

// expDataMethods are the Exp methods of the data half of the language.
var expDataMethods = []script.Function{
	{Name: "deref", Doc: `e:deref([type [, offset]]) -> Exp
Reads a value of C type type at the address e (an int: a pointer argument, a global
pointer) plus offset; see probe.load. probe.arg(0):deref("int", 4) reads the second int
the first argument points to. Without a type, a pointer global's DWARF pointee type is
used: app:global("gp"):deref().n.`, Fn: probeDeref},
	{Name: "field", Doc: `g:field(name) -> Exp
The member name of a struct global (the same as g.name, for a member a method name hides).`, Fn: probeField},
}

// memType reads a C type name argument.
func memType(L *lua.LState, n int) probes.MemType {
	m, err := probes.ParseMemType(L.CheckString(n))
	if err != nil {
		L.ArgError(n, script.ErrorText(err, "probes"))
	}
	return m
}

func probeLoad(L *lua.LState) int {
	addr := ProbeExpOf(L, 1)
	return pushExp(L, "probe.load", probes.Load(addr, memType(L, 2), int32(L.OptInt(3, 0))))
}

func probeStore(L *lua.LState) int {
	addr, x := ProbeExpOf(L, 1), ProbeExpOf(L, 2)
	m := probes.MemNone
	if L.GetTop() >= 3 && L.Get(3) != lua.LNil {
		m = memType(L, 3)
	} else {
		t, err := probes.Check(x)
		if err != nil {
			L.RaiseError("probe.store: %s", script.ErrorText(err, "probes"))
		}
		m = probes.ElemMem(t)
	}
	return pushExp(L, "probe.store", probes.Store(addr, m, int32(L.OptInt(4, 0)), x))
}

func probeDeref(L *lua.LState) int {
	e := script.CheckObject[*probes.Exp](L, 1, probeTypeName)
	if L.GetTop() < 2 {
		d, err := probes.Deref(e)
		if err != nil {
			L.RaiseError("%s", script.ErrorText(err, "probes"))
		}
		L.Push(script.NewObject(L, probeTypeName, d))
		return 1
	}
	return pushExp(L, "deref", probes.Load(e, memType(L, 2), int32(L.OptInt(3, 0))))
}

// sendArgs converts probe.send's arguments: expressions, numbers, and whole arrays.
func sendArgs(L *lua.LState) []*probes.Exp {
	var es []*probes.Exp
	for i := 1; i <= L.GetTop(); i++ {
		if ud, ok := L.Get(i).(*lua.LUserData); ok {
			if a, ok := ud.Value.(*luaArray); ok {
				es = append(es, probes.Whole(a.arr))
				continue
			}
		}
		es = append(es, ProbeExpOf(L, i))
	}
	return es
}

// probeDataInit finishes the probe module in a session: array indexing, and the machine's
// timebase frequency in the dpcl module.
func probeDataInit(s *script.Session, _ *lua.LTable) {
	dataIndexInit(s.L)
	expIndexInit(s.L)
}

// dpclDataInit sets dpcl.timebase_hz: the rate of probe.timebase() and mftb.
func dpclDataInit(_ *script.Session, mod *lua.LTable) {
	mod.RawSetString("timebase_hz", lua.LNumber(abi.ClockHz))
}
