package filter

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"github.com/dpclsh/dpclsh/script/packetvalue"
	"os"
	"sync"

	"github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/script/luavm"
	lua "github.com/yuin/gopher-lua"
)

// LuaFilterKind is the netreduce filter kind of Lua filters: their FilterSpec carries the
// file's source, which every node (in this process or a `dpclsh comm` process) compiles
// once.
const LuaFilterKind = "lua"

// vmPoolSize is how many idle sandboxed states a compiled filter keeps for reuse.
const vmPoolSize = 32

// LuaFilter is a loaded Lua filter file (the value filter.load returns).
type LuaFilter struct {
	Name   string
	Path   string
	Source []byte
	// Budget is how many Lua instructions one call of init or filter may run.
	Budget int64
	prog   *luaProgram
}

// Spec is the netreduce filter spec of f with the given stream parameters. Its Deadline
// carries the instruction budget.
func (f *LuaFilter) Spec(params map[string]any) *netreduce.FilterSpec {
	return &netreduce.FilterSpec{Name: f.Name, Kind: LuaFilterKind, Source: f.Source, Origin: f.Path,
		Params: params, Deadline: f.Budget}
}

// LoadLuaFilter reads and compiles a filter file and checks that it returns a table with a
// filter function (and optionally init and name). budget <= 0 means DefaultInstructions.
func LoadLuaFilter(path string, budget int64) (*LuaFilter, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("filter.load: %w", err)
	}
	prog, err := compileLuaFilter(path, src)
	if err != nil {
		return nil, err
	}
	if budget <= 0 {
		budget = luavm.DefaultInstructions
	}
	return &LuaFilter{Name: prog.name, Path: path, Source: src, Budget: budget, prog: prog}, nil
}

// luaProgram is one compiled filter file and its pool of sandboxed states. A state only
// executes: everything a node's filter keeps lives in that node's environment and state.
type luaProgram struct {
	name   string
	origin string
	proto  *lua.FunctionProto
	pool   chan *lua.LState
}

// programs caches compiled filters by source and origin: a process compiles a file once.
var programs sync.Map

func compileLuaFilter(origin string, src []byte) (*luaProgram, error) {
	key := sha256.Sum256(append([]byte(origin+"\x00"), src...))
	if p, ok := programs.Load(key); ok {
		return p.(*luaProgram), nil
	}
	proto, err := luavm.Compile(bytes.NewReader(src), origin)
	if err != nil {
		return nil, syntaxError(origin, src, err)
	}
	p := &luaProgram{origin: origin, proto: proto, pool: make(chan *lua.LState, vmPoolSize)}
	L := p.get()
	node, err := p.instantiate(L, luavm.Limits{Instructions: luavm.DefaultInstructions, Memory: luavm.DefaultMemory})
	p.put(L)
	if err != nil {
		return nil, err
	}
	p.name = node.name
	actual, _ := programs.LoadOrStore(key, p)
	return actual.(*luaProgram), nil
}

// luaNode is the filter file run in one environment: a tree node's own globals and
// functions.
type luaNode struct {
	env    *lua.LTable
	init   *lua.LFunction
	filter *lua.LFunction
	name   string
}

// instantiate runs the file's chunk in a new environment on L.
func (p *luaProgram) instantiate(L *lua.LState, lim luavm.Limits) (*luaNode, error) {
	env := luavm.NewEnvironment(L)
	chunk := L.NewFunctionFromProto(p.proto)
	chunk.Env = env
	out, err := luavm.CallWithBudget(L, lim, []lua.LValue{env}, chunk)
	if err != nil {
		return nil, luavm.Relabel("filter "+p.origin+": ", err)
	}
	var tbl *lua.LTable
	if len(out) > 0 {
		tbl, _ = out[0].(*lua.LTable)
	}
	if tbl == nil {
		return nil, fmt.Errorf("filter %s: the file must return a table {name =, init =, filter =}", p.origin)
	}
	node := &luaNode{env: env}
	var ok bool
	if node.filter, ok = tbl.RawGetString("filter").(*lua.LFunction); !ok {
		return nil, fmt.Errorf("filter %s: the returned table has no filter function", p.origin)
	}
	switch f := tbl.RawGetString("init").(type) {
	case *lua.LFunction:
		node.init = f
	case *lua.LNilType:
	default:
		return nil, fmt.Errorf("filter %s: init must be a function, got a %s", p.origin, f.Type())
	}
	node.name = lua.LVAsString(tbl.RawGetString("name"))
	if node.name == "" {
		node.name = p.origin
	}
	return node, nil
}

func (p *luaProgram) get() *lua.LState {
	select {
	case L := <-p.pool:
		return L
	default:
		return luavm.NewSandbox()
	}
}

func (p *luaProgram) put(L *lua.LState) {
	select {
	case p.pool <- L:
	default:
		L.Close()
	}
}

// luaTransform is one (stream, node) instance of a Lua filter: the file run in an
// environment of its own, and its state. The state that runs a call is borrowed from the
// program's pool, so a tree of thousands of nodes needs only as many Lua states as filter
// calls run at once, and what a call sees depends only on its node's history.
type luaTransform struct {
	prog  *luaProgram
	node  *luaNode
	state lua.LValue
	lim   luavm.Limits
}

func newLuaTransform(spec *netreduce.FilterSpec, _ netreduce.NodeInfo) (netreduce.Transform, error) {
	prog, err := compileLuaFilter(spec.Origin, spec.Source)
	if err != nil {
		return nil, err
	}
	t := &luaTransform{prog: prog, state: lua.LNil, lim: luavm.Limits{Instructions: spec.Deadline, Memory: luavm.DefaultMemory}}
	if t.lim.Instructions <= 0 {
		t.lim.Instructions = luavm.DefaultInstructions
	}
	L := prog.get()
	defer prog.put(L)
	if t.node, err = prog.instantiate(L, t.lim); err != nil {
		return nil, err
	}
	if t.node.init == nil {
		t.state = L.NewTable()
		return t, nil
	}
	out, err := luavm.CallWithBudget(L, t.lim, []lua.LValue{t.node.env}, t.node.init, packetvalue.ToLua(L, paramsOrEmpty(spec.Params)))
	if err != nil {
		return nil, luavm.Relabel("init: ", err)
	}
	if len(out) > 0 {
		t.state = out[0]
	}
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
	L := t.prog.get()
	defer t.prog.put(L)
	arr := L.CreateTable(len(wave), 0)
	for _, p := range wave {
		arr.Append(packetvalue.PacketToLua(L, p))
	}
	out, err := luavm.CallWithBudget(L, t.lim, []lua.LValue{t.node.env, t.state}, t.node.filter, t.state, arr)
	if err != nil {
		return nil, luavm.Relabel("", err)
	}
	if len(out) == 0 || out[0] == lua.LNil {
		return nil, nil
	}
	tbl, ok := out[0].(*lua.LTable)
	if !ok {
		return nil, fmt.Errorf("%s: filter returned a %s; want a table of values or nil", t.prog.origin, out[0].Type())
	}
	vals := make([]any, 0, tbl.Len())
	for i := 1; i <= tbl.Len(); i++ {
		v, err := packetvalue.FromLua(tbl.RawGetInt(i))
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
