package netreduce

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// nodeProc is a bare Node as a Process.
type nodeProc struct{ *Node }

func (p nodeProc) Step(m Msg) []Msg {
	p.Node.Step(m)
	return p.Node.Take()
}

// flatCosts: taking a packet costs 10 ns, sending one up 1 ns and 5 ns on the link.
type flatCosts struct{}

func (flatCosts) Recv(_ int, m *Msg, _ int64) int64 {
	if m.Kind == MsgData {
		return 10
	}
	return 0
}

func (flatCosts) Send(_ int, m *Msg) (int64, int64, bool) {
	return 1, 5, m.Kind == MsgData
}

// TestDriverQueuesAtBusyProcesses sends three packets that reach one internal node at
// once: it takes them one after the other, and the front-end, busy with the first when
// the second arrives, takes that one when it is done.
func TestDriverQueuesAtBusyProcesses(t *testing.T) {
	topo, err := Generate("b:3^2")
	if err != nil {
		t.Fatal(err)
	}
	type arrival struct {
		src int32
		at  int64
	}
	var got []arrival
	d := NewDriver(topo, func(r int) Process { return nodeProc{NewNode(topo, r)} }, flatCosts{}, nil,
		func(m Msg, at int64) {
			if m.Kind == MsgData {
				got = append(got, arrival{m.Packet.Src, at})
			}
		})
	d.Post(Msg{Kind: MsgOpen, From: -1, To: int32(topo.Root()), Stream: 1, Spec: &StreamSpec{ID: 1, Sync: DontWait}}, 0)
	parent := topo.Parent(0)
	for b := range 3 {
		d.Push(parent, 100, 0, Msg{Kind: MsgData, From: int32(b), To: int32(parent), Stream: 1,
			Packet: &Packet{Stream: 1, Tag: FirstAppTag, Src: int32(b), Count: 1, Values: []any{int64(b)}}})
	}
	d.Quiesce()
	// The internal node takes packet b from 100+11b (10 ns to take it, 1 to send it: the
	// next waits), it reaches the front-end 5 ns after it left, and the front-end, idle
	// by then, takes 10 ns over it.
	want := []arrival{{0, 126}, {1, 137}, {2, 148}}
	if len(got) != len(want) {
		t.Fatalf("arrivals %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("arrivals %v, want %v", got, want)
		}
	}
	if busy := d.Busy(parent); busy != 33 {
		t.Errorf("internal node busy %d ns, want 3 x (10 + 1)", busy)
	}
}

// TestInProcessRunsNoGoroutine: an in-process tree is stepped by the caller, so making
// one and reducing over it starts no goroutine, whatever its size.
func TestInProcessRunsNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	topo, err := Generate("b:4^3")
	if err != nil {
		t.Fatal(err)
	}
	n, err := New(topo, Options{Transport: InProcess{}, Backend: func(rank int, p *Packet) ([]*Packet, error) {
		return []*Packet{{Values: []any{int64(1)}}}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "sum"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(FirstAppTag, "%d", 0); err != nil {
		t.Fatal(err)
	}
	during := runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p, err := s.Recv(ctx)
	if err != nil || p.Values[0] != int64(64) {
		t.Fatalf("sum %v, %v", p, err)
	}
	n.Close()
	if during != before {
		t.Errorf("%d goroutines before the tree, %d with it", before, during)
	}
}
