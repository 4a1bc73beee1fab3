package dpcl

import (
	"fmt"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/probes"
	"github.com/dpclsh/dpclsh/runtime"
	"github.com/dpclsh/dpclsh/script"
	lua "github.com/yuin/gopher-lua"
)

// eventLogTypeName is the metatable name of event logs (app:event_log).
const eventLogTypeName = "dpcl.EventLog"

// eventFields is the layout of one event in a batch, in order: the function's id
// (probe.func()), the time base at entry and at exit, the link register at entry (the
// call's return address), then the call's arguments — bytes moved, peer rank, tag,
// communicator, request address (MPI_Isend/MPI_Irecv: where the handle goes; MPI_Wait and
// MPI_Waitall: the first request they complete), the number of requests, and the source
// and tag of MPI_Sendrecv's receive. An argument a call does not have holds absentArg
// (the last two are read only for MPI_Sendrecv, which always has them). limpio.trace builds its probe arrays from this list
// (log.fields), so the rank's records and this decoder cannot disagree.
var eventFields = []string{"func", "start", "finish", "lr", "bytes", "peer", "tag", "comm", "req", "nreq", "rpeer", "rtag"}

const (
	fFunc = iota
	fStart
	fFinish
	fLR
	fBytes
	fPeer
	fTag
	fComm
	fReq
	fNReq
	fRPeer
	fRTag
	nFields
)

// absentArg marks an argument the call does not have: outside every int's range, so no
// real peer, tag or handle is mistaken for it.
const absentArg = -(int64(1) << 40)

// callKind is what a function does for the flows of a trace.
type callKind uint8

const (
	kindOther    callKind = iota
	kindSend              // a point-to-point send (blocking or not): a flow starts here
	kindRecv              // a blocking receive: its flow ends here
	kindIrecv             // a nonblocking receive: its flow ends at the wait that completes it
	kindWait              // MPI_Wait, MPI_Waitall: completes requests req .. req+4*(nreq-1)
	kindSendrecv          // both: a send to peer with tag, a receive from rpeer with rtag
)

var callKindNames = map[string]callKind{"send": kindSend, "recv": kindRecv, "irecv": kindIrecv, "wait": kindWait,
	"sendrecv": kindSendrecv}

// traceEvent is one MPI call of one rank. has says which arguments the call had.
type traceEvent struct {
	rank, fn      int32
	start, finish int64
	bytes         int64
	lr            uint32
	peer, tag     int32
	comm          int32
	req           uint32
	nreq          int32
	rpeer, rtag   int32
	has           uint8
}

const (
	hasBytes = 1 << iota
	hasPeer
	hasTag
	hasComm
	hasReq
)

// eventLog receives limpio.trace's batches in Go: each batch's values become typed events
// appended to one slice, with no Lua table per message or per event. Its handles'
// messages reach it straight from the dispatch (log:attach).
type eventLog struct {
	app      *luaApp         // whose sinks the log attaches to
	prog     *probes.Program // names functions and callsites, also after app:close()
	part     *bgl.Partition  // places ranks on nodes and I/O nodes
	events   []traceEvent
	kinds    map[int32]callKind // by function id; absent is kindOther
	drops    map[int32]int64    // per rank: events past max_events, as its last batch said
	messages int
	bad      int // batches that were not a trace batch
	scratch  []int64
}

// appEventLogMethods are the application's event log constructor.
var appEventLogMethods = []script.Function{
	{Name: "event_log", Doc: `app:event_log({[function_name] = "send"|"recv"|"irecv"|"wait"|"sendrecv", ...}) -> EventLog
A receiver of batches of MPI call records (limpio.trace's), decoded in Go: log.fields is
the record's layout, log.absent the value of an argument a call does not have;
log:attach(h) takes h's messages. The kinds name which calls start ("send") and end
("recv"; "irecv" at the "wait" covering its request; "sendrecv" both) a message's flow
in log:perfetto.`, Fn: appEventLog},
}

