package netreduce

import (
	"context"
	"errors"
	"math/rand"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// transportCase makes a fresh transport for one test; the same suite runs against every
// transport.
type transportCase struct {
	name     string
	make     func(t *testing.T) Transport
	maxBack  int // the largest tree this transport is tried with
	randRuns int
}

func runConformance(t *testing.T, tc transportCase) {
	tests := []struct {
		name string
		fn   func(t *testing.T, tc transportCase)
	}{
		{"FiltersMatchReference", confFilters},
		{"MulticastReachesExactlyTheStream", confMulticast},
		{"ConcurrentStreams", confConcurrent},
		{"SyncModes", confSyncModes},
		{"BackendAndInternalFailure", confFailure},
		{"NodeWithNoLiveChildLeavesTheWave", confOrphanedNode},
		{"FilterFaultIsContained", confFault},
		{"BackPressureLosesNothing", confBackPressure},
		{"BadInput", confBadInput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, tc) })
	}
}

func newNet(t *testing.T, tc transportCase, spec string, h BackendHandler) *Network {
	t.Helper()
	topo, err := Generate(spec)
	if err != nil {
		t.Fatal(err)
	}
	return newNetTopo(t, tc, topo, h)
}

func newNetTopo(t *testing.T, tc transportCase, topo *Topology, h BackendHandler) *Network {
	t.Helper()
	n, err := New(topo, Options{Transport: tc.make(t), Backend: h})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

func recvWithin(t *testing.T, s *Stream) *Packet {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p, err := s.Recv(ctx)
	if err != nil {
		t.Fatalf("recv: %v", err)
	}
	return p
}

func confFilters(t *testing.T, tc transportCase) {
	rng := rand.New(rand.NewSource(11))
	for i := 0; i < tc.randRuns; i++ {
		fc := filterCases[i%len(filterCases)]
		topo := randomTopology(rng, tc.maxBack)
		set := randomSubset(rng, topo.Backends())
		n := newNetTopo(t, tc, topo, echoHandler(fc))
		comm := n.Broadcast()
		if set != nil {
			comm, _ = n.CommunicatorSet(set)
		}
		s, err := n.NewStream(comm, StreamConfig{Up: &FilterSpec{Name: fc.name, Params: fc.params}})
		if err != nil {
			t.Fatal(err)
		}
		for req := int64(1); req <= 3; req++ {
			if err := s.Send(100, "%ld", req); err != nil {
				t.Fatal(err)
			}
		}
		ranks := comm.Ranks()
		for req := int64(1); req <= 3; req++ {
			p := recvWithin(t, s)
			if want := fc.want(ranks, req); !reflect.DeepEqual(p.Values, want) {
				t.Fatalf("run %d %s on %d back-ends, wave %d: got %v want %v", i, fc.name, topo.Backends(), req, p.Values, want)
			}
		}
		n.Close()
	}
}

func confMulticast(t *testing.T, tc transportCase) {
	var mu sync.Mutex
	got := map[int]int{}
	n := newNet(t, tc, "b:4^3", func(rank int, p *Packet) ([]*Packet, error) {
		mu.Lock()
		got[rank]++
		mu.Unlock()
		return []*Packet{{Values: []any{int64(rank)}}}, nil
	})
	want := []int{0, 5, 9, 63}
	c, err := n.Communicator(want)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := n.NewStream(c, StreamConfig{Up: &FilterSpec{Name: "concat"}})
	if err := s.Send(100, "%d %s", 7, "go"); err != nil {
		t.Fatal(err)
	}
	p := recvWithin(t, s)
	if !reflect.DeepEqual(p.Values, []any{int64(0), int64(5), int64(9), int64(63)}) {
		t.Fatalf("concat got %v", p.Values)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != len(want) {
		t.Fatalf("packet reached %v, want exactly %v", got, want)
	}
	for _, r := range want {
		if got[r] != 1 {
			t.Fatalf("back-end %d got %d packets", r, got[r])
		}
	}
}

func confConcurrent(t *testing.T, tc transportCase) {
	n := newNet(t, tc, "b:3x4x2", func(rank int, p *Packet) ([]*Packet, error) {
		return []*Packet{{Values: []any{p.Values[0].(int64) * int64(rank+1)}}}, nil
	})
	names := []string{"sum", "max", "min", "sum"}
	streams := make([]*Stream, len(names))
	for i, f := range names {
		s, err := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: f}})
		if err != nil {
			t.Fatal(err)
		}
		streams[i] = s
	}
	for round := int64(1); round <= 20; round++ {
		for i, s := range streams {
			if err := s.Send(100+i, "%ld", round+int64(i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	nb := int64(n.Backends())
	for round := int64(1); round <= 20; round++ {
		for i, s := range streams {
			x := round + int64(i)
			want := map[string]int64{"sum": x * nb * (nb + 1) / 2, "max": x * nb, "min": x}[names[i]]
			p := recvWithin(t, s)
			if p.Values[0] != want || int(p.Tag) != 100+i {
				t.Fatalf("stream %d round %d: got %v tag %d, want %d tag %d", i, round, p.Values, p.Tag, want, 100+i)
			}
		}
	}
}

func confSyncModes(t *testing.T, tc transportCase) {
	silent := 5
	n := newNet(t, tc, "b:4^2", func(rank int, p *Packet) ([]*Packet, error) {
		if rank == silent {
			return nil, nil
		}
		return []*Packet{{Values: []any{int64(1)}}}, nil
	})
	to, _ := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "sum"}, Sync: Timeout, Timeout: 5e6})
	to.Send(100, "%d", 0)
	if p, err := to.RecvTimeout(1e6); err != ErrTimeout || p != nil {
		t.Fatalf("timeout wave closed early: %v %v", p, err)
	}
	p, err := to.RecvTimeout(10e6)
	if err != nil {
		t.Fatalf("timeout wave never closed: %v", err)
	}
	if p.Values[0] != int64(15) || p.Count != 15 {
		t.Fatalf("timeout wave: got %v count %d, want 15 from 15", p.Values, p.Count)
	}
	dw, _ := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "sum"}, Sync: DontWait})
	dw.Send(100, "%d", 0)
	if err := n.Sync(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 15; i++ {
		p, err := dw.TryRecv()
		if err != nil || p == nil || p.Count != 1 {
			t.Fatalf("dontwait packet %d: %v %v", i, p, err)
		}
	}
	wa, _ := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "sum"}})
	wa.Send(100, "%d", 0)
	if _, err := wa.RecvQuiet(); err != ErrQuiet {
		t.Fatalf("waitforall with a silent back-end: want ErrQuiet, got %v", err)
	}
}

