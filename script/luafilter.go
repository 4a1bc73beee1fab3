package script

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/dpclsh/dpclsh/netreduce"
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
)

// LuaFilterKind is the netreduce filter kind of Lua filters: their FilterSpec carries the
// file's source, which every node (in this process or a `dpclsh comm` process) compiles
// once.
const LuaFilterKind = "lua"

// DefaultFilterDeadline bounds one call of a Lua filter's init or filter function.
const DefaultFilterDeadline = time.Second

// vmPoolSize is how many idle sandboxed states a compiled filter keeps for reuse.
const vmPoolSize = 32

// LuaFilter is a loaded Lua filter file (the value filter.load returns).
type LuaFilter struct {
	Name     string
	Path     string
	Source   []byte
	Deadline time.Duration
	prog     *luaProgram
}

// Spec is the netreduce filter spec of f with the given stream parameters.
func (f *LuaFilter) Spec(params map[string]any) *netreduce.FilterSpec {
	return &netreduce.FilterSpec{Name: f.Name, Kind: LuaFilterKind, Source: f.Source, Origin: f.Path,
		Params: params, Deadline: int64(f.Deadline)}
}

// LoadLuaFilter reads and compiles a filter file and checks that it returns a table with a
// filter function (and optionally init and name).
func LoadLuaFilter(path string, deadline time.Duration) (*LuaFilter, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("filter.load: %w", err)
	}
	prog, err := compileLuaFilter(path, src)
	if err != nil {
		return nil, err
	}
	if deadline <= 0 {
		deadline = DefaultFilterDeadline
	}
	return &LuaFilter{Name: prog.name, Path: path, Source: src, Deadline: deadline, prog: prog}, nil
}

// luaProgram is one compiled filter file and its pool of sandboxed states.
type luaProgram struct {
	name   string
	origin string
	proto  *lua.FunctionProto
	pool   chan *luaVM
}

// luaVM is a sandboxed state that has run the filter file's chunk.
type luaVM struct {
	L      *lua.LState
	init   *lua.LFunction
	filter *lua.LFunction
	name   string
}

// programs caches compiled filters by source and origin: a process compiles a file once.
var programs sync.Map

func compileLuaFilter(origin string, src []byte) (*luaProgram, error) {
	key := sha256.Sum256(append([]byte(origin+"\x00"), src...))
	if p, ok := programs.Load(key); ok {
		return p.(*luaProgram), nil
	}
	chunk, err := parse.Parse(bytes.NewReader(src), origin)
	if err != nil {
		return nil, fmt.Errorf("filter %s: %w", origin, err)
	}
	proto, err := lua.Compile(chunk, origin)
	if err != nil {
		return nil, fmt.Errorf("filter %s: %w", origin, err)
	}
	p := &luaProgram{origin: origin, proto: proto, pool: make(chan *luaVM, vmPoolSize)}
	vm, err := p.newVM()
	if err != nil {
		return nil, err
	}
	p.name = vm.name
	p.put(vm)
	actual, _ := programs.LoadOrStore(key, p)
	return actual.(*luaProgram), nil
}

func (p *luaProgram) newVM() (*luaVM, error) {
	L := NewSandbox()
	out, err := CallWithDeadline(L, DefaultFilterDeadline, L.NewFunctionFromProto(p.proto))
	if err != nil {
		L.Close()
		return nil, fmt.Errorf("filter %s: %s", p.origin, strings.TrimPrefix(err.Error(), "script: "))
	}
	var tbl *lua.LTable
	if len(out) > 0 {
		tbl, _ = out[0].(*lua.LTable)
	}
	if tbl == nil {
		L.Close()
		return nil, fmt.Errorf("filter %s: the file must return a table {name =, init =, filter =}", p.origin)
	}
	vm := &luaVM{L: L}
	var ok bool
	if vm.filter, ok = tbl.RawGetString("filter").(*lua.LFunction); !ok {
		L.Close()
		return nil, fmt.Errorf("filter %s: the returned table has no filter function", p.origin)
	}
	switch f := tbl.RawGetString("init").(type) {
	case *lua.LFunction:
		vm.init = f
	case *lua.LNilType:
	default:
		L.Close()
		return nil, fmt.Errorf("filter %s: init must be a function, got a %s", p.origin, f.Type())
	}
	vm.name = lua.LVAsString(tbl.RawGetString("name"))
	if vm.name == "" {
		vm.name = p.origin
	}
	return vm, nil
}

