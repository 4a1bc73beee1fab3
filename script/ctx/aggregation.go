package ctx

import (
	"fmt"
	"github.com/dpclsh/dpclsh/script"
	"math"
	"sort"
	"time"

	"github.com/dpclsh/dpclsh/contexts"
	lua "github.com/yuin/gopher-lua"
)

// aggFields are the keys c:aggregate accepts; each sets one field of the aggregation.
var aggFields = map[string]func(a *contexts.Aggregation, v lua.LValue) error{
	"filter": func(a *contexts.Aggregation, v lua.LValue) error {
		switch v := v.(type) {
		case lua.LString:
			a.Filter = string(v)
		case *lua.LUserData:
			// The object itself is the handle: whoever resolves the aggregation (the
			// install binding) knows the object types that are filters.
			a.Handle = v
		default:
			return fmt.Errorf("filter must be a name or a filter object, got %s", script.Describe(v))
		}
		return nil
	},
	"sync": func(a *contexts.Aggregation, v lua.LValue) error {
		name, ok := v.(lua.LString)
		if !ok {
			return fmt.Errorf("sync must be a string, got %s", script.Describe(v))
		}
		a.Sync = contexts.Sync(name)
		return nil
	},
	"timeout": func(a *contexts.Aggregation, v lua.LValue) error {
		s, ok := v.(lua.LNumber)
		if !ok || !(s > 0) || math.IsInf(float64(s), 1) {
			return fmt.Errorf("timeout must be a positive number of virtual seconds, got %s", script.Describe(v))
		}
		a.Timeout = time.Duration(float64(s) * float64(time.Second))
		return nil
	},
	"timeout_ms": func(a *contexts.Aggregation, v lua.LValue) error {
		ms, ok := v.(lua.LNumber)
		if !ok || !(ms > 0) || math.IsInf(float64(ms), 1) {
			return fmt.Errorf("timeout_ms must be a positive number of virtual milliseconds, got %s", script.Describe(v))
		}
		a.Timeout = time.Duration(float64(ms) * float64(time.Millisecond))
		return nil
	},
	"params": func(a *contexts.Aggregation, v lua.LValue) error {
		t, ok := v.(*lua.LTable)
		if !ok {
			return fmt.Errorf("params must be a table, got %s", script.Describe(v))
		}
		p, err := script.PlainValue(t, "params")
		if err != nil {
			return err
		}
		m, ok := p.(map[string]any)
		if !ok {
			return fmt.Errorf("params must be a table with string keys")
		}
		a.Params = m
		return nil
	},
}

func ctxAggregate(L *lua.LState) int {
	c := checkCtx(L, 1)
	out := &contexts.Context{Set: c.Set.Copy()}
	agg := &contexts.Aggregation{}
	switch v := L.Get(2).(type) {
	case *lua.LNilType:
		return pushCtx(L, out)
	case lua.LString:
		agg.Filter = string(v)
	case *lua.LTable:
		if v.RawGetString("timeout_ms") != lua.LNil {
			script.Deprecated(L, "timeout_ms", "timeout (virtual seconds)")
		}
		if err := fillAgg(agg, v); err != nil {
			return raiseCtx(L, "ctx:aggregate", err)
		}
	default:
		L.ArgError(2, "aggregation table, filter name or nil expected, got "+script.Describe(v))
	}
	if err := agg.Validate(); err != nil {
		return raiseCtx(L, "ctx:aggregate", err)
	}
	out.Agg = agg
	return pushCtx(L, out)
}

// fillAgg sets agg from the fields of t, in sorted key order so errors are deterministic.
func fillAgg(agg *contexts.Aggregation, t *lua.LTable) error {
	var keys []string
	var bad error
	t.ForEach(func(k, _ lua.LValue) {
		name, ok := k.(lua.LString)
		if _, known := aggFields[string(name)]; !ok || !known {
			bad = fmt.Errorf("unknown field %s (want filter, sync, timeout, params)", script.Describe(k))
			return
		}
		keys = append(keys, string(name))
	})
	if bad != nil {
		return bad
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := aggFields[k](agg, t.RawGetString(k)); err != nil {
			return err
		}
	}
	return nil
}

func ctxAggregation(L *lua.LState) int {
	a := checkCtx(L, 1).Agg
	if a == nil {
		L.Push(lua.LNil)
		return 1
	}
	t := L.NewTable()
	if a.Filter != "" {
		t.RawSetString("filter", lua.LString(a.Filter))
	} else if ud, ok := a.Handle.(*lua.LUserData); ok {
		t.RawSetString("filter", ud)
	}
	t.RawSetString("sync", lua.LString(a.SyncMode()))
	if a.Timeout > 0 {
		t.RawSetString("timeout", lua.LNumber(a.Timeout.Seconds()))
		t.RawSetString("timeout_ms", lua.LNumber(float64(a.Timeout)/float64(time.Millisecond)))
	}
	if a.Params != nil {
		t.RawSetString("params", luaValue(L, a.Params))
	}
	L.Push(t)
	return 1
}

// luaValue converts plain data made by PlainValue back to Lua.
func luaValue(L *lua.LState, v any) lua.LValue {
	switch v := v.(type) {
	case bool:
		return lua.LBool(v)
	case float64:
		return lua.LNumber(v)
	case string:
		return lua.LString(v)
	case []any:
		t := L.CreateTable(len(v), 0)
		for _, e := range v {
			t.Append(luaValue(L, e))
		}
		return t
	case map[string]any:
		t := L.CreateTable(0, len(v))
		for k, e := range v {
			t.RawSetString(k, luaValue(L, e))
		}
		return t
	}
	return lua.LNil
}