func confFailure(t *testing.T, tc transportCase) {
	var silent sync.Map
	n := newNet(t, tc, "b:4^3", func(rank int, p *Packet) ([]*Packet, error) {
		if _, ok := silent.Load(rank); ok {
			return nil, nil
		}
		return []*Packet{{Values: []any{int64(rank)}}}, nil
	})
	s, _ := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "concat"}})
	silent.Store(6, true)
	s.Send(100, "%d", 1)
	if _, err := s.RecvQuiet(); err != ErrQuiet {
		t.Fatalf("wave completed without back-end 6: %v", err)
	}
	if err := n.Kill(6); err != nil {
		t.Fatal(err)
	}
	p := recvWithin(t, s)
	if len(p.Values) != 63 || p.Count != 63 || contains64(p.Values, 6) {
		t.Fatalf("after killing back-end 6: %d values, count %d", len(p.Values), p.Count)
	}
	// Back-ends 16-31 hang below one internal node: silence one, kill the node mid-wave.
	node := n.Topology().Parent(n.Topology().Parent(20))
	if lo, hi := n.Topology().BackendRange(node); lo != 16 || hi != 32 {
		t.Fatalf("internal node %d serves %d-%d", node, lo, hi-1)
	}
	silent.Store(20, true)
	s.Send(100, "%d", 2)
	if _, err := s.RecvQuiet(); err != ErrQuiet {
		t.Fatalf("wave completed without back-end 20: %v", err)
	}
	if err := n.Kill(node); err != nil {
		t.Fatal(err)
	}
	p = recvWithin(t, s)
	if len(p.Values) != 47 || contains64(p.Values, 16) || contains64(p.Values, 31) || !contains64(p.Values, 32) {
		t.Fatalf("after killing node %d: %d values %v", node, len(p.Values), p.Values)
	}
	// A node whose children are all back-ends (40-43), killed with a wave open.
	leafParent := n.Topology().Parent(41)
	silent.Store(41, true)
	s.Send(100, "%d", 3)
	if _, err := s.RecvQuiet(); err != ErrQuiet {
		t.Fatalf("wave completed without back-end 41: %v", err)
	}
	if err := n.Kill(leafParent); err != nil {
		t.Fatal(err)
	}
	p = recvWithin(t, s)
	if len(p.Values) != 43 || contains64(p.Values, 40) || !contains64(p.Values, 44) {
		t.Fatalf("after killing node %d: %d values %v", leafParent, len(p.Values), p.Values)
	}
	n.Sync()
	want := append(append([]int{6}, seq(16, 32)...), seq(40, 44)...)
	if got := n.Lost(); !reflect.DeepEqual(got, want) {
		t.Fatalf("lost %v, want %v", got, want)
	}
}

