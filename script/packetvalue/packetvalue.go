package packetvalue

import (
	"fmt"
	"math"

	"github.com/dpclsh/dpclsh/contexts/ranks"
	"github.com/dpclsh/dpclsh/netreduce"
	lua "github.com/yuin/gopher-lua"
)

// Packet values cross between Go and Lua as follows. Go to Lua: every number becomes a
// Lua number, strings stay strings, arrays become Lua arrays, an eqclass class becomes
// {value = v, ranks = "spec"} (and sums = {...} with params {key = K}). Lua to Go: an
// integral number of magnitude below 2^53 is an int64 (so integer sums stay exact), any other number a float64; an array of numbers is
// []int64 when all are integral and []float64 otherwise; an array of strings is []string.

// ToLua converts one packet value.
func ToLua(L *lua.LState, v any) lua.LValue {
	switch x := v.(type) {
	case int64:
		return lua.LNumber(x)
	case uint64:
		return lua.LNumber(x)
	case float64:
		return lua.LNumber(x)
	case string:
		return lua.LString(x)
	case bool:
		return lua.LBool(x)
	case []int64:
		return arrayToLua(L, x, func(e int64) lua.LValue { return lua.LNumber(e) })
	case []uint64:
		return arrayToLua(L, x, func(e uint64) lua.LValue { return lua.LNumber(e) })
	case []float64:
		return arrayToLua(L, x, func(e float64) lua.LValue { return lua.LNumber(e) })
	case []string:
		return arrayToLua(L, x, func(e string) lua.LValue { return lua.LString(e) })
	case []any:
		return arrayToLua(L, x, func(e any) lua.LValue { return ToLua(L, e) })
	case netreduce.EqClass:
		t := L.CreateTable(0, 2)
		t.RawSetString("value", ToLua(L, x.Value))
		t.RawSetString("ranks", lua.LString(ranks.Spec(x.Ranks)))
		if x.Sums != nil {
			t.RawSetString("sums", ToLua(L, x.Sums))
		}
		return t
	case map[string]any:
		t := L.CreateTable(0, len(x))
		for k, e := range x {
			t.RawSetString(k, ToLua(L, e))
		}
		return t
	}
	// Nothing the tree carries ends here; should a new kind of value appear, it shows
	// up printed rather than vanishing.
	return lua.LString(fmt.Sprint(v))
}

func arrayToLua[T any](L *lua.LState, xs []T, conv func(T) lua.LValue) *lua.LTable {
	t := L.CreateTable(len(xs), 0)
	for _, e := range xs {
		t.Append(conv(e))
	}
	return t
}

// PacketToLua builds a filter's view of a packet: its values as an array, with fields
// rank (nil once aggregated), count and time.
func PacketToLua(L *lua.LState, p *netreduce.Packet) *lua.LTable {
	t := L.CreateTable(len(p.Values), 3)
	for _, v := range p.Values {
		t.Append(ToLua(L, v))
	}
	if p.Src >= 0 && !p.Reduced {
		t.RawSetString("rank", lua.LNumber(p.Src))
	}
	t.RawSetString("count", lua.LNumber(p.Count))
	t.RawSetString("time", lua.LNumber(p.Time))
	return t
}

// luaNumberValue is an int64 when v is integral and exactly representable, else a float64.
func luaNumberValue(v lua.LNumber) any {
	f := float64(v)
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return int64(f)
	}
	return f
}

// FromLua converts one Lua value a filter or back-end returned.
func FromLua(v lua.LValue) (any, error) {
	switch x := v.(type) {
	case lua.LNumber:
		return luaNumberValue(x), nil
	case lua.LString:
		return string(x), nil
	case *lua.LTable:
		return luaArrayValue(x)
	}
	return nil, fmt.Errorf("a %s cannot travel in a packet (numbers, strings and arrays of them can)", v.Type())
}

func luaArrayValue(t *lua.LTable) (any, error) {
	n := t.Len()
	count := 0
	t.ForEach(func(lua.LValue, lua.LValue) { count++ })
	if count != n {
		return nil, fmt.Errorf("a table with non-array keys cannot travel in a packet")
	}
	if n == 0 {
		return []int64{}, nil
	}
	if _, isStr := t.RawGetInt(1).(lua.LString); isStr {
		out := make([]string, n)
		for i := range out {
			s, ok := t.RawGetInt(i + 1).(lua.LString)
			if !ok {
				return nil, fmt.Errorf("array item %d: want a string like item 1, got a %s", i+1, t.RawGetInt(i+1).Type())
			}
			out[i] = string(s)
		}
		return out, nil
	}
	fs := make([]float64, n)
	integral := true
	for i := range fs {
		x, ok := t.RawGetInt(i + 1).(lua.LNumber)
		if !ok {
			return nil, fmt.Errorf("array item %d: want a number like item 1, got a %s", i+1, t.RawGetInt(i+1).Type())
		}
		fs[i] = float64(x)
		if _, isInt := luaNumberValue(x).(int64); !isInt {
			integral = false
		}
	}
	if !integral {
		return fs, nil
	}
	is := make([]int64, n)
	for i, f := range fs {
		is[i] = int64(f)
	}
	return is, nil
}

// ArgsToGo converts send arguments for Format.Pack: numbers stay float64 (Pack checks
// integrality and range against the format), tables become []any.
func ArgsToGo(L *lua.LState, from int) ([]any, error) {
	var out []any
	for i := from; i <= L.GetTop(); i++ {
		v, err := luaArgToGo(L.Get(i))
		if err != nil {
			return nil, fmt.Errorf("argument %d: %w", i-from+1, err)
		}
		out = append(out, v)
	}
	return out, nil
}

func luaArgToGo(v lua.LValue) (any, error) {
	switch x := v.(type) {
	case lua.LNumber:
		return float64(x), nil
	case lua.LString:
		return string(x), nil
	case *lua.LTable:
		n := x.Len()
		out := make([]any, n)
		for i := range out {
			e, err := luaArgToGo(x.RawGetInt(i + 1))
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	}
	return nil, fmt.Errorf("a %s cannot be sent", v.Type())
}
