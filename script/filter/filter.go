package filter

import (
	"fmt"
	"github.com/dpclsh/dpclsh/script"
	"github.com/dpclsh/dpclsh/script/packetvalue"
	"strings"

	"github.com/dpclsh/dpclsh/netreduce"
	lua "github.com/yuin/gopher-lua"
)

// filterTypeName is the metatable name of loaded Lua filters.
const filterTypeName = "filter.Filter"

func init() {
	script.RegisterModule(script.Module{
		Name: "filter",
		Doc: `filter — aggregation filters for the reduction tree.
Built-ins are used by name: "sum" "avg" "min" "max" (element-wise), "concat" (rank order),
"eqclass" ({value=, ranks="spec"} sorted by value; params {key = K}: the first K values
are the key row, value = {...}, and the values after it are summed per class, sums = {...}),
"histogram" (params {min=, max=, bins=}), "mapmerge" (dpcl.trace's maps merged by key:
params {agg=, width=, fixed=, base=}; values = {flat entries}), "topk" (the rows of the k
ranks with the greatest value at position key of their packet, ties to the higher rank;
params {k=, key=}; values as concat's, of those ranks), "none". A Lua filter file returns
  { name = "topk", init = function(params) return state end,
    filter = function(state, packets) ... return values_or_nil end }
packets is an array of packets; each is an array of values with fields rank (nil once
aggregated), count and time. Each tree node runs it in its own sandbox (base, table,
string, math), with its own globals and state, and a per-call budget of Lua
instructions: deterministic, whatever the host's load.`,
		Funcs: []script.Function{
			{Name: "load", Doc: `filter.load(path [, {budget = 20e6}]) -> Filter
Compiles a Lua filter file once; use the object as filter = f (app:install, net:stream).
budget bounds each call of init or filter in Lua VM instructions (default 20e6); a call
that runs out fails its stream with "budget exceeded", at the same instruction on any
host; pattern matching (find, match, gmatch, gsub) counts its steps as instructions.
Each node's globals and state are also bounded to 64 MiB: what string.rep,
string.format, string.gsub, table.concat and .. build is charged before it is built, and
a call that would pass the bound fails its stream with "memory budget exceeded".`, Fn: filterLoad},
			{Name: "builtins", Doc: "filter.builtins() -> {names}\nThe names of the built-in filters.", Fn: filterBuiltins},
		},
	})
	script.RegisterType(script.Type{
		Name: filterTypeName,
		Doc:  "A loaded Lua filter: f.name, f.path, f:apply(packets [, params]).",
		Methods: []script.Function{
			{Name: "apply", Doc: `f:apply(packets [, params]) -> values|nil
Runs init(params) and one filter call on packets (an array of arrays of values, each
optionally with rank, count, time), locally in a fresh sandboxed state: for testing.`, Fn: filterApply},
		},
		Meta: []script.Function{
			{Name: "__tostring", Doc: "", Fn: func(L *lua.LState) int {
				f := script.CheckObject[*LuaFilter](L, 1, filterTypeName)
				L.Push(lua.LString(fmt.Sprintf("filter %s (%s)", f.Name, f.Path)))
				return 1
			}},
			{Name: "__index", Doc: "", Fn: filterIndex},
		},
	})
}

func filterLoad(L *lua.LState) int {
	path := L.CheckString(1)
	var budget int64
	if opts, ok := L.Get(2).(*lua.LTable); ok {
		if opts.RawGetString("deadline_ms") != lua.LNil {
			L.ArgError(2, "deadline_ms is gone: a filter call is bounded by budget, in Lua instructions, so it stops at the same point on any host")
		}
		switch b := opts.RawGetString("budget").(type) {
		case lua.LNumber:
			if !(b >= 1) || b > 1e15 {
				L.ArgError(2, "budget must be a number of instructions between 1 and 1e15")
			}
			budget = int64(b)
		case *lua.LNilType:
		default:
			L.ArgError(2, "budget must be a number of instructions, got a "+b.Type().String())
		}
	}
	f, err := LoadLuaFilter(path, budget)
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	L.Push(script.NewObject(L, filterTypeName, f))
	return 1
}

func filterBuiltins(L *lua.LState) int {
	t := L.NewTable()
	for _, n := range netreduce.Filters() {
		if !strings.HasPrefix(n, "test-") {
			t.Append(lua.LString(n))
		}
	}
	L.Push(t)
	return 1
}

func filterIndex(L *lua.LState) int {
	f := script.CheckObject[*LuaFilter](L, 1, filterTypeName)
	switch L.CheckString(2) {
	case "name":
		L.Push(lua.LString(f.Name))
	case "path":
		L.Push(lua.LString(f.Path))
	case "apply":
		L.Push(L.NewFunction(filterApply))
	default:
		L.Push(lua.LNil)
	}
	return 1
}

func filterApply(L *lua.LState) int {
	f := script.CheckObject[*LuaFilter](L, 1, filterTypeName)
	pk := L.CheckTable(2)
	var params map[string]any
	if pt, ok := L.Get(3).(*lua.LTable); ok {
		p, err := script.PlainValue(pt, "params")
		if err != nil {
			L.ArgError(3, err.Error())
		}
		if params, ok = p.(map[string]any); !ok {
			L.ArgError(3, "params must be a table with string keys")
		}
	}
	wave, err := luaWave(pk)
	if err != nil {
		L.ArgError(2, err.Error())
	}
	tr, err := newLuaTransform(f.Spec(params), netreduce.NodeInfo{FrontEnd: true})
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	defer tr.Close()
	out, err := tr.Filter(wave)
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	if len(out) == 0 {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(packetvalue.ToLua(L, out[0].Values))
	return 1
}

// luaWave reads an array of packets written in Lua: arrays of values with optional rank,
// count and time fields.
func luaWave(t *lua.LTable) ([]*netreduce.Packet, error) {
	var wave []*netreduce.Packet
	for i := 1; i <= t.Len(); i++ {
		pt, ok := t.RawGetInt(i).(*lua.LTable)
		if !ok {
			return nil, fmt.Errorf("packet %d: want a table, got a %s", i, t.RawGetInt(i).Type())
		}
		p := &netreduce.Packet{Src: -1, Count: 1}
		for j := 1; j <= pt.Len(); j++ {
			v, err := packetvalue.FromLua(pt.RawGetInt(j))
			if err != nil {
				return nil, fmt.Errorf("packet %d value %d: %w", i, j, err)
			}
			p.Values = append(p.Values, v)
		}
		if r, ok := pt.RawGetString("rank").(lua.LNumber); ok {
			p.Src = int32(r)
		} else {
			p.Reduced = true
		}
		if c, ok := pt.RawGetString("count").(lua.LNumber); ok {
			p.Count = int32(c)
		}
		if tm, ok := pt.RawGetString("time").(lua.LNumber); ok {
			p.Time = int64(tm)
		}
		wave = append(wave, p)
	}
	return wave, nil
}