// confOrphanedNode kills, one by one, every back-end below one internal node while a wave
// is open: the node itself is alive but can contribute nothing, so the wave must complete
// without it.
func confOrphanedNode(t *testing.T, tc transportCase) {
	var silent sync.Map
	n := newNet(t, tc, "b:4^3", func(rank int, p *Packet) ([]*Packet, error) {
		if _, ok := silent.Load(rank); ok {
			return nil, nil
		}
		return []*Packet{{Values: []any{int64(rank)}}}, nil
	})
	s, _ := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "concat"}})
	for r := 40; r < 44; r++ {
		silent.Store(r, true)
	}
	s.Send(100, "%d", 1)
	if _, err := s.RecvQuiet(); err != ErrQuiet {
		t.Fatalf("wave completed without back-ends 40-43: %v", err)
	}
	for r := 40; r < 44; r++ {
		if err := n.Kill(r); err != nil {
			t.Fatal(err)
		}
	}
	p := recvWithin(t, s)
	if len(p.Values) != 60 || contains64(p.Values, 40) || !contains64(p.Values, 44) {
		t.Fatalf("after killing back-ends 40-43: %d values %v", len(p.Values), p.Values)
	}
	s.Send(100, "%d", 2)
	if p := recvWithin(t, s); len(p.Values) != 60 {
		t.Fatalf("next wave: %d values", len(p.Values))
	}
	n.Sync()
	if got := n.Lost(); !reflect.DeepEqual(got, seq(40, 44)) {
		t.Fatalf("lost %v, want 40-43", got)
	}
}

func contains64(vs []any, x int64) bool {
	for _, v := range vs {
		if v == x {
			return true
		}
	}
	return false
}

func seq(lo, hi int) []int {
	out := make([]int, 0, hi-lo)
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}

// faulty fails when a wave contains a packet whose first value is negative.
type faulty struct{}

func (faulty) Close() {}
func (faulty) Filter(w []*Packet) ([]*Packet, error) {
	for _, p := range w {
		if v, ok := p.Values[0].(int64); ok && v < 0 {
			return nil, errors.New("negative input")
		}
	}
	return opSumFilter(w)
}

func opSumFilter(w []*Packet) ([]*Packet, error) {
	e := &elementwise{name: "sum", op: opSum}
	return e.Filter(w)
}

func init() {
	RegisterFilter("test-faulty", func(*FilterSpec, NodeInfo) (Transform, error) { return faulty{}, nil })
}

func confFault(t *testing.T, tc transportCase) {
	n := newNet(t, tc, "b:4^3", func(rank int, p *Packet) ([]*Packet, error) {
		v := int64(1)
		if rank%9 == 0 && p.Values[0].(int64) == 2 {
			v = -1
		}
		return []*Packet{{Values: []any{v}}}, nil
	})
	bad, _ := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "test-faulty"}})
	good, _ := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "sum"}})
	bad.Send(100, "%ld", 1)
	if p := recvWithin(t, bad); p.Values[0] != int64(64) {
		t.Fatalf("first wave: %v", p.Values)
	}
	bad.Send(100, "%ld", 2)
	_, err := bad.RecvQuiet()
	var fe *FilterError
	if !errors.As(err, &fe) || fe.Msg != "negative input" || n.Topology().IsBackend(fe.Rank) {
		t.Fatalf("want a FilterError from an internal node, got %v", err)
	}
	if err := bad.Send(100, "%ld", 3); !errors.As(err, &fe) {
		t.Fatalf("send on a failed stream: %v", err)
	}
	good.Send(100, "%ld", 1)
	if p := recvWithin(t, good); p.Values[0] != int64(64) {
		t.Fatalf("other stream after a fault: %v", p.Values)
	}
}

