package script

import (
	"fmt"
	"sort"

	lua "github.com/yuin/gopher-lua"
)

// Function is one Lua-callable Go function together with the text help() shows for it.
type Function struct {
	Name string
	Doc  string // first line: the call form, e.g. "ctx.all(app|n) -> Context"; then prose
	Fn   lua.LGFunction
}

// Module is a Lua module. Every registered module is both a preloaded global of its name
// and require-able, and require returns the same table as the global.
type Module struct {
	Name  string
	Doc   string
	Funcs []Function
	// Init, when set, runs once per session after Funcs are in the module table: constants,
	// sub-tables, anything a plain function list cannot express.
	Init func(s *Session, mod *lua.LTable)
}

// Type is a userdata type with a constant metatable name (STYLE.md: one file per Lua type).
// Methods are reached through __index; Meta holds metamethods (__tostring, __add, __eq,
// __len, __call, ...). A Meta entry named "__index" replaces the method lookup entirely.
type Type struct {
	Name    string // metatable name, e.g. "ctx.Context"
	Doc     string
	Methods []Function
	Meta    []Function
	// Receiver is what the manual calls an object of the type ("app", "h"), for the hint
	// that app.start() should have been app:start(); "obj" when empty.
	Receiver string
}

var (
	modules = map[string]Module{}
	types   = map[string]Type{}
)

// RegisterModule adds a module to every session created afterwards. Call it from init.
func RegisterModule(m Module) {
	if _, dup := modules[m.Name]; dup {
		panic(fmt.Sprintf("script: module %q registered twice", m.Name))
	}
	modules[m.Name] = m
}

// RegisterType adds a userdata type to every session created afterwards. Call it from init.
func RegisterType(t Type) {
	if _, dup := types[t.Name]; dup {
		panic(fmt.Sprintf("script: type %q registered twice", t.Name))
	}
	types[t.Name] = t
}

// moduleNames returns the registered module names in a stable order.
func moduleNames() []string {
	names := make([]string, 0, len(modules))
	for n := range modules {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// NewObject wraps v in a userdata with the metatable of the registered type typeName.
func NewObject(L *lua.LState, typeName string, v any) *lua.LUserData {
	ud := L.NewUserData()
	ud.Value = v
	L.SetMetatable(ud, L.GetTypeMetatable(typeName))
	return ud
}

// CheckObject returns the Go value behind argument n when it is a userdata holding a T,
// and raises an argument error naming typeName otherwise.
func CheckObject[T any](L *lua.LState, n int, typeName string) T {
	if ud, ok := L.Get(n).(*lua.LUserData); ok {
		if v, ok := ud.Value.(T); ok {
			return v
		}
	}
	L.ArgError(n, typeName+" expected, got "+L.Get(n).Type().String()+colonHint(L, n, typeName))
	var zero T
	return zero
}