func init() {
	script.RegisterType(script.Type{
		Name: eventLogTypeName, Receiver: "log",
		Doc: "EventLog — MPI call records received in Go (app:event_log): log.fields, log.absent and the methods below.",
		Methods: []script.Function{
			{Name: "attach", Doc: "log:attach(h)\nh's messages come to the log, as batches of records, instead of a callback or the queue.", Fn: eventLogAttach},
			{Name: "count", Doc: "log:count() -> n\nThe records received so far.", Fn: eventLogCount},
			{Name: "messages", Doc: "log:messages() -> n\nThe batches received so far.", Fn: eventLogMessages},
			{Name: "dropped", Doc: "log:dropped() -> n\nRecords the ranks left out (past their maximum), as their batches said.", Fn: eventLogDropped},
			{Name: "events", Doc: `log:events() -> {{rank=, func=, start=, finish=, bytes=, peer=, tag=, comm=, callsite=}, ...}
Every record as a Lua table, in the order received; arguments a call lacks are nil.`, Fn: eventLogEvents},
			{Name: "perfetto", Doc: `log:perfetto(path) -> {events=, flows=, bytes=, dropped=, messages=}
Writes Chrome/Perfetto JSON: a process per I/O node, a thread per rank (named with its
node and torus coordinate), a slice per call with its arguments and callsite, and a flow
from each point-to-point send to its receive.`, Fn: eventLogPerfetto},
		},
	})
}

func appEventLog(L *lua.LState) int {
	a := script.CheckObject[*luaApp](L, 1, appTypeName)
	app := checkApp1(L)
	t := L.OptTable(2, L.NewTable())
	ids := map[string]int32{}
	for i, f := range app.Prog.Funcs {
		if _, dup := ids[f.Name]; !dup {
			ids[f.Name] = int32(i)
		}
	}
	log := &eventLog{app: a, prog: app.Prog, part: a.part, kinds: map[int32]callKind{}, drops: map[int32]int64{}}
	t.ForEach(func(k, v lua.LValue) {
		name, kind := lua.LVAsString(k), lua.LVAsString(v)
		ck, ok := callKindNames[kind]
		if !ok {
			L.ArgError(2, fmt.Sprintf("%s: kind must be \"send\", \"recv\", \"irecv\", \"wait\" or \"sendrecv\", not %q", name, kind))
		}
		if id, ok := ids[name]; ok {
			log.kinds[id] = ck
		}
	})
	ud := script.NewObject(L, eventLogTypeName, log)
	withFields(L, eventLogTypeName, eventLogField)
	L.Push(ud)
	return 1
}

func eventLogField(L *lua.LState, ud *lua.LUserData, key string) (lua.LValue, bool) {
	if _, ok := ud.Value.(*eventLog); !ok {
		return nil, false
	}
	switch key {
	case "fields":
		t := L.CreateTable(len(eventFields), 0)
		for _, f := range eventFields {
			t.Append(lua.LString(f))
		}
		return t, true
	case "absent":
		return lua.LNumber(absentArg), true
	}
	return nil, false
}

func checkEventLog(L *lua.LState) *eventLog {
	return script.CheckObject[*eventLog](L, 1, eventLogTypeName)
}

func eventLogAttach(L *lua.LState) int {
	log := checkEventLog(L)
	h := script.CheckObject[*runtime.Handle](L, 2, handleTypeName)
	if log.app.sinks == nil {
		log.app.sinks = map[uint32]messageSink{}
	}
	log.app.sinks[h.ID] = log
	return 0
}

func eventLogCount(L *lua.LState) int {
	L.Push(lua.LNumber(len(checkEventLog(L).events)))
	return 1
}

func eventLogMessages(L *lua.LState) int {
	L.Push(lua.LNumber(checkEventLog(L).messages))
	return 1
}

func eventLogDropped(L *lua.LState) int {
	L.Push(lua.LNumber(checkEventLog(L).dropped()))
	return 1
}

func (log *eventLog) dropped() int64 {
	var n int64
	for _, d := range log.drops {
		n += d
	}
	return n
}

// messageSink takes a handle's messages in Go, before any Lua table is made of them.
type messageSink interface {
	receive(m runtime.Message) error
}

// receive decodes one batch: nFields values per record, then how many of the values are
// in use and how many records the rank has dropped so far.
func (log *eventLog) receive(m runtime.Message) error {
	v := flattenInts(log.scratch[:0], m.Values)
	log.scratch = v
	if m.Rank < 0 || len(v) < 2 {
		log.bad++
		return fmt.Errorf("a trace batch needs one rank's records and two counts, got %d values from rank %d", len(v), m.Rank)
	}
	used, dropped := v[len(v)-2], v[len(v)-1]
	if used < 0 || used > int64(len(v)-2) || used%nFields != 0 {
		log.bad++
		return fmt.Errorf("rank %d: a trace batch says %d values are in use of %d", m.Rank, used, len(v)-2)
	}
	log.messages++
	rank := int32(m.Rank)
	if dropped > log.drops[rank] {
		log.drops[rank] = dropped
	}
	for k := 0; k < int(used); k += nFields {
		log.events = append(log.events, decodeEvent(rank, v[k:k+nFields]))
	}
	return nil
}

