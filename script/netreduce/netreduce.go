package netreduce

import (
	"errors"
	"fmt"
	"github.com/dpclsh/dpclsh/script"
	"github.com/dpclsh/dpclsh/script/packetvalue"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dpclsh/dpclsh/contexts"
	"github.com/dpclsh/dpclsh/contexts/ranks"
	tree "github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/script/luavm"
	lua "github.com/yuin/gopher-lua"
)

const (
	netTypeName    = "netreduce.Network"
	streamTypeName = "netreduce.Stream"
	commTypeName   = "netreduce.Communicator"
)

// BackendLimits bound one call of a Lua back-end behaviour (net:on_backend). Each call
// runs in a fresh environment: what one back-end stores in a global, another never sees.
var BackendLimits = luavm.Limits{Instructions: luavm.DefaultInstructions, Memory: luavm.DefaultMemory}

func init() {
	script.RegisterModule(script.Module{
		Name: "netreduce",
		Doc: `netreduce — the MRNet-style multicast/reduction tree on its own.
  local net = netreduce.new{topology = "b:4^3"}   -- "b:", "k:", "g:", "flat:", "bgl:" specs,
                                                  -- or an MRNet topology file path
  net:on_backend(function(rank, x) return rank + x end)
  local s = net:stream(net:broadcast(), {up = "sum", sync = "waitforall"})
  s:send("%d", 1)
  local v = s:recv([virtual_timeout_s])           -- values unpacked; nil, "timeout"
Virtual time: timeouts are virtual; s:recv(t) advances the tree's clock by t once
everything in flight has been processed.`,
		Funcs: []script.Function{
			{Name: "new", Doc: `netreduce.new{topology = spec|path [, transport = "inproc"|"tcp"]} -> Network
Instantiates a tree. Ranks: back-ends 0..N-1, internal nodes next, front-end last.
Over tcp: listen = "host:port", manual = true (start comm processes by hand), timeout_s =
start-up bound (30), liveness_s = how long a comm process's link may make no progress
(frozen, stalled mid-frame) before its subtree counts as lost (10; wall-clock seconds),
backend_processes = "burst"|"rank"|"pid": one process per back-end, each connected to
its parent over TCP and answering with that behaviour (net:on_backend is
then not used): burst answers {n} with n packets {1}, rank with {rank}, pid with {pid}.`, Fn: netNew},
			{Name: "topology", Doc: `netreduce.topology(spec|path [, "file"|"dot"]) -> string, backends
A generated or parsed topology printed in MRNet's file format (default) or as DOT.`, Fn: netTopology},
		},
	})
	script.RegisterType(script.Type{Name: netTypeName, Receiver: "net", Doc: "A reduction tree (netreduce.new).", Methods: netMethods})
	script.RegisterType(script.Type{Name: streamTypeName, Receiver: "s", Doc: "A stream of a reduction tree (net:stream).", Methods: streamMethods})
	script.RegisterType(script.Type{Name: commTypeName, Doc: "A set of back-ends (net:broadcast, net:communicator).", Methods: commMethods,
		Meta: []script.Function{{Name: "__len", Doc: "", Fn: func(L *lua.LState) int {
			L.Push(lua.LNumber(script.CheckObject[*tree.Communicator](L, 1, commTypeName).Len()))
			return 1
		}}}})
}

