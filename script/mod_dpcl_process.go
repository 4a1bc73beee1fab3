package script

import (
	"fmt"

	"github.com/dpclsh/dpclsh/runtime"
	lua "github.com/yuin/gopher-lua"
)

const processTypeName = "dpcl.Process"

func init() {
	RegisterType(Type{
		Name: processTypeName,
		Doc:  "One rank's process, through its I/O node's debug interface.",
		Methods: []Function{
			{"status", `p:status() -> "running"|"blocked"|"exited"|"faulted", held`, processStatus},
			{"pc", "p:pc() -> Address", func(L *lua.LState) int { return processReg(L, "pc") }},
			{"reg", "p:reg(name) -> number\nr0-r31, f0-f31 (raw bits), pc, lr, ctr, cr, xer, fpscr.", func(L *lua.LState) int {
				return processReg(L, L.CheckString(2))
			}},
			{"read", "p:read(addr, n) -> string\nn bytes of memory at addr.", processRead},
			{"backtrace", "p:backtrace() -> {{addr=, func=, offset=, file=, line=}, ...}\nThe r1 back chain, symbolised.", processBacktrace},
		},
		Meta: []Function{
			{"__tostring", "", func(L *lua.LState) int {
				p := CheckObject[*runtime.Process](L, 1, processTypeName)
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
	L.Push(NewObject(L, processTypeName, p))
	return 1
}

func processErr(L *lua.LState, p *runtime.Process, err error) int {
	L.RaiseError("process %d: %s", p.Rank, ErrorText(err, "runtime"))
	return 0
}

func processStatus(L *lua.LState) int {
	p := CheckObject[*runtime.Process](L, 1, processTypeName)
	st, err := p.Status()
	if err != nil {
		return processErr(L, p, err)
	}
	L.Push(lua.LString(st.State))
	L.Push(lua.LBool(st.Held))
	return 2
}

func processReg(L *lua.LState, name string) int {
	p := CheckObject[*runtime.Process](L, 1, processTypeName)
	v, err := p.Reg(name)
	if err != nil {
		return processErr(L, p, err)
	}
	if name == "pc" || name == "lr" {
		L.Push(PushAddress(L, uint32(v)))
		return 1
	}
	L.Push(lua.LNumber(v))
	return 1
}

func processRead(L *lua.LState) int {
	p := CheckObject[*runtime.Process](L, 1, processTypeName)
	b, err := p.Read(CheckAddress(L, 2), uint32(L.CheckInt(3)))
	if err != nil {
		return processErr(L, p, err)
	}
	L.Push(lua.LString(b))
	return 1
}

func processBacktrace(L *lua.LState) int {
	p := CheckObject[*runtime.Process](L, 1, processTypeName)
	frames, err := p.Backtrace()
	if err != nil {
		return processErr(L, p, err)
	}
	t := L.NewTable()
	for _, f := range frames {
		row := L.NewTable()
		row.RawSetString("addr", PushAddress(L, f.Addr))
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
