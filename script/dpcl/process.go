package dpcl

import (
	"fmt"
	"github.com/dpclsh/dpclsh/script"

	"github.com/dpclsh/dpclsh/runtime"
	lua "github.com/yuin/gopher-lua"
)

const processTypeName = "dpcl.Process"

func init() {
	script.RegisterType(script.Type{
		Name: processTypeName, Receiver: "p",
		Doc: "One rank's process, through its I/O node's debug interface.",
		Methods: []script.Function{
			{Name: "status", Doc: `p:status() -> "created"|"running"|"blocked"|"exited"|"faulted", held`, Fn: processStatus},
			{Name: "pc", Doc: "p:pc() -> Address", Fn: func(L *lua.LState) int { return processReg(L, "pc") }},
			{Name: "reg", Doc: "p:reg(name) -> number\nr0-r31, f0-f31 (raw bits), pc, lr, ctr, cr, xer, fpscr.", Fn: func(L *lua.LState) int {
				return processReg(L, L.CheckString(2))
			}},
			{Name: "read", Doc: "p:read(addr, n) -> string\nn bytes of memory at addr.", Fn: processRead},
			{Name: "backtrace", Doc: "p:backtrace() -> {{addr=, func=, offset=, file=, line=}, ...}\nThe r1 back chain, symbolised.", Fn: processBacktrace},
		},
		Meta: []script.Function{
			{Name: "__tostring", Doc: "", Fn: func(L *lua.LState) int {
				p := script.CheckObject[*runtime.Process](L, 1, processTypeName)
				L.Push(lua.LString(fmt.Sprintf("Process rank %d", p.Rank)))
				return 1
			}},
		},
	})
}

func appProcess(L *lua.LState) int {
	app := checkApp1(L)
	p, err := app.Process(L.CheckInt(2))
	if err != nil {
		return appErr(L, "process", err)
	}
	L.Push(script.NewObject(L, processTypeName, p))
	return 1
}

func processErr(L *lua.LState, p *runtime.Process, err error) int {
	L.RaiseError("process %d: %s", p.Rank, script.ErrorText(err, "runtime"))
	return 0
}

func processStatus(L *lua.LState) int {
	p := script.CheckObject[*runtime.Process](L, 1, processTypeName)
	st, err := p.Status()
	if err != nil {
		return processErr(L, p, err)
	}
	L.Push(lua.LString(st.State))
	L.Push(lua.LBool(st.Held))
	return 2
}

func processReg(L *lua.LState, name string) int {
	p := script.CheckObject[*runtime.Process](L, 1, processTypeName)
	v, err := p.Reg(name)
	if err != nil {
		return processErr(L, p, err)
	}
	if name == "pc" || name == "lr" {
		L.Push(script.PushAddress(L, uint32(v)))
		return 1
	}
	L.Push(lua.LNumber(v))
	return 1
}

func processRead(L *lua.LState) int {
	p := script.CheckObject[*runtime.Process](L, 1, processTypeName)
	b, err := p.Read(script.CheckAddress(L, 2), uint32(L.CheckInt(3)))
	if err != nil {
		return processErr(L, p, err)
	}
	L.Push(lua.LString(b))
	return 1
}

func processBacktrace(L *lua.LState) int {
	p := script.CheckObject[*runtime.Process](L, 1, processTypeName)
	frames, err := p.Backtrace()
	if err != nil {
		return processErr(L, p, err)
	}
	t := L.NewTable()
	for _, f := range frames {
		row := L.NewTable()
		row.RawSetString("addr", script.PushAddress(L, f.Addr))
		if f.Func != "" {
			row.RawSetString("func", lua.LString(f.Func))
			row.RawSetString("offset", lua.LNumber(f.Offset))
		}
		if f.File != "" {
			row.RawSetString("file", lua.LString(f.File))
			row.RawSetString("line", lua.LNumber(f.Line))
		}
		t.Append(row)
	}
	L.Push(t)
	return 1
}
