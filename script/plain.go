package script

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"
)

// PlainValue converts a Lua value to plain data (filter parameters, transport options): bool, float64, string, []any (arrays)
// or map[string]any (tables with string keys). path names the value in errors.
func PlainValue(v lua.LValue, path string) (any, error) {
	switch v := v.(type) {
	case lua.LBool:
		return bool(v), nil
	case lua.LNumber:
		return float64(v), nil
	case lua.LString:
		return string(v), nil
	case *lua.LTable:
		return plainTable(v, path)
	}
	return nil, fmt.Errorf("%s: a %s cannot be a filter parameter", path, v.Type())
}

func plainTable(t *lua.LTable, path string) (any, error) {
	n, count := t.Len(), 0
	t.ForEach(func(lua.LValue, lua.LValue) { count++ })
	if n > 0 && n == count {
		arr := make([]any, n)
		for i := range arr {
			e, err := PlainValue(t.RawGetInt(i+1), fmt.Sprintf("%s[%d]", path, i+1))
			if err != nil {
				return nil, err
			}
			arr[i] = e
		}
		return arr, nil
	}
	m := make(map[string]any, count)
	var err error
	t.ForEach(func(k, v lua.LValue) {
		name, ok := k.(lua.LString)
		switch {
		case err != nil:
		case !ok:
			err = fmt.Errorf("%s: key %s: filter parameter tables need string keys or be arrays", path, Describe(k))
		default:
			m[string(name)], err = PlainValue(v, path+"."+string(name))
		}
	})
	return m, err
}