func (p *luaProgram) get() (*luaVM, error) {
	select {
	case vm := <-p.pool:
		return vm, nil
	default:
		return p.newVM()
	}
}

func (p *luaProgram) put(vm *luaVM) {
	select {
	case p.pool <- vm:
	default:
		vm.L.Close()
	}
}

// luaTransform is one (stream, node) instance of a Lua filter. Its state is a Lua value
// of its own; the state that runs a call is borrowed from the program's pool, so a tree of
// thousands of nodes needs only as many Lua states as filter calls run at once.
type luaTransform struct {
	prog     *luaProgram
	state    lua.LValue
	deadline time.Duration
}

func newLuaTransform(spec *netreduce.FilterSpec, _ netreduce.NodeInfo) (netreduce.Transform, error) {
	prog, err := compileLuaFilter(spec.Origin, spec.Source)
	if err != nil {
		return nil, err
	}
	t := &luaTransform{prog: prog, deadline: time.Duration(spec.Deadline), state: lua.LNil}
	if t.deadline <= 0 {
		t.deadline = DefaultFilterDeadline
	}
	vm, err := prog.get()
	if err != nil {
		return nil, err
	}
	if vm.init == nil {
		t.state = vm.L.NewTable()
		prog.put(vm)
		return t, nil
	}
	out, err := CallWithDeadline(vm.L, t.deadline, vm.init, packetValueToLua(vm.L, paramsOrEmpty(spec.Params)))
	if err != nil {
		vm.L.Close()
		return nil, fmt.Errorf("init: %s", strings.TrimPrefix(err.Error(), "script: "))
	}
	if len(out) > 0 {
		t.state = out[0]
	}
	prog.put(vm)
	return t, nil
}

func paramsOrEmpty(p map[string]any) map[string]any {
	if p == nil {
		return map[string]any{}
	}
	return p
}

// Filter implements netreduce.Transform.
func (t *luaTransform) Filter(wave []*netreduce.Packet) ([]*netreduce.Packet, error) {
	vm, err := t.prog.get()
	if err != nil {
		return nil, err
	}
	L := vm.L
	arr := L.CreateTable(len(wave), 0)
	for _, p := range wave {
		arr.Append(packetToLua(L, p))
	}
	out, err := CallWithDeadline(L, t.deadline, vm.filter, t.state, arr)
	if err != nil {
		// A call cut short may leave the state half-way through anything: never reuse it.
		L.Close()
		return nil, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "script: "))
	}
	defer t.prog.put(vm)
	if len(out) == 0 || out[0] == lua.LNil {
		return nil, nil
	}
	tbl, ok := out[0].(*lua.LTable)
	if !ok {
		return nil, fmt.Errorf("%s: filter returned a %s; want a table of values or nil", t.prog.origin, out[0].Type())
	}
	vals := make([]any, 0, tbl.Len())
	for i := 1; i <= tbl.Len(); i++ {
		v, err := luaToPacketValue(tbl.RawGetInt(i))
		if err != nil {
			return nil, fmt.Errorf("%s: filter result value %d: %w", t.prog.origin, i, err)
		}
		vals = append(vals, v)
	}
	return []*netreduce.Packet{{Values: vals}}, nil
}

// Close implements netreduce.Transform.
func (t *luaTransform) Close() { t.state = lua.LNil }

func init() {
	netreduce.RegisterFilterKind(LuaFilterKind, newLuaTransform)
}