func confBackPressure(t *testing.T, tc transportCase) {
	const per = 40
	var sent atomic.Int64
	n := newNet(t, tc, "b:4^2", func(rank int, p *Packet) ([]*Packet, error) {
		out := make([]*Packet, per)
		for i := range out {
			out[i] = &Packet{Values: []any{int64(i)}}
		}
		sent.Add(per)
		return out, nil
	})
	s, _ := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "sum"}})
	const reqs = 50
	go func() {
		for i := 0; i < reqs; i++ {
			s.Send(100, "%d", i)
		}
	}()
	for i := 0; i < reqs*per; i++ {
		p := recvWithin(t, s)
		if want := int64(16 * (i % per)); p.Values[0] != want {
			t.Fatalf("packet %d: got %v want %d", i, p.Values[0], want)
		}
		if i%500 == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	if sent.Load() != 16*reqs*per {
		t.Fatalf("back-ends sent %d", sent.Load())
	}
}

func confBadInput(t *testing.T, tc transportCase) {
	n := newNet(t, tc, "b:2^2", nil)
	s, _ := n.NewStream(n.Broadcast(), StreamConfig{})
	for _, c := range []struct {
		tag    int
		format string
		args   []any
		want   string
	}{
		{5, "%d", []any{1}, "tag 5 is reserved"},
		{100, "%d", []any{1.5}, "argument 1 (%d): 1.5 is not an integer"},
		{100, "%d %s", []any{1, 2}, "argument 2 (%s): want a string"},
		{100, "%uc", []any{300}, "argument 1 (%uc): 300 out of range"},
		{100, "%q", []any{1}, "unknown conversion"},
		{100, "%ad", []any{[]any{1, "x"}}, "argument 1 (%ad): element 2"},
	} {
		err := s.Send(c.tag, c.format, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("send(%d, %q, %v): %v, want %q", c.tag, c.format, c.args, err, c.want)
		}
	}
	if _, err := n.Communicator([]int{4}); err == nil {
		t.Error("communicator with rank 4 of 4 back-ends accepted")
	}
	if _, err := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "nope"}}); err == nil {
		t.Error("unknown filter accepted")
	}
	if _, err := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "histogram"}}); err == nil ||
		!strings.Contains(err.Error(), `parameter "min" missing`) {
		t.Errorf("histogram without params: %v", err)
	}
}

func TestConformanceInProcess(t *testing.T) {
	runConformance(t, transportCase{name: "inproc", make: func(*testing.T) Transport { return InProcess{} },
		maxBack: 4096, randRuns: 21})
}

// TestInProcess65536Backends reduces over the full LLNL BG/L shape and a 4-ary tree of
// the same size, with a subset stream next to the broadcast one.
func TestInProcess65536Backends(t *testing.T) {
	if testing.Short() {
		t.Skip("65,536 back-ends")
	}
	for _, spec := range []string{"bgl:65536:64:8", "b:4^8"} {
		tc := transportCase{make: func(*testing.T) Transport { return InProcess{} }}
		n := newNet(t, tc, spec, func(rank int, p *Packet) ([]*Packet, error) {
			return []*Packet{{Values: []any{int64(rank % 1000)}}}, nil
		})
		all, _ := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "sum"}})
		c, _ := n.Communicator([]int{0, 4095, 65535})
		few, _ := n.NewStream(c, StreamConfig{Up: &FilterSpec{Name: "concat"}})
		all.Send(100, "%d", 0)
		few.Send(100, "%d", 0)
		var want int64
		for r := 0; r < 65536; r++ {
			want += int64(r % 1000)
		}
		if p := recvWithin(t, all); p.Values[0] != want || p.Count != 65536 {
			t.Fatalf("%s: sum %v count %d, want %d", spec, p.Values, p.Count, want)
		}
		if p := recvWithin(t, few); !reflect.DeepEqual(p.Values, []any{int64(0), int64(95), int64(535)}) {
			t.Fatalf("%s: concat %v", spec, p.Values)
		}
		n.Close()
	}
}
