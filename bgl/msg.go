package bgl

import "container/heap"

type msgKind uint8

const (
	msgShip   msgKind = iota + 1 // compute node -> I/O node: a function-shipped call
	msgReply                     // I/O node -> compute node: its answer
	msgPacket                    // compute node -> I/O-node daemon: an ais_send packet
	msgEvent                     // compute node -> front-end and daemon: an Event
)

// message is anything that crosses from one simulated node to another. The scheduler
// delivers messages in (at, src, seq) order: arrival time, then source (ranks first, then
// I/O nodes as Nodes+index), then the source's own sequence number.
type message struct {
	at    uint64
	src   int
	seq   uint64
	kind  msgKind
	rank  int // the compute node concerned
	req   *shipReq
	rep   shipReply
	data  []byte
	pc    uint32 // msgPacket: address of the sc that sent it
	event Event
}

func (a *message) before(b *message) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	if a.src != b.src {
		return a.src < b.src
	}
	return a.seq < b.seq
}

// msgQueue is a min-heap of messages by delivery order.
type msgQueue []*message

func (q msgQueue) Len() int           { return len(q) }
func (q msgQueue) Less(i, j int) bool { return q[i].before(q[j]) }
func (q msgQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *msgQueue) Push(x any)        { *q = append(*q, x.(*message)) }
func (q *msgQueue) Pop() any {
	old := *q
	m := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	return m
}

func (q *msgQueue) push(m *message) { heap.Push(q, m) }
func (q *msgQueue) pop() *message   { return heap.Pop(q).(*message) }
func (q msgQueue) peek() *message {
	if len(q) == 0 {
		return nil
	}
	return q[0]
}
