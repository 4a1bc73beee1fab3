package netreduce

import (
	"errors"
	"fmt"
	"github.com/dpclsh/dpclsh/script"
	"github.com/dpclsh/dpclsh/script/packetvalue"

	tree "github.com/dpclsh/dpclsh/netreduce"
	lua "github.com/yuin/gopher-lua"
)

func netStream(L *lua.LState) int {
	n := checkNet(L).net
	comm := script.CheckObject[*tree.Communicator](L, 2, commTypeName)
	opts, _ := L.Get(3).(*lua.LTable)
	if opts == nil {
		opts = L.NewTable()
	}
	cfg, err := streamConfig(L, opts)
	if err != nil {
		L.ArgError(3, err.Error())
	}
	s, err := n.NewStream(comm, cfg)
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	L.Push(script.NewObject(L, streamTypeName, s))
	return 1
}

func streamConfig(L *lua.LState, opts *lua.LTable) (tree.StreamConfig, error) {
	var cfg tree.StreamConfig
	var params map[string]any
	if pt, ok := opts.RawGetString("params").(*lua.LTable); ok {
		p, err := script.PlainValue(pt, "params")
		if err != nil {
			return cfg, err
		}
		if params, ok = p.(map[string]any); !ok {
			return cfg, errors.New("params must be a table with string keys")
		}
	}
	var err error
	if cfg.Up, err = script.FilterSpecOf(opts.RawGetString("up"), params); err != nil {
		return cfg, fmt.Errorf("up: %w", err)
	}
	if cfg.Down, err = script.FilterSpecOf(opts.RawGetString("down"), params); err != nil {
		return cfg, fmt.Errorf("down: %w", err)
	}
	cfg.Sync = tree.DontWait
	if cfg.Up != nil {
		cfg.Sync = tree.WaitForAll
	}
	if sv, ok := opts.RawGetString("sync").(lua.LString); ok {
		if cfg.Sync, err = tree.ParseSync(string(sv)); err != nil {
			return cfg, errors.New(script.ErrorText(err, "netreduce"))
		}
	}
	d, hasTimeout, err := script.TimeoutOption(L, opts)
	switch {
	case err != nil:
		return cfg, err
	case cfg.Sync == tree.Timeout && !hasTimeout:
		return cfg, errors.New(`sync "timeout" needs timeout, a positive number of virtual seconds`)
	case cfg.Sync != tree.Timeout && hasTimeout:
		return cfg, fmt.Errorf(`timeout needs sync "timeout", not %q`, cfg.Sync)
	}
	cfg.Timeout = int64(d)
	return cfg, nil
}

func checkStream(L *lua.LState) *tree.Stream {
	return script.CheckObject[*tree.Stream](L, 1, streamTypeName)
}

var streamMethods = []script.Function{
	{Name: "send", Doc: `s:send(format, values...)
Multicasts one packet (tag 100) to the stream's back-ends. format is MRNet's: %c %uc %hd %uhd
%d %ud %ld %uld %f %lf %s and the arrays %ac ... %as (a Lua array per array value).`, Fn: streamSend},
	{Name: "recv", Doc: `s:recv([virtual_timeout_s]) -> values... | nil, "timeout" | nil, error
Without a timeout, raises an error when nothing is pending once the tree is quiet (no wave
could ever complete).`, Fn: func(L *lua.LState) int { return streamRecv(L, false) }},
	{Name: "recv_packet", Doc: `s:recv_packet([virtual_timeout_s]) -> {values=, value=, rank=, count=, time=, tag=}
As s:recv, with the packet's fields.`, Fn: func(L *lua.LState) int { return streamRecv(L, true) }},
	{Name: "poll", Doc: `s:poll() -> values... | nil
Non-blocking: the next packet already at the front-end, or nil (nil, error on a failed stream).`, Fn: streamPoll},
	{Name: "id", Doc: "s:id() -> n\nThe stream's unique id.", Fn: func(L *lua.LState) int {
		L.Push(lua.LNumber(checkStream(L).ID()))
		return 1
	}},
	{Name: "error", Doc: "s:error() -> message|nil\nWhy the stream failed (a filter error), if it did.", Fn: func(L *lua.LState) int {
		if err := checkStream(L).Err(); err != nil {
			L.Push(lua.LString(err.Error()))
		} else {
			L.Push(lua.LNil)
		}
		return 1
	}},
	{Name: "close", Doc: "s:close()\nRemoves the stream from the tree.", Fn: func(L *lua.LState) int {
		checkStream(L).Close()
		return 0
	}},
}

func streamSend(L *lua.LState) int {
	s := checkStream(L)
	format := L.CheckString(2)
	args, err := packetvalue.ArgsToGo(L, 3)
	if err != nil {
		L.RaiseError("s:send: %s", err.Error())
	}
	if err := s.Send(tree.FirstAppTag, format, args...); err != nil {
		L.RaiseError("%s", err.Error())
	}
	return 0
}

func streamRecv(L *lua.LState, asPacket bool) int {
	s := checkStream(L)
	var p *tree.Packet
	var err error
	if L.Get(2) == lua.LNil {
		p, err = s.RecvQuiet()
	} else {
		secs := L.CheckNumber(2)
		if !(secs >= 0) {
			L.ArgError(2, "timeout must be a non-negative number of virtual seconds")
		}
		p, err = s.RecvTimeout(int64(float64(secs) * 1e9))
	}
	var fe *tree.FilterError
	switch {
	case errors.Is(err, tree.ErrTimeout):
		L.Push(lua.LNil)
		L.Push(lua.LString("timeout"))
		return 2
	case errors.As(err, &fe):
		L.Push(lua.LNil)
		L.Push(lua.LString(err.Error()))
		return 2
	case err != nil:
		L.RaiseError("%s", err.Error())
	}
	if asPacket {
		L.Push(packetTable(L, p))
		return 1
	}
	for _, v := range p.Values {
		L.Push(packetvalue.ToLua(L, v))
	}
	return len(p.Values)
}

func packetTable(L *lua.LState, p *tree.Packet) *lua.LTable {
	t := L.CreateTable(0, 6)
	vals := L.CreateTable(len(p.Values), 0)
	for _, v := range p.Values {
		vals.Append(packetvalue.ToLua(L, v))
	}
	t.RawSetString("values", vals)
	t.RawSetString("value", vals.RawGetInt(1))
	if p.Src >= 0 && !p.Reduced {
		t.RawSetString("rank", lua.LNumber(p.Src))
	}
	t.RawSetString("count", lua.LNumber(p.Count))
	script.SetTime(t, uint64(p.Time))
	t.RawSetString("tag", lua.LNumber(p.Tag))
	return t
}

func streamPoll(L *lua.LState) int {
	p, err := checkStream(L).TryRecv()
	if err != nil {
		L.Push(lua.LNil)
		L.Push(lua.LString(err.Error()))
		return 2
	}
	if p == nil {
		L.Push(lua.LNil)
		return 1
	}
	for _, v := range p.Values {
		L.Push(packetvalue.ToLua(L, v))
	}
	return len(p.Values)
}
