package netreduce

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

func rankHandler(rank int, p *Packet) ([]*Packet, error) {
	return []*Packet{{Tag: p.Tag, Values: []any{int64(rank)}}}, nil
}

// sumWave sends one wave on a sum stream and waits at most limit for its result.
func sumWave(t *testing.T, n *Network, limit time.Duration) *Packet {
	t.Helper()
	s, err := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "sum"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(100, "%d", 0); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	p, err := s.Recv(ctx)
	if err != nil {
		t.Fatalf("recv: %v", err)
	}
	return p
}

// TestTCPFrozenCommProcess stops one comm process (SIGSTOP): its link makes no progress,
// so after the liveness timeout its subtree counts as lost and the wave completes with
// the other back-ends, instead of the front-end waiting forever.
func TestTCPFrozenCommProcess(t *testing.T) {
	tr := tcpForTest(t).(TCP)
	tr.Liveness = time.Second
	n := newNetTopo(t, transportCase{make: func(*testing.T) Transport { return tr }}, mustGenerate(t, "b:4^2"), rankHandler)
	frozen := n.topo.Parent(0)
	cmd := n.fab.(*tcpFabric).procs[frozen]
	if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(syscall.SIGCONT) })
	waitStopped(t, cmd.Process.Pid)
	p := sumWave(t, n, 15*time.Second)
	if p.Values[0] != int64(4+5+6+7+8+9+10+11+12+13+14+15) || p.Count != 12 {
		t.Errorf("sum %v over %d back-ends, want the 12 outside the frozen subtree", p.Values, p.Count)
	}
	if got := n.Lost(); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Errorf("lost %v", got)
	}
}

// waitStopped waits until the kernel has stopped pid (state T in /proc/PID/stat): a
// signal takes effect when the process next runs.
func waitStopped(t *testing.T, pid int) {
	t.Helper()
	for range 200 {
		st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			t.Skipf("cannot read the process state: %v", err)
		}
		if i := strings.LastIndexByte(string(st), ')'); i > 0 && strings.HasPrefix(string(st[i:]), ") T") {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("process %d did not stop", pid)
}

// manualTree starts a front-end waiting for comm processes started by hand and returns
// its address and secret as soon as it listens; the network arrives on the channel once
// the tree is up (or nil after an error, reported to t).
func manualTree(t *testing.T, spec string, tr TCP, h BackendHandler) (string, []byte, <-chan *Network) {
	t.Helper()
	topo := mustGenerate(t, spec)
	type where struct{ addr, secret string }
	listening := make(chan where, 1)
	tr.Manual = true
	tr.OnListen = func(addr, secret string) { listening <- where{addr, secret} }
	nets := make(chan *Network, 1)
	go func() {
		n, err := New(topo, Options{Transport: tr, Backend: h})
		if err != nil {
			t.Errorf("tree: %v", err)
			nets <- nil
			return
		}
		nets <- n
	}()
	w := <-listening
	secret, _ := hex.DecodeString(w.secret)
	return w.addr, secret, nets
}

func startComm(t *testing.T, ctx context.Context, opt CommOptions) {
	go func() {
		if err := RunComm(ctx, opt); err != nil && ctx.Err() == nil {
			t.Logf("comm %d: %v", opt.Rank, err)
		}
	}()
}

func waitTree(t *testing.T, nets <-chan *Network, limit time.Duration) *Network {
	t.Helper()
	select {
	case n := <-nets:
		if n == nil {
			t.FailNow()
		}
		t.Cleanup(func() { n.Close() })
		return n
	case <-time.After(limit):
		t.Fatalf("the tree did not start within %v", limit)
		return nil
	}
}

// TestTCPStalledFrame: a comm process that sends half a frame and stops must not hold the
// front-end's reader (and the wave) forever.
func TestTCPStalledFrame(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr, secret, nets := manualTree(t, "b:2^2", TCP{Liveness: time.Second, StartTimeout: 20 * time.Second}, rankHandler)
	startComm(t, ctx, CommOptions{FrontEnd: addr, Rank: 5, Secret: secret})
	// Rank 4 is a fake comm process: it registers, reports ready, then answers the first
	// batch with 3 bytes of a 100-byte frame and stalls with the connection open.
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := answer(conn, secret, 4); err != nil {
		t.Fatal(err)
	}
	l := newLink(conn)
	if err := l.sendRaw(frameRegister, []byte("127.0.0.1:1")); err != nil {
		t.Fatal(err)
	}
	if typ, _, err := l.read(); err != nil || typ != frameConfig {
		t.Fatalf("config: %d %v", typ, err)
	}
	if err := l.sendRaw(frameReady, nil); err != nil {
		t.Fatal(err)
	}
	n := waitTree(t, nets, 20*time.Second)
	go func() {
		if _, _, err := l.read(); err == nil {
			var hdr [5]byte
			binary.BigEndian.PutUint32(hdr[:4], 100)
			hdr[4] = frameBatch
			conn.Write(append(hdr[:], 1, 2, 3))
		}
	}()
	p := sumWave(t, n, 15*time.Second)
	if p.Values[0] != int64(2+3) || p.Count != 2 {
		t.Errorf("sum %v over %d back-ends, want back-ends 2 and 3", p.Values, p.Count)
	}
}

// TestTCPIdleConnectionsAtStartup: connections that never answer the challenge, to the
// front-end and to a comm process waiting for its children, must not keep the tree from
// starting.
func TestTCPIdleConnectionsAtStartup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr, secret, nets := manualTree(t, "b:2^3", TCP{StartTimeout: 8 * time.Second}, rankHandler)
	topo := mustGenerate(t, "b:2^3")
	var idle []net.Conn
	defer func() {
		for _, c := range idle {
			c.Close()
		}
	}()
	dialIdle := func(to string) {
		for range 3 {
			c, err := net.Dial("tcp", to)
			if err != nil {
				t.Fatal(err)
			}
			idle = append(idle, c)
		}
	}
	dialIdle(addr)
	// The root's children have comm children: give them known addresses and crowd their
	// listeners before the children dial in.
	upper := topo.Children(topo.Root())
	for _, r := range upper {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		at := ln.Addr().String()
		ln.Close()
		startComm(t, ctx, CommOptions{FrontEnd: addr, Rank: r, Secret: secret, Listen: at})
		waitListening(t, at)
		dialIdle(at)
	}
	for _, r := range topo.Internal() {
		if !slices.Contains(upper, r) {
			startComm(t, ctx, CommOptions{FrontEnd: addr, Rank: r, Secret: secret})
		}
	}
	n := waitTree(t, nets, 20*time.Second)
	if p := sumWave(t, n, 10*time.Second); p.Values[0] != int64(28) || p.Count != 8 {
		t.Errorf("sum %v over %d back-ends", p.Values, p.Count)
	}
}

