package bgl

import (
	"encoding/json"
	"fmt"
)

// The records of a window-end exchange (shard_run.go): one kind byte, then for writes
// and events the delivering message's key (arrival, source, sequence, order within the
// delivery), then the payload.
const (
	recWrite   = 'w' // rank, stream (0: the rank ended), time, bytes
	recEvent   = 'e' // the Event as JSON
	recRefusal = 'r' // rank, the message that ends the run
	recAlive   = 'a' // the process's ranks running or blocked, for an end by a nonzero exit
)

func appendKey(b []byte, k msgKey) []byte {
	b = be.AppendUint64(b, k.at)
	b = be.AppendUint64(b, uint64(k.src))
	b = be.AppendUint64(b, k.seq)
	return be.AppendUint32(b, k.sub)
}

const keyBytes = 28

func readKey(b []byte) msgKey {
	return msgKey{at: be.Uint64(b), src: int(be.Uint64(b[8:])), seq: be.Uint64(b[16:]), sub: be.Uint32(b[24:])}
}

func encodeWrite(w shardOp) []byte {
	b := appendKey([]byte{recWrite}, w.key)
	b = be.AppendUint32(b, uint32(w.rank))
	b = append(b, byte(w.stream))
	b = be.AppendUint64(b, w.t)
	return append(b, w.data...)
}

func encodeEvent(e shardEvent) []byte {
	js, err := json.Marshal(e.ev)
	if err != nil {
		panic(fmt.Sprintf("bgl: an Event does not encode: %v", err)) // only plain fields
	}
	return append(appendKey([]byte{recEvent}, e.key), js...)
}

func encodeRefusal(r *shardRefusal) []byte {
	b := be.AppendUint32([]byte{recRefusal}, uint32(r.rank))
	return append(b, r.msg...)
}

// decode takes one record from process from.
func (sh *shardRun) decode(rec []byte, from int, writes *[]shardOp, events *[]shardEvent) error {
	bad := func(why string) error {
		return errorf("shard exchange: record of %d bytes from process %d: %s", len(rec), from, why)
	}
	if len(rec) == 0 {
		return bad("empty")
	}
	switch body := rec[1:]; rec[0] {
	case recWrite:
		if len(body) < keyBytes+13 {
			return bad("a console write too short")
		}
		p := body[keyBytes:]
		*writes = append(*writes, shardOp{key: readKey(body), rank: int(be.Uint32(p)), stream: int(p[4]),
			t: be.Uint64(p[5:]), data: p[13:]})
	case recEvent:
		if len(body) < keyBytes {
			return bad("an event too short")
		}
		var ev Event
		if err := json.Unmarshal(body[keyBytes:], &ev); err != nil {
			return bad(fmt.Sprintf("an event that does not decode: %v", err))
		}
		*events = append(*events, shardEvent{key: readKey(body), ev: ev})
	case recRefusal:
		if len(body) < 4 {
			return bad("a refusal too short")
		}
		r := &shardRefusal{rank: int(be.Uint32(body)), msg: string(body[4:])}
		sh.mu.Lock()
		if sh.refused == nil || r.rank < sh.refused.rank {
			sh.refused = r
		}
		sh.mu.Unlock()
	case recAlive:
		if len(body) != 4 {
			return bad("a live count not of 4 bytes")
		}
		if from != sh.ex.Rank() {
			sh.aliveElsewhere += int(be.Uint32(body))
		}
	default:
		return bad(fmt.Sprintf("unknown kind %q", rec[0]))
	}
	return nil
}
