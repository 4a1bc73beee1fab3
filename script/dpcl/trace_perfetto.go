package dpcl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/dpclsh/dpclsh/bgl/abi"
	"github.com/dpclsh/dpclsh/script"
	"github.com/dpclsh/dpclsh/script/fileout"
	lua "github.com/yuin/gopher-lua"
)

// Perfetto (Chrome trace JSON) layout: a process per I/O node (pid), a thread per rank
// (tid), one complete slice ("X") per call with its arguments and callsite, and per
// message a flow start ("s") inside the send's slice and a flow end ("f", bound to the
// enclosing slice) inside its receive's. Written by appending to one buffer flushed every
// perfettoChunk bytes: no Lua, no per-event allocation.

const perfettoChunk = 1 << 20

// perfettoInfo is what log:perfetto reports.
type perfettoInfo struct {
	events, flows int
	bytes         int64
}

func eventLogPerfetto(L *lua.LState) int {
	log := checkEventLog(L)
	path := L.CheckString(2)
	var info perfettoInfo
	err := script.WriteFile(script.SessionOf(L), path, fileout.Public, func(w io.Writer) error {
		var err error
		info, err = log.writePerfetto(w)
		return err
	})
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	t := L.CreateTable(0, 5)
	t.RawSetString("events", lua.LNumber(info.events))
	t.RawSetString("flows", lua.LNumber(info.flows))
	t.RawSetString("bytes", lua.LNumber(info.bytes))
	t.RawSetString("dropped", lua.LNumber(log.dropped()))
	t.RawSetString("messages", lua.LNumber(log.messages))
	L.Push(t)
	return 1
}

// perfettoWriter appends JSON to buf and hands it to w in chunks.
type perfettoWriter struct {
	w     io.Writer
	buf   []byte
	total int64
	err   error
	first bool
}

func (p *perfettoWriter) flush() {
	if p.err == nil && len(p.buf) > 0 {
		n, err := p.w.Write(p.buf)
		p.total += int64(n)
		p.err = err
	}
	p.buf = p.buf[:0]
}

// next starts an event: the separator, and a flush when the chunk is full.
func (p *perfettoWriter) next() {
	if len(p.buf) >= perfettoChunk {
		p.flush()
	}
	if !p.first {
		p.buf = append(p.buf, ",\n"...)
	}
	p.first = false
}

// micros appends virtual time-base ticks as microseconds with nanosecond digits.
func (p *perfettoWriter) micros(ticks int64) {
	p.buf = strconv.AppendFloat(p.buf, float64(ticks)*1e6/abi.ClockHz, 'f', 3, 64)
}

func (p *perfettoWriter) int(key string, v int64) {
	p.buf = append(p.buf, key...)
	p.buf = strconv.AppendInt(p.buf, v, 10)
}

