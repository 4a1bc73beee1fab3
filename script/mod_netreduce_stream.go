package script

import (
	"errors"
	"fmt"
	"github.com/dpclsh/dpclsh/script/packetvalue"

	"github.com/dpclsh/dpclsh/netreduce"
	lua "github.com/yuin/gopher-lua"
)

func netStream(L *lua.LState) int {
	n := checkNet(L).net
	comm := CheckObject[*netreduce.Communicator](L, 2, commTypeName)
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
	L.Push(NewObject(L, streamTypeName, s))
	return 1
}

func streamConfig(L *lua.LState, opts *lua.LTable) (netreduce.StreamConfig, error) {
	var cfg netreduce.StreamConfig
	var params map[string]any
	if pt, ok := opts.RawGetString("params").(*lua.LTable); ok {
		p, err := PlainValue(pt, "params")
		if err != nil {
			return cfg, err
		}
		if params, ok = p.(map[string]any); !ok {
			return cfg, errors.New("params must be a table with string keys")
		}
	}
	var err error
	if cfg.Up, err = FilterSpecOf(opts.RawGetString("up"), params); err != nil {
		return cfg, fmt.Errorf("up: %w", err)
	}
	if cfg.Down, err = FilterSpecOf(opts.RawGetString("down"), params); err != nil {
		return cfg, fmt.Errorf("down: %w", err)
	}
	cfg.Sync = netreduce.DontWait
	if cfg.Up != nil {
		cfg.Sync = netreduce.WaitForAll
	}
	if sv, ok := opts.RawGetString("sync").(lua.LString); ok {
		if cfg.Sync, err = netreduce.ParseSync(string(sv)); err != nil {
			return cfg, errors.New(ErrorText(err, "netreduce"))
		}
	}
	d, hasTimeout, err := TimeoutOption(L, opts)
	switch {
	case err != nil:
		return cfg, err
	case cfg.Sync == netreduce.Timeout && !hasTimeout:
		return cfg, errors.New(`sync "timeout" needs timeout, a positive number of virtual seconds`)
	case cfg.Sync != netreduce.Timeout && hasTimeout:
		return cfg, fmt.Errorf(`timeout needs sync "timeout", not %q`, cfg.Sync)
	}
	cfg.Timeout = int64(d)
	return cfg, nil
}

func checkStream(L *lua.LState) *netreduce.Stream {
	return CheckObject[*netreduce.Stream](L, 1, streamTypeName)
}

var streamMethods = []Function{
	{"send", `s:send(format, values...)
Multicasts one packet (tag 100) to the stream's back-ends. format is MRNet's: %c %uc %hd %uhd
%d %ud %ld %uld %f %lf %s and the arrays %ac ... %as (a Lua array per array value).`, streamSend},
	{"recv", `s:recv([virtual_timeout_s]) -> values... | nil, "timeout" | nil, error
Without a timeout, raises an error when nothing is pending once the tree is quiet (no wave
could ever complete).`, func(L *lua.LState) int { return streamRecv(L, false) }},
	{"recv_packet", `s:recv_packet([virtual_timeout_s]) -> {values=, value=, rank=, count=, time=, tag=}
As s:recv, with the packet's fields.`, func(L *lua.LState) int { return streamRecv(L, true) }},
	{"poll", `s:poll() -> values... | nil
Non-blocking: the next packet already at the front-end, or nil (nil, error on a failed stream).`, streamPoll},
	{"id", "s:id() -> n\nThe stream's unique id.", func(L *lua.LState) int {
		L.Push(lua.LNumber(checkStream(L).ID()))
		return 1
	}},
	{"error", "s:error() -> message|nil\nWhy the stream failed (a filter error), if it did.", func(L *lua.LState) int {
		if err := checkStream(L).Err(); err != nil {
			L.Push(lua.LString(err.Error()))
		} else {
			L.Push(lua.LNil)
		}
		return 1
	}},
	{"close", "s:close()\nRemoves the stream from the tree.", func(L *lua.LState) int {
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
	if err := s.Send(netreduce.FirstAppTag, format, args...); err != nil {
		L.RaiseError("%s", err.Error())
	}
	return 0
}

func streamRecv(L *lua.LState, asPacket bool) int {
	s := checkStream(L)
	var p *netreduce.Packet
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
	var fe *netreduce.FilterError
	switch {
	case errors.Is(err, netreduce.ErrTimeout):
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

func packetTable(L *lua.LState, p *netreduce.Packet) *lua.LTable {
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
	SetTime(t, uint64(p.Time))
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
