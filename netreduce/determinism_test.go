package netreduce

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// inProcessRun drives one in-process tree through what a script does: a dontwait stream
// whose packets the back-ends answer each on its own, a timeout wave that some back-ends
// never answer (closed by advancing the virtual clock), a killed internal node, and a
// filter that fails. It returns everything the front-end saw, in the order it saw it.
func inProcessRun(t *testing.T) string {
	t.Helper()
	topo, err := Generate("b:4^3")
	if err != nil {
		t.Fatal(err)
	}
	n, err := New(topo, Options{Backend: func(rank int, p *Packet) ([]*Packet, error) {
		x, ok := p.Values[0].(int64)
		if !ok {
			return []*Packet{{Values: []any{p.Values[0]}}}, nil // a string the sum filter refuses
		}
		if p.Tag == FirstAppTag+1 && rank%3 == 0 {
			return nil, nil // silent on the timeout stream: its wave waits for the deadline
		}
		return []*Packet{{Values: []any{x*100 + int64(rank)}}, {Values: []any{-x}}}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	var out strings.Builder
	drain := func(name string, s *Stream) {
		for {
			p, err := s.RecvQuiet()
			if err != nil {
				fmt.Fprintf(&out, "%s: %v\n", name, err)
				return
			}
			fmt.Fprintf(&out, "%s: src %d tag %d count %d t %d %v\n", name, p.Src, p.Tag, p.Count, p.Time, p.Values)
		}
	}
	each, err := n.NewStream(n.Broadcast(), StreamConfig{Sync: DontWait})
	if err != nil {
		t.Fatal(err)
	}
	for x := int64(1); x <= 3; x++ {
		if err := each.Send(FirstAppTag, "%d", x); err != nil {
			t.Fatal(err)
		}
	}
	drain("each", each)

	timed, err := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "sum"}, Sync: Timeout, Timeout: 5e6})
	if err != nil {
		t.Fatal(err)
	}
	if err := timed.Send(FirstAppTag+1, "%d", 7); err != nil {
		t.Fatal(err)
	}
	for _, d := range []int64{1e6, 10e6} {
		p, err := timed.RecvTimeout(d)
		fmt.Fprintf(&out, "timed after %d ns: %v %v clock %d\n", d, p, err, n.Clock())
	}

	if err := n.Kill(topo.Parent(0)); err != nil {
		t.Fatal(err)
	}
	if err := each.Send(FirstAppTag, "%d", 4); err != nil {
		t.Fatal(err)
	}
	drain("each after kill", each)
	fmt.Fprintf(&out, "lost %v\n", n.Lost())

	bad, err := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "sum"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := bad.Send(FirstAppTag, "%s", "x"); err != nil {
		t.Fatal(err)
	}
	drain("bad", bad)
	fmt.Fprintf(&out, "clock %d, back-end error %v\n", n.Clock(), n.BackendErr())
	return out.String()
}

// TestInProcessRunIsDeterministic runs the same in-process tree on one and on two
// threads, several times each: the tree is stepped in virtual time on the caller's
// goroutine, so what the front-end sees, and in which order, depends only on the inputs.
func TestInProcessRunIsDeterministic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var first string
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		for run := range 4 {
			got := inProcessRun(t)
			if first == "" {
				first = got
				if !strings.Contains(got, "timed after 10000000 ns") || !strings.Contains(got, "lost [0 1 2 3]") {
					t.Fatalf("the run did not go as planned:\n%s", got)
				}
				continue
			}
			if got != first {
				t.Fatalf("GOMAXPROCS=%d run %d differs from the first run:\n%s\nfirst:\n%s", procs, run, got, first)
			}
		}
	}
}
