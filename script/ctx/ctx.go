package ctx

import (
	"fmt"
	"github.com/dpclsh/dpclsh/script"

	"github.com/dpclsh/dpclsh/contexts"
	lua "github.com/yuin/gopher-lua"
)

// CtxApp is what the ctx constructors accept in place of a plain size: the Go value held
// by a userdata argument (an application, or a context) that knows its number of ranks.
type CtxApp interface {
	Size() int
}

// CtxIONodeApp is a CtxApp that also knows which I/O node serves each rank (0-based);
// ctx.ionode(app, k) selects the ranks r with IONodeOf(r) == k.
type CtxIONodeApp interface {
	CtxApp
	IONodeOf(rank int) int
}

func init() {
	script.RegisterModule(script.Module{
		Name: "ctx",
		Doc: `ctx — probe contexts: sets of ranks, their algebra, and an optional aggregation.
Every constructor takes an application (anything whose object knows its size, e.g. the
result of dpcl.launch), a context (its size is used) or a plain number of ranks.
Operators: a + b (union, "merge"), a * b (intersection), a - b (difference), -a
(complement, "invert"), #a (members), a == b (same size and members). Combining contexts
of different sizes is an error naming both sizes. Specs are compact: "0-15,17,32-63".`,
		Funcs: []script.Function{
			{Name: "all", Doc: "ctx.all(app|n) -> Context\nEvery rank: the default context of a classic DPCL probe.", Fn: ctxAll},
			{Name: "none", Doc: "ctx.none(app|n) -> Context\nNo rank.", Fn: ctxNone},
			{Name: "single", Doc: "ctx.single(app|n, rank) -> Context\nOne rank (0-based).", Fn: ctxSingle},
			{Name: "ranks", Doc: "ctx.ranks(app|n, spec|list) -> Context\nThe ranks of a compact spec (\"0-127,200\") or of a Lua array ({1, 2, 3}).", Fn: ctxRanks},
			{Name: "where", Doc: "ctx.where(app|n, fn) -> Context\nThe ranks r for which fn(r) is true (called once per rank, in order).", Fn: ctxWhere},
			{Name: "ionode", Doc: `ctx.ionode(app, k) -> Context | ctx.ionode(n, k [, per_io]) -> Context
The ranks served by I/O node k (0-based). With an application, its own rank-to-I/O-node
map is used. With a plain size, ranks are grouped consecutively, per_io (default 64, as on
the LLNL BG/L) per I/O node: node k serves ranks k*per_io to (k+1)*per_io - 1.`, Fn: ctxIONode},
			{Name: "box", Doc: `ctx.box(app|n, {X, Y, Z}, {x0, y0, z0}, {x1, y1, z1}) -> Context
The ranks whose nodes lie in the box x0..x1, y0..y1, z0..z1 (inclusive) of an X×Y×Z torus,
rank r being at x = r % X, y = (r // X) % Y, z = r // (X*Y). A low bound above the high
bound wraps around the torus on that axis.`, Fn: ctxBox},
		},
		Init: func(_ *script.Session, mod *lua.LTable) {
			mod.RawSetString("max_size", lua.LNumber(contexts.MaxSize))
			mod.RawSetString("default_per_io", lua.LNumber(contexts.DefaultPerIO))
		},
	})
}

// ctxTypeName is the metatable name of Context objects.
const ctxTypeName = "ctx.Context"

// pushCtx returns c to Lua as a new Context object.
func pushCtx(L *lua.LState, c *contexts.Context) int {
	L.Push(script.NewObject(L, ctxTypeName, c))
	return 1
}

// raiseCtx raises err as a Lua error of function fn, without the Go package prefix.
func raiseCtx(L *lua.LState, fn string, err error) int {
	L.RaiseError("%s: %s", fn, setErrText(err))
	return 0
}

// checkApp returns the size behind argument n: an application or context object, or a
// plain number of ranks.
func checkApp(L *lua.LState, n int) (int, any) {
	switch v := L.Get(n).(type) {
	case lua.LNumber:
		size := script.CheckInt(L, n, "size")
		if err := contexts.CheckSize(size); err != nil {
			L.ArgError(n, setErrText(err))
		}
		return size, nil
	case *lua.LUserData:
		if app, ok := v.Value.(CtxApp); ok {
			return app.Size(), app
		}
	}
	L.ArgError(n, "application or size expected, got "+script.Describe(L.Get(n)))
	return 0, nil
}

func ctxAll(L *lua.LState) int {
	n, _ := checkApp(L, 1)
	return pushCtx(L, contexts.Default(n))
}

func ctxNone(L *lua.LState) int {
	n, _ := checkApp(L, 1)
	return pushCtx(L, &contexts.Context{Set: contexts.None(n)})
}

func ctxSingle(L *lua.LState) int {
	n, _ := checkApp(L, 1)
	s, err := contexts.Single(n, script.CheckInt(L, 2, "rank"))
	if err != nil {
		return raiseCtx(L, "ctx.single", err)
	}
	return pushCtx(L, &contexts.Context{Set: s})
}