// decodeEvent makes one record's values a traceEvent.
func decodeEvent(rank int32, r []int64) traceEvent {
	e := traceEvent{rank: rank, fn: int32(r[fFunc]), start: r[fStart], finish: r[fFinish], lr: uint32(r[fLR])}
	if r[fBytes] != absentArg {
		e.bytes, e.has = r[fBytes], e.has|hasBytes
	}
	if r[fPeer] != absentArg {
		e.peer, e.has = int32(r[fPeer]), e.has|hasPeer
	}
	if r[fTag] != absentArg {
		e.tag, e.has = int32(r[fTag]), e.has|hasTag
	}
	if r[fComm] != absentArg {
		e.comm, e.has = int32(r[fComm]), e.has|hasComm
	}
	if r[fReq] != absentArg {
		e.req, e.nreq, e.has = uint32(r[fReq]), int32(r[fNReq]), e.has|hasReq
	}
	e.rpeer, e.rtag = int32(r[fRPeer]), int32(r[fRTag])
	return e
}

// flattenInts appends the integers of a message's values to out: scalars and arrays alike.
func flattenInts(out []int64, vals []any) []int64 {
	for _, v := range vals {
		switch x := v.(type) {
		case int64:
			out = append(out, x)
		case uint64:
			out = append(out, int64(x))
		case float64:
			out = append(out, int64(x))
		case []int64:
			out = append(out, x...)
		case []uint64:
			for _, e := range x {
				out = append(out, int64(e))
			}
		case []any:
			out = flattenInts(out, x)
		}
	}
	return out
}

// funcName is the name of function id, or "func#id" for an id the program lacks.
func (log *eventLog) funcName(id int32) string {
	if id >= 0 && int(id) < len(log.prog.Funcs) {
		return log.prog.Funcs[id].Name
	}
	return fmt.Sprintf("func#%d", id)
}

// callsites resolves return addresses through DWARF once each: "file.c:line", or the
// function and offset where the program has no line for it.
type callsites struct {
	log  *eventLog
	site map[uint32]string
	fn   map[uint32]string
}

func (log *eventLog) callsites() *callsites {
	return &callsites{log: log, site: map[uint32]string{}, fn: map[uint32]string{}}
}

func (c *callsites) of(lr uint32) (site, caller string) {
	if s, ok := c.site[lr]; ok {
		return s, c.fn[lr]
	}
	fr := c.log.prog.FrameAt(lr)
	site, caller = fr.String(), fr.Func
	if fr.File != "" {
		site = fmt.Sprintf("%s:%d", fr.File, fr.Line)
	}
	c.site[lr], c.fn[lr] = site, caller
	return site, caller
}

func eventLogEvents(L *lua.LState) int {
	log := checkEventLog(L)
	sites := log.callsites()
	names := map[int32]lua.LString{}
	out := L.CreateTable(len(log.events), 0)
	for _, e := range log.events {
		name, ok := names[e.fn]
		if !ok {
			name = lua.LString(log.funcName(e.fn))
			names[e.fn] = name
		}
		t := L.CreateTable(0, 9)
		t.RawSetString("rank", lua.LNumber(e.rank))
		t.RawSetString("func", name)
		t.RawSetString("start", lua.LNumber(e.start))
		t.RawSetString("finish", lua.LNumber(e.finish))
		if e.has&hasBytes != 0 {
			t.RawSetString("bytes", lua.LNumber(e.bytes))
		}
		if e.has&hasPeer != 0 {
			t.RawSetString("peer", lua.LNumber(e.peer))
		}
		if e.has&hasTag != 0 {
			t.RawSetString("tag", lua.LNumber(e.tag))
		}
		if e.has&hasComm != 0 {
			t.RawSetString("comm", lua.LNumber(e.comm))
		}
		site, _ := sites.of(e.lr)
		t.RawSetString("callsite", lua.LString(site))
		out.Append(t)
	}
	L.Push(out)
	return 1
}
