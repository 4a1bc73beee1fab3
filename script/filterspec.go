package script

import (
	"fmt"

	"github.com/dpclsh/dpclsh/netreduce"
	lua "github.com/yuin/gopher-lua"
)

// FilterSource is the Go value behind a filter object (filter.load's result, in package
// script/filter): what streams and probes take besides a built-in filter's name.
type FilterSource interface {
	Spec(params map[string]any) *netreduce.FilterSpec
}

// FilterSpecOf resolves a Lua filter value (a built-in name or a filter.load object) with
// stream parameters to a netreduce filter spec.
func FilterSpecOf(v lua.LValue, params map[string]any) (*netreduce.FilterSpec, error) {
	switch x := v.(type) {
	case lua.LString:
		return &netreduce.FilterSpec{Name: string(x), Params: params}, nil
	case *lua.LUserData:
		if f, ok := x.Value.(FilterSource); ok {
			return f.Spec(params), nil
		}
	case *lua.LNilType:
		return nil, nil
	}
	return nil, fmt.Errorf("filter must be a built-in name or a filter.load object, got %s", Describe(v))
}