func ctxRanks(L *lua.LState) int {
	n, _ := checkApp(L, 1)
	s := contexts.None(n)
	if err := addRanksArg(L, s, 2); err != nil {
		return raiseCtx(L, "ctx.ranks", err)
	}
	return pushCtx(L, &contexts.Context{Set: s})
}

// addRanksArg adds the ranks given by argument n — a rank, a spec string, a Lua array of
// ranks or a context — to s.
func addRanksArg(L *lua.LState, s *contexts.Set, n int) error {
	o, err := ranksArg(L, s.Size(), n)
	if err != nil {
		return err
	}
	return s.AddSet(o)
}

// ranksArg converts argument n — a rank, a spec string, a Lua array of ranks or a context —
// to a set over [0, size).
func ranksArg(L *lua.LState, size, n int) (*contexts.Set, error) {
	switch v := L.Get(n).(type) {
	case lua.LNumber:
		return contexts.Single(size, script.CheckInt(L, n, "rank"))
	case lua.LString:
		return contexts.Parse(size, string(v))
	case *lua.LTable:
		return listArg(v, size)
	case *lua.LUserData:
		if c, ok := v.Value.(*contexts.Context); ok {
			return c.Set, nil
		}
	}
	L.ArgError(n, "rank, spec string, list of ranks or context expected, got "+script.Describe(L.Get(n)))
	return nil, nil
}

// listArg reads a Lua array of ranks; anything but integers at 1..#t is an error.
func listArg(t *lua.LTable, size int) (*contexts.Set, error) {
	s := contexts.None(size)
	n := t.Len()
	for i := 1; i <= n; i++ {
		v := t.RawGetInt(i)
		r, ok := script.LuaInt(v)
		if !ok {
			return nil, fmt.Errorf("list item %d: rank must be an integer, got %s", i, script.Describe(v))
		}
		if err := s.Add(r); err != nil {
			return nil, fmt.Errorf("list item %d: %s", i, setErrText(err))
		}
	}
	extra := 0
	t.ForEach(func(lua.LValue, lua.LValue) { extra++ })
	if extra != n {
		return nil, fmt.Errorf("list of ranks has %d keys besides items 1 to %d", extra-n, n)
	}
	return s, nil
}

func ctxWhere(L *lua.LState) int {
	n, _ := checkApp(L, 1)
	fn := L.CheckFunction(2)
	sess := script.SessionOf(L)
	s, err := contexts.TryWhere(n, func(r int) (bool, error) {
		out, err := sess.Call(fn, lua.LNumber(r))
		if err != nil {
			return false, err
		}
		return len(out) > 0 && lua.LVAsBool(out[0]), nil
	})
	if err != nil {
		return raiseCtx(L, "ctx.where", err)
	}
	return pushCtx(L, &contexts.Context{Set: s})
}

func ctxIONode(L *lua.LState) int {
	n, app := checkApp(L, 1)
	k := script.CheckInt(L, 2, "I/O node")
	if app, ok := app.(CtxIONodeApp); ok {
		if L.GetTop() > 2 {
			L.ArgError(3, "per_io applies to a plain size only; an application has its own I/O node map")
		}
		s, _ := contexts.Where(n, func(r int) bool { return app.IONodeOf(r) == k })
		if s.Empty() {
			L.RaiseError("ctx.ionode: I/O node %d serves no rank of this application", k)
		}
		return pushCtx(L, &contexts.Context{Set: s})
	}
	if app != nil {
		L.ArgError(1, "this object has no I/O node map; pass a plain size and per_io instead")
	}
	perIO := contexts.DefaultPerIO
	if L.GetTop() > 2 {
		perIO = script.CheckInt(L, 3, "per_io")
	}
	s, err := contexts.IONodeGroup(n, k, perIO)
	if err != nil {
		return raiseCtx(L, "ctx.ionode", err)
	}
	return pushCtx(L, &contexts.Context{Set: s})
}

func ctxBox(L *lua.LState) int {
	n, _ := checkApp(L, 1)
	shape := checkTriple(L, 2, "shape")
	box := contexts.Box{Lo: checkTriple(L, 3, "low corner"), Hi: checkTriple(L, 4, "high corner")}
	s, err := contexts.TorusBox(n, shape, box)
	if err != nil {
		return raiseCtx(L, "ctx.box", err)
	}
	return pushCtx(L, &contexts.Context{Set: s})
}

// checkTriple reads argument n as a Lua array of exactly three integers.
func checkTriple(L *lua.LState, n int, what string) [3]int {
	t, ok := L.Get(n).(*lua.LTable)
	var out [3]int
	if !ok || t.Len() != 3 {
		L.ArgError(n, what+" must be {x, y, z}, got "+script.Describe(L.Get(n)))
		return out
	}
	for i := range out {
		v, ok := script.LuaInt(t.RawGetInt(i + 1))
		if !ok {
			L.ArgError(n, fmt.Sprintf("%s must be {x, y, z} integers, item %d is %s", what, i+1, script.Describe(t.RawGetInt(i+1))))
		}
		out[i] = v
	}
	return out
}

// setErrText is the text of an error from the context algebra for a Lua message, without
// the package prefix (the sets live in contexts/ranks, the selections in contexts).
func setErrText(err error) string { return script.ErrorText(err, "contexts", "ranks") }
