package script

import (
	"io"
	"strings"

	"github.com/kr/pretty"
	lua "github.com/yuin/gopher-lua"
)

// hostFuncs replace or extend the standard library so that output goes where the session
// says (through the line editor in the REPL) and os.exit ends the session cleanly instead
// of killing the process.
var hostFuncs = []struct {
	table string // "" for a global
	fn    Function
}{
	{"", Function{"print", "print(...)\nWrites its arguments, converted by tostring and separated by tabs, and a newline.", hostPrint}},
	{"", Function{"pp", "pp(...)\nPrints each value in Lua syntax: tables with sorted keys, nested tables indented,\ncycles marked, objects through their __tostring.", hostPP}},
	{"", Function{"dump", "dump(x)\nShows the Go value behind an object (a userdata) field by field; other values as pp does.", hostDump}},
	{"", Function{"help", "help([x])\nDescribes a module, function or object from the doc its binding registered.\nhelp(\"ctx.all\") looks the name up; help() lists the modules.", hostHelp}},
	{"", Function{"sethelp", "sethelp(value, text)\nAttaches help text to a function or table of your own; the first line is its call form.", hostSetHelp}},
	{"io", Function{"write", "io.write(...)\nWrites strings and numbers to the session's output without a newline.", hostWrite}},
	{"os", Function{"mkdir", osMkdirDoc, hostMkdir}},
	{"os", Function{"exit", "os.exit([code])\nEnds the session: resources are closed, history saved, the process exits with\ncode (true = 0, false = 1, default 0). pcall cannot catch it.", hostExit}},
}

func installHostFuncs(s *Session) {
	L := s.L
	for _, h := range hostFuncs {
		fn := L.NewFunction(h.fn.Fn)
		name := h.fn.Name
		if h.table == "" {
			L.SetGlobal(name, fn)
		} else if t, ok := L.GetGlobal(h.table).(*lua.LTable); ok {
			t.RawSetString(name, fn)
			name = h.table + "." + name
		}
		s.docs.addFunc(fn, name, h.fn.Doc)
	}
	installAddressConversions(L)
}

func hostPrint(L *lua.LState) int {
	parts := make([]string, L.GetTop())
	for i := range parts {
		parts[i] = L.ToStringMeta(L.Get(i + 1)).String()
	}
	io.WriteString(SessionOf(L).Stdout(), strings.Join(parts, "\t")+"\n")
	return 0
}

func hostPP(L *lua.LState) int {
	parts := make([]string, L.GetTop())
	for i := range parts {
		parts[i] = Format(L, L.Get(i+1), DefaultFormat)
	}
	io.WriteString(SessionOf(L).Stdout(), strings.Join(parts, "\t")+"\n")
	return 0
}

func hostDump(L *lua.LState) int {
	v := L.Get(1)
	text := Format(L, v, DefaultFormat)
	if ud, ok := v.(*lua.LUserData); ok {
		text = pretty.Sprintf("%# v", ud.Value)
	}
	io.WriteString(SessionOf(L).Stdout(), text+"\n")
	return 0
}

func hostHelp(L *lua.LState) int {
	s := SessionOf(L)
	s.Help(s.Stdout(), L.Get(1))
	return 0
}

func hostSetHelp(L *lua.LState) int {
	s := SessionOf(L)
	text := L.CheckString(2)
	switch v := L.Get(1).(type) {
	case *lua.LFunction:
		s.docs.addFunc(v, s.nameOf(v), text)
	case *lua.LTable:
		s.docs.addTable(v, s.nameOf(v), text)
	default:
		L.ArgError(1, "function or table expected, got "+v.Type().String())
	}
	return 0
}

func hostWrite(L *lua.LState) int {
	w := SessionOf(L).Stdout()
	for i := 1; i <= L.GetTop(); i++ {
		switch v := L.Get(i).(type) {
		case lua.LString:
			io.WriteString(w, string(v))
		case lua.LNumber:
			io.WriteString(w, v.String())
		default:
			L.ArgError(i, "string expected, got "+v.Type().String())
		}
	}
	return 0
}

func hostExit(L *lua.LState) int {
	code := 0
	switch v := L.Get(1).(type) {
	case lua.LBool:
		if !v {
			code = 1
		}
	case lua.LNumber:
		code = int(v)
	case *lua.LNilType:
	default:
		L.ArgError(1, "number or boolean expected, got "+v.Type().String())
	}
	SessionOf(L).Exit(code)
	L.RaiseError("os.exit(%d)", code)
	return 0
}
