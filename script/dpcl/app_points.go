package dpcl

import (
	"fmt"
	"github.com/dpclsh/dpclsh/script"
	"sort"

	"github.com/dpclsh/dpclsh/probes"
	lua "github.com/yuin/gopher-lua"
)

const appFunctionsDoc = `app:functions([glob]) | app:functions{regex = "^MPI_"} -> {{name=, addr=, size=, file=, line=}, ...}
The program's functions matching a glob (default "*") or a Go regular expression, sorted by
address. A pattern that matches nothing is an error listing the closest names.`

const appPointsDoc = `app:points(what [, "entry"|"exit"|"call"|"inlined"]) -> {Point, ...}
What to probe: a function glob ("MPI_*") with a kind (default "entry"; "call" gives the
call sites inside the functions, point.target the callee; "inlined" the starts of the
copies the compiler expanded into callers, whose calls the function's entry never sees —
probing entry or exit of a function that has such copies says so on stderr);
"file.c:LINE", every place that source line's code begins (from DWARF: its statement
starts and each block of its code entered from elsewhere, inlined copies included; the
sites chosen and their functions are noted on stderr; a line without code is an error
naming the nearest lines with code); an address (an instruction boundary inside a function); or a table
{regex = "^MPI_(Send|Recv)$", kind = "exit"} selecting functions by Go regexp. A function
pattern that matches nothing is an error with a "did you mean" list.
Points are userdata with fields func, kind, addr, file, line, target.`

// matchFunctions resolves app:functions' and app:points' function selection at argument
// n: a glob string, or a table with regex (a Go regexp) or glob. It returns the table's
// kind too, when there is one.
func matchFunctions(L *lua.LState, prog *probes.Program, n int, def string) ([]probes.Func, string, error) {
	switch v := L.Get(n).(type) {
	case lua.LString:
		fns, err := prog.MatchSome(string(v))
		return fns, "", err
	case *lua.LNilType:
		fns, err := prog.MatchSome(def)
		return fns, "", err
	case *lua.LTable:
		kind := ""
		if k, ok := v.RawGetString("kind").(lua.LString); ok {
			kind = string(k)
		}
		var known = map[string]bool{"regex": true, "glob": true, "kind": true}
		var bad string
		v.ForEach(func(k, _ lua.LValue) {
			if ks, ok := k.(lua.LString); !ok || !known[string(ks)] {
				bad = k.String()
			}
		})
		if bad != "" {
			L.ArgError(n, fmt.Sprintf("unknown key %q (regex, glob, kind)", bad))
		}
		if re, ok := v.RawGetString("regex").(lua.LString); ok {
			fns, err := prog.MatchRegexp(string(re))
			return fns, kind, err
		}
		if g, ok := v.RawGetString("glob").(lua.LString); ok {
			fns, err := prog.MatchSome(string(g))
			return fns, kind, err
		}
		L.ArgError(n, "a selection table needs regex or glob")
	default:
		L.ArgError(n, "a function glob, a \"file.c:LINE\", an address or {regex =, kind =} expected")
	}
	return nil, "", nil
}

func appFunctions(L *lua.LState) int {
	app := checkApp1(L)
	fns, _, err := matchFunctions(L, app.Prog, 2, "*")
	if err != nil {
		return appErr(L, "functions", err)
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].Addr < fns[j].Addr })
	t := L.NewTable()
	for _, f := range fns {
		row := L.NewTable()
		row.RawSetString("name", lua.LString(f.Name))
		row.RawSetString("addr", script.PushAddress(L, f.Addr))
		row.RawSetString("size", lua.LNumber(f.Size))
		if f.File != "" {
			row.RawSetString("file", lua.LString(f.File))
			row.RawSetString("line", lua.LNumber(f.Line))
		}
		t.Append(row)
	}
	L.Push(t)
	return 1
}

func appPoints(L *lua.LState) int {
	app := checkApp1(L)
	var pts []probes.Point
	arg := L.Get(2)
	if ud, ok := arg.(*lua.LUserData); ok {
		if _, isAddr := ud.Value.(script.Address); isAddr {
			arg = script.AddressNumber(arg)
		}
	}
	switch v := arg.(type) {
	case lua.LNumber:
		addr := float64(v)
		if addr < 0 || addr > 0xffffffff || addr != float64(uint32(addr)) {
			L.ArgError(2, fmt.Sprintf("address %v is not a 32-bit address", addr))
		}
		p, err := app.Prog.PointAt(uint32(addr))
		if err != nil {
			return appErr(L, "points", err)
		}
		pts = []probes.Point{p}
	case lua.LString:
		if file, line, ok := probes.ParseLineSpec(string(v)); ok {
			lp, err := app.Prog.LinePoints(file, line)
			if err != nil {
				return appErr(L, "points", err)
			}
			pts = lp
			notePoints(L, string(v), app.Prog, pts, "line")
			break
		}
		if L.OptString(3, "") == "inlined" {
			pts = inlinedPoints(L, app.Prog, string(v))
			break
		}
		pts = functionPoints(L, app.Prog, L.OptString(3, "entry"))
		notePoints(L, string(v), app.Prog, pts, L.OptString(3, "entry"))
	default:
		pts = functionPoints(L, app.Prog, "")
	}
	t := L.NewTable()
	for _, p := range pts {
		t.Append(script.NewObject(L, pointTypeName, p))
	}
	L.Push(t)
	return 1
}

// functionPoints gives the points of kind of the functions app:points' argument selects;
// a selection table's own kind wins over the argument's.
func functionPoints(L *lua.LState, prog *probes.Program, kindArg string) []probes.Point {
	fns, kindName, err := matchFunctions(L, prog, 2, "*")
	if err != nil {
		appErr(L, "points", inlinedOnly(prog, L.Get(2), err))
	}
	if kindName == "" {
		kindName = kindArg
	}
	if kindName == "" {
		kindName = L.OptString(3, "entry")
	}
	kind, err := probes.ParsePointKind(kindName)
	if err != nil {
		L.ArgError(3, err.Error())
	}
	var out []probes.Point
	for _, f := range fns {
		p, err := prog.Points(f, kind)
		if err != nil {
			appErr(L, "points", err)
		}
		out = append(out, p...)
	}
	return out
}
