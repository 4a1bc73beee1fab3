package dpcl

import (
	"slices"
	"testing"
)

// Function ids of the hand-made traces below.
const (
	idSend = iota
	idIsend
	idRecv
	idIrecv
	idWait
	idBarrier
	idSendrecv
)

func flowLog(evs ...traceEvent) *eventLog {
	return &eventLog{events: evs, kinds: map[int32]callKind{idSend: kindSend, idIsend: kindSend,
		idRecv: kindRecv, idIrecv: kindIrecv, idWait: kindWait, idSendrecv: kindSendrecv}}
}

// p2p is a call of rank at time t to or from peer with tag on MPI_COMM_WORLD.
func p2p(rank, fn int32, t int64, peer, tag int32) traceEvent {
	return traceEvent{rank: rank, fn: fn, start: t, finish: t + 5, peer: peer, tag: tag, comm: 1,
		has: hasBytes | hasPeer | hasTag | hasComm}
}

// shift is an MPI_Sendrecv of rank to next with tag, from prev with tag.
func shift(rank int32, t int64, next, prev, tag int32) traceEvent {
	e := p2p(rank, idSendrecv, t, next, tag)
	e.rpeer, e.rtag = prev, tag
	return e
}

func withReq(e traceEvent, req uint32, n int32) traceEvent {
	e.req, e.nreq, e.has = req, n, e.has|hasReq
	return e
}

func TestTraceFlowsMatchAsMPIDoes(t *testing.T) {
	tests := []struct {
		name string
		log  *eventLog
		want []flow
	}{
		{"in order per source, tag and communicator", flowLog(
			p2p(0, idSend, 10, 1, 7), // 0
			p2p(0, idSend, 20, 1, 8), // 1
			p2p(0, idSend, 30, 1, 7), // 2
			p2p(1, idRecv, 5, 0, 8),  // 3: tag 8 takes the second send
			p2p(1, idRecv, 40, 0, 7), // 4
			p2p(1, idRecv, 50, 0, 7), // 5
		), []flow{{send: 1, recv: 3, bind: 3}, {send: 0, recv: 4, bind: 4}, {send: 2, recv: 5, bind: 5}}},
		{"an Irecv ends at the wait covering its request, not at a wait for another", flowLog(
			withReq(p2p(1, idIrecv, 1, 0, 3), 0x1000, 0),                               // 0
			withReq(p2p(1, idIrecv, 2, 2, 3), 0x2000, 0),                               // 1
			withReq(traceEvent{rank: 1, fn: idWait, start: 20, finish: 30}, 0x2000, 1), // 2
			withReq(traceEvent{rank: 1, fn: idWait, start: 40, finish: 50}, 0x0ffc, 2), // 3: 0xffc, 0x1000
			withReq(p2p(0, idIsend, 3, 1, 3), 0x3000, 0),                               // 4
			withReq(p2p(2, idIsend, 4, 1, 3), 0x3000, 0),                               // 5
		), []flow{{send: 4, recv: 0, bind: 3}, {send: 5, recv: 1, bind: 2}}},
		{"a request slot reused before any wait leaves the first Irecv at itself", flowLog(
			withReq(p2p(1, idIrecv, 1, 0, 3), 0x1000, 0),                               // 0
			withReq(p2p(1, idIsend, 2, 2, 3), 0x1000, 0),                               // 1
			withReq(traceEvent{rank: 1, fn: idWait, start: 20, finish: 30}, 0x1000, 1), // 2
			p2p(0, idSend, 3, 1, 3),                                                    // 3
			p2p(2, idRecv, 9, 1, 3),                                                    // 4
		), []flow{{send: 3, recv: 0, bind: 0}, {send: 1, recv: 4, bind: 4}}},
		{"wildcards take the earliest send they match; MPI_PROC_NULL moves nothing", flowLog(
			p2p(2, idSend, 30, 0, 5),                    // 0
			p2p(1, idSend, 10, 0, 6),                    // 1
			p2p(3, idSend, 20, 0, 5),                    // 2
			p2p(0, idRecv, 40, mpiAnySource, 5),         // 3: rank 3's, sent before rank 2's
			p2p(0, idRecv, 50, 2, mpiAnyTag),            // 4
			p2p(0, idRecv, 60, mpiAnySource, mpiAnyTag), // 5
			p2p(0, idRecv, 70, mpiProcNull, 5),          // 6
			p2p(0, idBarrier, 80, 0, 0),                 // 7: not point-to-point
		), []flow{{send: 2, recv: 3, bind: 3}, {send: 0, recv: 4, bind: 4}, {send: 1, recv: 5, bind: 5}}},
		{"MPI_Sendrecv sends to its peer and receives from its source", flowLog(
			shift(0, 10, 1, 2, 9), // 0
			shift(1, 11, 2, 0, 9), // 1
			shift(2, 12, 0, 1, 9), // 2
		), []flow{{send: 2, recv: 0, bind: 0}, {send: 0, recv: 1, bind: 1}, {send: 1, recv: 2, bind: 2}}},
	}
	for _, tt := range tests {
		got := tt.log.flows()
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s:\n got %v\nwant %v", tt.name, got, tt.want)
		}
	}
}