var netMethods = []script.Function{
	{Name: "backends", Doc: "net:backends() -> n\nThe number of back-ends.", Fn: func(L *lua.LState) int {
		L.Push(lua.LNumber(checkNet(L).net.Backends()))
		return 1
	}},
	{Name: "on_backend", Doc: `net:on_backend(fn)
fn(rank, values...) runs for each downstream packet reaching a back-end, in pooled
sandboxed states (fn must not have upvalues); what it returns is sent up (nil: nothing).`, Fn: netOnBackend},
	{Name: "broadcast", Doc: "net:broadcast() -> Communicator\nEvery back-end.", Fn: func(L *lua.LState) int {
		L.Push(script.NewObject(L, commTypeName, checkNet(L).net.Broadcast()))
		return 1
	}},
	{Name: "communicator", Doc: "net:communicator(list|spec|context) -> Communicator\nA subset of the back-ends.", Fn: netCommunicator},
	{Name: "stream", Doc: `net:stream(comm, {up = filter, sync = "waitforall"|"timeout"|"dontwait", timeout = virtual_s,
                  params = {}, down = filter}) -> Stream
filter is a built-in name or a filter.load object. Default sync: waitforall with a filter,
dontwait without. timeout_ms (virtual milliseconds) is timeout's deprecated spelling.`, Fn: netStream},
	{Name: "lost", Doc: "net:lost() -> spec\nThe back-ends reported lost (dead, or below a dead node), as \"0-3,7\".", Fn: func(L *lua.LState) int {
		L.Push(lua.LString(ranks.Spec(checkNet(L).net.Lost())))
		return 1
	}},
	{Name: "kill", Doc: "net:kill(rank)\nMakes a back-end or internal node fail (failure injection).", Fn: func(L *lua.LState) int {
		if err := checkNet(L).net.Kill(script.CheckInt(L, 2, "rank")); err != nil {
			L.RaiseError("%s", err.Error())
		}
		return 0
	}},
	{Name: "clock", Doc: "net:clock() -> seconds\nThe tree's virtual time.", Fn: func(L *lua.LState) int {
		L.Push(lua.LNumber(float64(checkNet(L).net.Clock()) / 1e9))
		return 1
	}},
	{Name: "measure_clocks", Doc: `net:measure_clocks{seed = 1, range_us = 1200, link_us = 50, send_us = 10, jitter_us = 20, rounds = 3}
  -> measured, seeded
MRNet's clock-skew detection over the tree's links: each host's clock is off by a seeded
offset in [-range_us/2, range_us/2]; timestamped probes go down each link and back (delays:
link_us, send_us per message written and queued behind, up to jitter_us more); each link's
offset comes from its smallest round trip and offsets add up the tree. Both tables map a
back-end rank to its clock minus the front-end's, in microseconds: measured from the
readings, seeded the truth to compare with.`, Fn: netMeasureClocks},
	{Name: "advance", Doc: "net:advance(seconds)\nAdvances the tree's virtual clock (closing expired timeout waves) and waits as net:sync does.", Fn: func(L *lua.LState) int {
		n := checkNet(L).net
		secs := L.CheckNumber(2)
		if !(secs >= 0) {
			L.ArgError(2, "seconds must be a non-negative number")
		}
		if err := n.AdvanceTo(n.Clock() + int64(float64(secs)*1e9)); err != nil {
			L.RaiseError("%s", err.Error())
		}
		return 0
	}},
	{Name: "sync", Doc: "net:sync()\nWaits until everything in flight has been processed.", Fn: func(L *lua.LState) int {
		if err := checkNet(L).net.Sync(); err != nil {
			L.RaiseError("%s", err.Error())
		}
		return 0
	}},
	{Name: "topology", Doc: `net:topology(["file"|"dot"]) -> string`, Fn: func(L *lua.LState) int {
		return pushTopology(L, checkNet(L).net.Topology(), L.OptString(2, "file"))
	}},
	{Name: "close", Doc: "net:close()\nStops the tree (also done at session end).", Fn: func(L *lua.LState) int {
		checkNet(L).Close()
		return 0
	}},
}

// luaNet is a Network plus its Lua back-end behaviour.
type luaNet struct {
	net     *tree.Network
	backend atomic.Pointer[lua.FunctionProto]
	vms     chan *backendVM
	once    sync.Once
}

type backendVM struct {
	L *lua.LState
}

func (n *luaNet) Close() error {
	n.once.Do(func() { n.net.Close() })
	return nil
}

func checkNet(L *lua.LState) *luaNet { return script.CheckObject[*luaNet](L, 1, netTypeName) }

func netNew(L *lua.LState) int {
	opts := L.CheckTable(1)
	spec, ok := opts.RawGetString("topology").(lua.LString)
	if !ok {
		L.ArgError(1, "topology (a spec like \"b:4^3\" or a file path) is required")
	}
	topo, err := tree.LoadTopology(string(spec))
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	ln := &luaNet{vms: make(chan *backendVM, 64)}
	o := tree.Options{Backend: ln.handle}
	if tr, err := transportOption(script.SessionOf(L), opts); err != nil {
		L.RaiseError("netreduce.new: %s", err.Error())
	} else {
		o.Transport = tr
	}
	if ln.net, err = tree.New(topo, o); err != nil {
		L.RaiseError("%s", err.Error())
	}
	script.SessionOf(L).OnClose(ln)
	L.Push(script.NewObject(L, netTypeName, ln))
	return 1
}

func transportOption(s *script.Session, opts *lua.LTable) (tree.Transport, error) {
	switch name := lua.LVAsString(opts.RawGetString("transport")); name {
	case "", "inproc":
		return tree.InProcess{}, nil
	case "tcp":
		if s.TCPTransport() == nil {
			return nil, errors.New("the TCP transport is not available in this program")
		}
		p, err := script.PlainValue(opts, "options")
		if err != nil {
			return nil, err
		}
		m, _ := p.(map[string]any)
		return s.TCPTransport()(m)
	default:
		return nil, fmt.Errorf("unknown transport %q (want inproc or tcp)", name)
	}
}

func netTopology(L *lua.LState) int {
	topo, err := tree.LoadTopology(L.CheckString(1))
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	n := pushTopology(L, topo, L.OptString(2, "file"))
	L.Push(lua.LNumber(topo.Backends()))
	return n + 1
}

