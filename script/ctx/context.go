package ctx

import (
	"errors"
	"fmt"
	"github.com/dpclsh/dpclsh/script"

	"github.com/dpclsh/dpclsh/contexts"
	lua "github.com/yuin/gopher-lua"
)

func init() {
	script.RegisterType(script.Type{
		Name: ctxTypeName, Receiver: "c",
		Doc: `Context — a set of ranks of one application, with an optional aggregation.
add and remove change the context in place; every other operation returns a new context,
which keeps the aggregation of its (left) operand. == compares sizes and members only.
tostring gives "ctx{1-5,7,9-10} (8 of 256)" ("ctx{} (0 of 256)" when empty), followed by
the aggregation when one is attached.`,
		Methods: []script.Function{
			{Name: "add", Doc: "c:add(rank|spec|list|context) -> c\nAdds ranks in place.", Fn: ctxAdd},
			{Name: "remove", Doc: "c:remove(rank|spec|list|context) -> c\nRemoves ranks in place; removing a non-member is not an error.", Fn: ctxRemove},
			{Name: "contains", Doc: "c:contains(rank) -> boolean\nWhether rank is a member; ranks outside the application are never members.", Fn: ctxContains},
			{Name: "sample", Doc: `c:sample(pct [, seed]) -> Context
A uniform random subset of exactly floor(#c * pct / 100 + 0.5) members. The same context,
pct and seed (an integer ≥ 0, default 0) always give the same subset.`, Fn: ctxSample},
			{Name: "copy", Doc: "c:copy() -> Context\nAn independent copy (with a copy of the aggregation).", Fn: ctxCopy},
			{Name: "list", Doc: "c:list() -> {rank, ...}\nThe members in increasing order.", Fn: ctxList},
			{Name: "ranks", Doc: "c:ranks() -> iterator\nfor r in c:ranks() do ... end visits the members in increasing order, as they\nwere when ranks() was called.", Fn: ctxIterate},
			{Name: "size", Doc: "c:size() -> integer\nThe number of ranks of the application (members are #c).", Fn: ctxSize},
			{Name: "spec", Doc: "c:spec() -> string\nThe members in compact form, \"0-15,17,32-63\"; \"\" when empty.", Fn: ctxSpec},
			{Name: "aggregate", Doc: `c:aggregate{filter = "sum"|Filter [, sync =, timeout =, params =]} -> Context
A copy of c whose probes' data is combined on the way up the tree by the filter (a
built-in name or a loaded filter object). sync is "waitforall" (default), "timeout" (with
timeout, virtual seconds; timeout_ms is its deprecated spelling) or "dontwait"; params is a table of filter parameters.
c:aggregate(nil) returns a copy without aggregation.`, Fn: ctxAggregate},
			{Name: "aggregation", Doc: "c:aggregation() -> table|nil\nThe aggregation as a table {filter=, sync=, timeout=, params=} (timeout in virtual seconds), nil when none.", Fn: ctxAggregation},
		},
		Meta: []script.Function{
			{Name: "__add", Doc: "a + b -> Context\nUnion (the paper's merge).", Fn: ctxBinary("+", (*contexts.Set).Union)},
			{Name: "__mul", Doc: "a * b -> Context\nIntersection.", Fn: ctxBinary("*", (*contexts.Set).Intersect)},
			{Name: "__sub", Doc: "a - b -> Context\nDifference.", Fn: ctxBinary("-", (*contexts.Set).Difference)},
			{Name: "__unm", Doc: "-a -> Context\nComplement (the paper's invert).", Fn: ctxComplement},
			{Name: "__len", Doc: "#a -> integer\nThe number of members.", Fn: ctxLen},
			{Name: "__eq", Doc: "a == b -> boolean\nSame size and same members.", Fn: ctxEq},
			{Name: "__tostring", Doc: "tostring(a) -> string\n\"ctx{1-5,7,9-10} (8 of 256)\".", Fn: ctxToString},
		},
	})
}

// checkCtx returns argument n as a Context, raising an argument error otherwise.
func checkCtx(L *lua.LState, n int) *contexts.Context {
	return script.CheckObject[*contexts.Context](L, n, ctxTypeName)
}

// withAgg returns a context over s carrying a copy of from's aggregation.
func withAgg(s *contexts.Set, from *contexts.Context) *contexts.Context {
	c := &contexts.Context{Set: s}
	if from.Agg != nil {
		c.Agg = from.Agg.Copy()
	}
	return c
}

