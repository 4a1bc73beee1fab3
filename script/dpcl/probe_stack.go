package dpcl

import (
	"strconv"

	"github.com/dpclsh/dpclsh/probes"
	"github.com/dpclsh/dpclsh/script"
	lua "github.com/yuin/gopher-lua"
)

// probeStackFuncs are the probe module's registers and call stack.
var probeStackFuncs = []script.Function{
	{Name: "reg", Doc: `probe.reg(name) -> Exp
Register name as the program had it at the point (int): "r0".."r31", "sp" (r1) or "lr".
probe.reg("r3") at an entry is the first argument, at an exit the return value.`, Fn: probeReg},
	{Name: "lr", Doc: `probe.lr() -> Exp
The link register at the point (int): at a function entry, the address it returns to.`, Fn: probeNullary(probes.LR)},
	{Name: "sp", Doc: `probe.sp() -> Exp
The program's stack pointer r1 at the point (int).`, Fn: probeNullary(probes.SP)},
	{Name: "ustack", Doc: `probe.ustack(depth) -> Exp
The call stack, only as an operand of probe.send: depth return addresses (ints), innermost
first — LR, then the LR each frame of the r1 back chain saved. At a function's entry or
exit this is the chain of callers. The walk stops at a null, non-increasing or unmapped
frame (an unmapped one counts a fault; the rank never stops); the rest are 0. depth is
1..256. app:symbolize(values) names them; filter "eqclass" with params {key = depth}
groups ranks by call path. Cost: 18 instructions (two loads) per frame walked.`, Fn: probeUstack},
}

// appStackMethods are the application methods that read sent stacks.
var appStackMethods = []script.Function{
	{Name: "symbolize", Doc: `app:symbolize(pc) -> string
app:symbolize({pc, ...}) -> {string, ...}
Names return addresses (probe.lr(), probe.ustack): "function+0xoff (file.c:line)", the line
of the call from DWARF; a table stops at its first 0 (where the stack walk ended).`, Fn: appSymbolize},
}

func probeReg(L *lua.LState) int {
	n, err := probes.ParseReg(L.CheckString(1))
	if err != nil {
		L.ArgError(1, script.ErrorText(err, "probes"))
	}
	return pushExp(L, "probe.reg", probes.Reg(n))
}

// probeUstack returns the stack unchecked: it has no value of its own, only send takes it.
func probeUstack(L *lua.LState) int {
	e := probes.Ustack(L.CheckInt(1))
	if _, err := probes.Check(probes.Send(e)); err != nil {
		L.ArgError(1, script.ErrorText(err, "probes"))
	}
	L.Push(script.NewObject(L, probeTypeName, e))
	return 1
}

func appSymbolize(L *lua.LState) int {
	prog := checkApp1(L).Prog
	if pc, ok := pcOf(L.Get(2)); ok {
		L.Push(lua.LString(prog.FrameAt(pc).String()))
		return 1
	}
	switch v := L.Get(2).(type) {
	case *lua.LTable:
		var pcs []uint32
		for i := 1; i <= v.Len(); i++ {
			pc, ok := pcOf(v.RawGetInt(i))
			if !ok {
				L.ArgError(2, "value "+strconv.Itoa(i)+" of the stack is a "+v.RawGetInt(i).Type().String()+", not an address")
			}
			pcs = append(pcs, pc)
		}
		out := L.NewTable()
		for _, f := range prog.Stack(pcs) {
			out.Append(lua.LString(f.String()))
		}
		L.Push(out)
	default:
		L.ArgError(2, "an address or a table of addresses expected, got "+L.Get(2).Type().String())
	}
	return 1
}

// pcOf reads an address: a number (as a probe sends it, sign-extended) or an Address.
func pcOf(v lua.LValue) (uint32, bool) {
	switch x := v.(type) {
	case lua.LNumber:
		return uint32(int64(x)), true
	case *lua.LUserData:
		a, ok := x.Value.(script.Address)
		return uint32(a), ok
	}
	return 0, false
}