func waitListening(t *testing.T, addr string) {
	t.Helper()
	for range 200 {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("nothing listens on %s", addr)
}

// TestTCPAcceptSurvivesEMFILE: while the front-end is out of descriptors, Accept fails
// with EMFILE; once descriptors are back, comm processes must still be admitted.
func TestTCPAcceptSurvivesEMFILE(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr, secret, nets := manualTree(t, "b:2^2", TCP{StartTimeout: 15 * time.Second}, rankHandler)
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count descriptors: %v", err)
	}
	low := lim
	// The listing counted its own descriptor, closed since: that one is the room for the
	// dialing socket, and none is left for the accepted one.
	low.Cur = uint64(len(fds))
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", addr)
	time.Sleep(200 * time.Millisecond) // the front-end's Accept meets EMFILE
	syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	if err != nil {
		t.Fatalf("dial with one descriptor left: %v", err)
	}
	c.Close()
	for _, r := range mustGenerate(t, "b:2^2").Internal() {
		startComm(t, ctx, CommOptions{FrontEnd: addr, Rank: r, Secret: secret})
	}
	n := waitTree(t, nets, 20*time.Second)
	if p := sumWave(t, n, 10*time.Second); p.Values[0] != int64(6) || p.Count != 4 {
		t.Errorf("sum %v over %d back-ends", p.Values, p.Count)
	}
}

func mustGenerate(t *testing.T, spec string) *Topology {
	t.Helper()
	topo, err := Generate(spec)
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// TestTCPSlowSubtreeStart: a comm process waits for its own children before it reports
// ready and sends nothing meanwhile; a subtree that takes longer to come up than the
// liveness timeout is still within the start-up bound and must not be cut off.
func TestTCPSlowSubtreeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr := TCP{Liveness: 300 * time.Millisecond, StartTimeout: 20 * time.Second}
	addr, secret, nets := manualTree(t, "b:2^3", tr, rankHandler)
	topo := mustGenerate(t, "b:2^3")
	upper := topo.Children(topo.Root())
	for _, r := range upper {
		startComm(t, ctx, CommOptions{FrontEnd: addr, Rank: r, Secret: secret})
	}
	time.Sleep(time.Second)
	for _, r := range topo.Internal() {
		if !slices.Contains(upper, r) {
			startComm(t, ctx, CommOptions{FrontEnd: addr, Rank: r, Secret: secret})
		}
	}
	n := waitTree(t, nets, 20*time.Second)
	if p := sumWave(t, n, 10*time.Second); p.Values[0] != int64(28) || p.Count != 8 {
		t.Errorf("sum %v over %d back-ends; lost %v", p.Values, p.Count, n.Lost())
	}
}