// raiseMismatch raises the size-mismatch error of op in the words of contexts.
func raiseMismatch(L *lua.LState, op string, err error) int {
	var me *contexts.MismatchError
	if errors.As(err, &me) {
		L.RaiseError("%s: cannot combine contexts of different sizes: %d and %d", op, me.Left, me.Right)
		return 0
	}
	return raiseCtx(L, op, err)
}

func ctxBinary(symbol string, op func(a, b *contexts.Set) (*contexts.Set, error)) lua.LGFunction {
	return func(L *lua.LState) int {
		a, aok := script.ContextOf(L.Get(1))
		b, bok := script.ContextOf(L.Get(2))
		if !aok || !bok {
			L.RaiseError("ctx: %s needs two contexts, got %s and %s", symbol, script.Describe(L.Get(1)), script.Describe(L.Get(2)))
		}
		s, err := op(a.Set, b.Set)
		if err != nil {
			return raiseMismatch(L, "ctx: "+symbol, err)
		}
		return pushCtx(L, withAgg(s, a))
	}
}

func ctxComplement(L *lua.LState) int {
	c := checkCtx(L, 1)
	return pushCtx(L, withAgg(c.Set.Complement(), c))
}

func ctxLen(L *lua.LState) int {
	L.Push(lua.LNumber(checkCtx(L, 1).Set.Count()))
	return 1
}

func ctxEq(L *lua.LState) int {
	a, aok := script.ContextOf(L.Get(1))
	b, bok := script.ContextOf(L.Get(2))
	L.Push(lua.LBool(aok && bok && a.Set.Equal(b.Set)))
	return 1
}

func ctxToString(L *lua.LState) int {
	L.Push(lua.LString(checkCtx(L, 1).String()))
	return 1
}

func ctxAdd(L *lua.LState) int {
	c := checkCtx(L, 1)
	if err := addRanksArg(L, c.Set, 2); err != nil {
		return raiseMismatch(L, "ctx:add", err)
	}
	L.Push(L.Get(1))
	return 1
}

func ctxRemove(L *lua.LState) int {
	c := checkCtx(L, 1)
	o, err := ranksArg(L, c.Size(), 2)
	if err == nil {
		err = c.Set.RemoveSet(o)
	}
	if err != nil {
		return raiseMismatch(L, "ctx:remove", err)
	}
	L.Push(L.Get(1))
	return 1
}

func ctxContains(L *lua.LState) int {
	c := checkCtx(L, 1)
	L.Push(lua.LBool(c.Set.Contains(script.CheckInt(L, 2, "rank"))))
	return 1
}

func ctxSample(L *lua.LState) int {
	c := checkCtx(L, 1)
	pct := float64(L.CheckNumber(2))
	seed := 0
	if L.GetTop() >= 3 {
		seed = script.CheckInt(L, 3, "seed")
		if seed < 0 {
			L.ArgError(3, fmt.Sprintf("seed must be an integer ≥ 0, got %d", seed))
		}
	}
	s, err := c.Set.Sample(pct, uint64(seed))
	if err != nil {
		return raiseCtx(L, "ctx:sample", err)
	}
	return pushCtx(L, withAgg(s, c))
}

func ctxCopy(L *lua.LState) int {
	return pushCtx(L, checkCtx(L, 1).Copy())
}

func ctxList(L *lua.LState) int {
	c := checkCtx(L, 1)
	t := L.CreateTable(c.Set.Count(), 0)
	for r := range c.Set.Ranks() {
		t.Append(lua.LNumber(r))
	}
	L.Push(t)
	return 1
}

func ctxIterate(L *lua.LState) int {
	snap := checkCtx(L, 1).Set.Copy()
	next := 0
	L.Push(L.NewFunction(func(L *lua.LState) int {
		r := snap.Next(next)
		if r < 0 {
			L.Push(lua.LNil)
			return 1
		}
		next = r + 1
		L.Push(lua.LNumber(r))
		return 1
	}))
	return 1
}

func ctxSize(L *lua.LState) int {
	L.Push(lua.LNumber(checkCtx(L, 1).Size()))
	return 1
}

func ctxSpec(L *lua.LState) int {
	L.Push(lua.LString(checkCtx(L, 1).Set.String()))
	return 1
}