func pushTopology(L *lua.LState, topo *tree.Topology, form string) int {
	var b strings.Builder
	switch form {
	case "file":
		topo.WriteFile(&b)
	case "dot":
		topo.WriteDOT(&b)
	default:
		L.ArgError(2, `want "file" or "dot"`)
	}
	L.Push(lua.LString(b.String()))
	return 1
}

func netOnBackend(L *lua.LState) int {
	n := checkNet(L)
	if L.Get(2) == lua.LNil {
		n.backend.Store(nil)
		return 0
	}
	fn := L.CheckFunction(2)
	if fn.IsG {
		L.ArgError(2, "a Lua function is required (Go functions cannot run in the back-ends' states)")
	}
	if len(fn.Upvalues) > 0 || fn.Proto.NumUpvalues > 0 {
		L.ArgError(2, fmt.Sprintf("the back-end function (%s:%d) uses %d upvalue(s); it runs in the back-ends' own states, so it may use only its arguments and globals of the sandbox",
			fn.Proto.SourceName, fn.Proto.LineDefined, fn.Proto.NumUpvalues))
	}
	n.backend.Store(fn.Proto)
	return 0
}

// handle is the tree's BackendHandler: it runs the Lua behaviour in a pooled state.
func (n *luaNet) handle(rank int, p *tree.Packet) ([]*tree.Packet, error) {
	proto := n.backend.Load()
	if proto == nil {
		return nil, nil
	}
	var vm *backendVM
	select {
	case vm = <-n.vms:
	default:
		vm = &backendVM{L: luavm.NewSandbox()}
	}
	env := luavm.NewEnvironment(vm.L)
	fn := vm.L.NewFunctionFromProto(proto)
	fn.Env = env
	args := make([]lua.LValue, 0, 1+len(p.Values))
	args = append(args, lua.LNumber(rank))
	for _, v := range p.Values {
		args = append(args, packetvalue.ToLua(vm.L, v))
	}
	out, err := luavm.CallWithBudget(vm.L, BackendLimits, []lua.LValue{env}, fn, args...)
	select {
	case n.vms <- vm:
	default:
		vm.L.Close()
	}
	if err != nil {
		return nil, luavm.Relabel("", err)
	}
	if len(out) == 0 || out[0] == lua.LNil {
		return nil, nil
	}
	vals := make([]any, len(out))
	for i, v := range out {
		if vals[i], err = packetvalue.FromLua(v); err != nil {
			return nil, fmt.Errorf("return value %d: %w", i+1, err)
		}
	}
	return []*tree.Packet{{Values: vals}}, nil
}

func netCommunicator(L *lua.LState) int {
	n := checkNet(L).net
	nb := n.Backends()
	var set *tree.RankSet
	var err error
	switch v := L.Get(2).(type) {
	case lua.LString:
		var parsed *ranks.Set
		if parsed, err = ranks.Parse(nb, string(v)); err == nil {
			set, err = tree.RankSetOf(nb, parsed.List())
		}
	case *lua.LTable:
		set = tree.NewRankSet(nb)
		for i := 1; i <= v.Len(); i++ {
			r, ok := script.LuaInt(v.RawGetInt(i))
			if !ok || r < 0 || r >= nb {
				L.ArgError(2, fmt.Sprintf("item %d: %s is not a back-end rank (0-%d)", i, script.Describe(v.RawGetInt(i)), nb-1))
			}
			set.Add(r)
		}
	case *lua.LUserData:
		c, ok := v.Value.(*contexts.Context)
		if !ok {
			L.ArgError(2, "list, spec or context expected, got "+script.Describe(v))
		}
		if c.Size() != nb {
			L.ArgError(2, fmt.Sprintf("context of %d ranks for a tree of %d back-ends", c.Size(), nb))
		}
		set, err = tree.RankSetOf(nb, c.Set.List())
	default:
		L.ArgError(2, "list, spec or context expected, got "+script.Describe(L.Get(2)))
	}
	if err != nil {
		L.ArgError(2, err.Error())
	}
	c, err := n.CommunicatorSet(set)
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	L.Push(script.NewObject(L, commTypeName, c))
	return 1
}

var commMethods = []script.Function{
	{Name: "ranks", Doc: "comm:ranks() -> spec\nThe back-ends, as \"0-3,7\".", Fn: func(L *lua.LState) int {
		c := script.CheckObject[*tree.Communicator](L, 1, commTypeName)
		L.Push(lua.LString(ranks.Spec(c.Ranks())))
		return 1
	}},
	{Name: "size", Doc: "comm:size() -> n", Fn: func(L *lua.LState) int {
		L.Push(lua.LNumber(script.CheckObject[*tree.Communicator](L, 1, commTypeName).Len()))
		return 1
	}},
}
