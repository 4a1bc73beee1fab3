package dpcl

import (
	_ "embed"
	"strings"

	"github.com/dpclsh/dpclsh/script"
	"github.com/dpclsh/dpclsh/script/tracelang"
	lua "github.com/yuin/gopher-lua"
)

// traceLua compiles a checked trace program's tree to probe expressions, installs them
// and prints the maps; Go parses and checks (script/tracelang) and hands it the tree.
//
//go:embed trace.lua
var traceLua string

// tracePrintLua is the front-end's half: merging the tree's messages and printing maps.
//
//go:embed trace_print.lua
var tracePrintLua string

// traceChunkName is what errors inside trace.lua are reported as.
const traceChunkName = "dpcl.trace"

// traceModuleKey holds the session's compiled trace.lua module table.
var traceModuleKey = script.NewKey[*lua.LTable]("trace module")

var dpclTraceFuncs = []script.Function{
	{Name: "trace", Doc: `dpcl.trace(app, program [, {name = "stdin", run = true}]) -> result
Runs a bpftrace-style program (help in "dpclsh trace --help") over the job: probes
FUNC:entry, FUNC:exit (FUNC may hold * and ?), file.c:LINE, BEGIN, END,
interval:s|ms|us:N (virtual time; print and clear there act on the maps the ranks send
each period, merged in the tree; result.intervals lists what each printed), profile:hz:N
(samples counted by function: @m[func] = count(), read from app:sample); predicates
/expr/; maps @name[keys] = count(), sum(x), min(x), max(x), avg(x), stats(x), hist(x),
lhist(x, lo, hi, step) kept in rank memory and merged by key in the tree ("mapmerge")
when the ranks reach _exit; printf, and in BEGIN/END print(@m), clear(@m), exit().
With run (the default) it starts the job, waits for its end, runs END and prints every
map left in bpftrace's format; with run = false it only installs, and result:finish()
does the rest after the caller's own app:start() and app:wait(); result:interrupt() before
it stops a job still running (dpclsh trace's Ctrl-C): it holds the ranks, reads their maps
from their memory and ends the job. result.maps[name] maps
each printed key ("MPI_Send", "3", "MPI_Send, 3"; "" without keys; a ustack part is its
frames joined by newlines, "main+0x548 (ring.c:34)\n...") to its value: a
number, {count=, average=, total=} for stats, the bucket counts (a list) for hist and
lhist. Errors name the program's line and column with a caret.`, Fn: dpclTrace},
}

func dpclTrace(L *lua.LState) int {
	L.CheckUserData(1)
	src := L.CheckString(2)
	opts := L.OptTable(3, L.NewTable())
	name := "stdin"
	if v, ok := opts.RawGetString("name").(lua.LString); ok {
		name = string(v)
	}
	prog, err := tracelang.Parse(name, src)
	if err == nil {
		_, err = tracelang.Check(prog)
	}
	if err != nil {
		L.RaiseError("%s", err.Error())
		return 0
	}
	mod := traceModuleKey.GetOrInit(script.SessionOf(L), func() *lua.LTable {
		t := L.NewTable()
		for _, chunk := range []struct{ src, name string }{{traceLua, traceChunkName}, {tracePrintLua, traceChunkName + " print"}} {
			fn, err := L.Load(strings.NewReader(chunk.src), chunk.name)
			if err != nil {
				L.RaiseError("%s: %v", chunk.name, err)
			}
			script.SessionOf(L).MarkInternal(chunk.name)
			L.Push(fn)
			L.Push(t)
			L.Call(1, 1)
			if got, ok := L.Get(-1).(*lua.LTable); ok {
				t = got
			}
			L.Pop(1)
		}
		return t
	})
	L.Push(mod.RawGetString("run"))
	L.Push(L.Get(1))
	L.Push(programTable(L, prog))
	L.Push(opts)
	// Errors are raised again from Go, as the checker's are, so that the program's
	// "name:line:col:" is not read as a position in a Lua chunk.
	if err := L.PCall(3, 1, nil); err != nil {
		msg := err.Error()
		if api, ok := err.(*lua.ApiError); ok {
			msg = api.Object.String()
		}
		L.RaiseError("%s", msg)
	}
	return 1
}

// programTable hands the checked tree to trace.lua: blocks of probes, predicate and
// statements, expressions as nested tables, and the source lines for its own carets.
func programTable(L *lua.LState, prog *tracelang.Program) *lua.LTable {
	t := L.NewTable()
	t.RawSetString("name", lua.LString(prog.Name))
	t.RawSetString("src", lua.LString(prog.Src))
	t.RawSetString("ustack_depth", lua.LNumber(tracelang.UstackDepth))
	blocks := L.NewTable()
	for _, b := range prog.Blocks {
		bt := L.NewTable()
		setPos(L, bt, b.Pos)
		probes := L.NewTable()
		for _, p := range b.Probes {
			pt := L.NewTable()
			setPos(L, pt, p.Pos)
			pt.RawSetString("text", lua.LString(p.Text))
			pt.RawSetString("kind", lua.LString(p.Kind))
			pt.RawSetString("func", lua.LString(p.Func))
			pt.RawSetString("line", lua.LNumber(p.Line))
			pt.RawSetString("unit", lua.LString(p.Unit))
			pt.RawSetString("n", lua.LNumber(p.N))
			probes.Append(pt)
		}
		bt.RawSetString("probes", probes)
		if b.Pred != nil {
			bt.RawSetString("pred", exprTable(L, b.Pred))
		}
		body := L.NewTable()
		for _, s := range b.Body {
			body.Append(stmtTable(L, s))
		}
		bt.RawSetString("body", body)
		blocks.Append(bt)
	}
	t.RawSetString("blocks", blocks)
	return t
}

func setPos(L *lua.LState, t *lua.LTable, p tracelang.Pos) {
	t.RawSetString("line_no", lua.LNumber(p.Line))
	t.RawSetString("col", lua.LNumber(p.Col))
}

func stmtTable(L *lua.LState, s *tracelang.Stmt) *lua.LTable {
	t := L.NewTable()
	setPos(L, t, s.Pos)
	t.RawSetString("kind", lua.LString(s.Kind))
	t.RawSetString("map", lua.LString(s.Map))
	t.RawSetString("var", lua.LString(s.Var))
	keys := L.NewTable()
	for _, k := range s.Keys {
		keys.Append(exprTable(L, k))
	}
	t.RawSetString("keys", keys)
	if s.Agg != nil {
		t.RawSetString("agg", exprTable(L, s.Agg))
	}
	if s.X != nil {
		t.RawSetString("x", exprTable(L, s.X))
	}
	return t
}

func exprTable(L *lua.LState, e *tracelang.Expr) *lua.LTable {
	t := L.NewTable()
	setPos(L, t, e.Pos)
	t.RawSetString("kind", lua.LString(e.Kind))
	t.RawSetString("int", lua.LNumber(e.Int))
	t.RawSetString("str", lua.LString(e.Str))
	t.RawSetString("name", lua.LString(e.Name))
	t.RawSetString("op", lua.LString(e.Op))
	if e.X != nil {
		t.RawSetString("x", exprTable(L, e.X))
	}
	if e.Y != nil {
		t.RawSetString("y", exprTable(L, e.Y))
	}
	args := L.NewTable()
	for _, a := range e.Args {
		args.Append(exprTable(L, a))
	}
	t.RawSetString("args", args)
	return t
}