// quoted returns s as a JSON string, "<" and ">" as they are (the torus coordinates).
func quoted(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func (log *eventLog) writePerfetto(w io.Writer) (perfettoInfo, error) {
	p := &perfettoWriter{w: w, buf: make([]byte, 0, perfettoChunk+4096), first: true}
	p.buf = append(p.buf, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"...)
	log.writeMetadata(p)
	names := map[int32][]byte{}
	sites := log.callsites()
	args := map[uint32][]byte{}
	for i := range log.events {
		e := &log.events[i]
		name, ok := names[e.fn]
		if !ok {
			name = quoted(log.funcName(e.fn))
			names[e.fn] = name
		}
		site, ok := args[e.lr]
		if !ok {
			s, caller := sites.of(e.lr)
			site = append(append(append([]byte(`"callsite":`), quoted(s)...), `,"caller":`...), quoted(caller)...)
			args[e.lr] = site
		}
		p.next()
		p.buf = append(p.buf, `{"name":`...)
		p.buf = append(p.buf, name...)
		p.buf = append(p.buf, `,"cat":"mpi","ph":"X"`...)
		log.writeThread(p, e.rank)
		p.buf = append(p.buf, `,"ts":`...)
		p.micros(e.start)
		p.buf = append(p.buf, `,"dur":`...)
		p.micros(e.finish - e.start)
		p.buf = append(p.buf, `,"args":{`...)
		if e.has&hasBytes != 0 {
			p.int(`"bytes":`, e.bytes)
			p.buf = append(p.buf, ',')
		}
		if e.has&hasPeer != 0 {
			p.int(`"peer":`, int64(e.peer))
			p.buf = append(p.buf, ',')
		}
		if e.has&hasTag != 0 {
			p.int(`"tag":`, int64(e.tag))
			p.buf = append(p.buf, ',')
		}
		if e.has&hasComm != 0 {
			p.int(`"communicator":`, int64(e.comm))
			p.buf = append(p.buf, ',')
		}
		if log.kinds[e.fn] == kindSendrecv {
			p.int(`"source":`, int64(e.rpeer))
			p.int(`,"recvtag":`, int64(e.rtag))
			p.buf = append(p.buf, ',')
		}
		if e.has&hasReq != 0 && log.kinds[e.fn] == kindWait {
			p.int(`"requests":`, int64(e.nreq))
			p.buf = append(p.buf, ',')
		}
		p.buf = append(p.buf, site...)
		p.buf = append(p.buf, "}}"...)
	}
	flows := log.flows()
	for id, f := range flows {
		log.writeFlow(p, id+1, 's', &log.events[f.send])
		log.writeFlow(p, id+1, 'f', &log.events[f.bind])
	}
	p.buf = append(p.buf, "\n]}\n"...)
	p.flush()
	return perfettoInfo{events: len(log.events), flows: len(flows), bytes: p.total}, p.err
}

// writeThread appends the pid (the rank's I/O node) and tid (the rank).
func (log *eventLog) writeThread(p *perfettoWriter, rank int32) {
	p.int(`,"pid":`, int64(log.ioNode(rank)))
	p.int(`,"tid":`, int64(rank))
}

// ioNode is the I/O node serving rank, 0 for a rank outside the partition.
func (log *eventLog) ioNode(rank int32) int {
	if log.part == nil || int(rank) >= log.part.Tasks() || rank < 0 {
		return 0
	}
	return log.part.IONodeOfRank(int(rank))
}

// writeFlow appends one end of a message's arrow, inside the slice of call e (its
// middle, so that the enclosing slice is e even when another call starts as e ends).
func (log *eventLog) writeFlow(p *perfettoWriter, id int, ph byte, e *traceEvent) {
	p.next()
	p.buf = append(p.buf, `{"name":"message","cat":"p2p","ph":"`...)
	p.buf = append(p.buf, ph, '"')
	if ph == 'f' {
		p.buf = append(p.buf, `,"bp":"e"`...)
	}
	p.int(`,"id":`, int64(id))
	log.writeThread(p, e.rank)
	p.buf = append(p.buf, `,"ts":`...)
	p.micros(e.start + (e.finish-e.start)/2)
	p.buf = append(p.buf, '}')
}

// writeMetadata names every I/O node's process and every traced rank's thread: the
// rank, its compute node and torus coordinate, and the I/O node serving it.
func (log *eventLog) writeMetadata(p *perfettoWriter) {
	var ranks []bool
	for i := range log.events {
		r := int(log.events[i].rank)
		for len(ranks) <= r {
			ranks = append(ranks, false)
		}
		ranks[r] = true
	}
	named := map[int]bool{}
	for r, seen := range ranks {
		if !seen {
			continue
		}
		io := log.ioNode(int32(r))
		if !named[io] {
			named[io] = true
			p.next()
			p.buf = fmt.Appendf(p.buf, `{"name":"process_name","ph":"M","pid":%d,"args":{"name":"I/O node %d"}}`, io, io)
			p.next()
			p.buf = fmt.Appendf(p.buf, `{"name":"process_sort_index","ph":"M","pid":%d,"args":{"sort_index":%d}}`, io, io)
		}
		p.next()
		p.buf = fmt.Appendf(p.buf, `{"name":"thread_name","ph":"M","pid":%d,"tid":%d,"args":{"name":%s}}`, io, r, quoted(log.rankName(r)))
		p.next()
		p.buf = fmt.Appendf(p.buf, `{"name":"thread_sort_index","ph":"M","pid":%d,"tid":%d,"args":{"sort_index":%d}}`, io, r, r)
	}
}

// rankName is a rank's track name: "rank 5 (node 5 <1,1,0>, I/O node 0)".
func (log *eventLog) rankName(r int) string {
	if log.part == nil || r >= log.part.Tasks() {
		return fmt.Sprintf("rank %d", r)
	}
	node := log.part.NodeOf(r)
	return fmt.Sprintf("rank %d (node %d %s, I/O node %d)", r, node, log.part.Coord(node), log.part.IONodeOf(node))
}
