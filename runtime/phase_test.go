package runtime

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/probes"
)

const spinELF = "testdata/bin/spin.elf"

func launchSpin(t testing.TB, nodes int, args ...string) (*App, *strings.Builder) {
	t.Helper()
	var out strings.Builder
	a, err := Launch(Options{Exe: spinELF, Args: args, Nodes: nodes, PerIO: 8, Stdout: &out, Topology: "b:4"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a, &out
}

// TestPhaseFiresEveryPeriod: spin.elf computes until 1020 µs of virtual time on every
// rank and has exited well before 1100 µs, so a 100 µs phase fires at 100, 200, ...,
// 1000 µs: 10 times per rank, each time at the period boundary; the begin and end
// probes run once per rank.
func TestPhaseFiresEveryPeriod(t *testing.T) {
	const ranks, period, want = 12, 100 * time.Microsecond, 10
	a, out := launchSpin(t, ranks, "1020")
	tick := probes.Send(probes.IntConst(1), probes.Rank(), probes.Timebase())
	p, err := a.Phase(period, tick, PhaseOptions{
		Begin: probes.Send(probes.IntConst(0), probes.Rank(), probes.Timebase()),
		End:   probes.Send(probes.IntConst(2), probes.Rank(), probes.Timebase()),
	})
	if err != nil {
		t.Fatal(err)
	}
	a.Start()
	msgs := run(t, a)
	per := map[[2]int64]int{} // (kind, rank) -> messages
	for _, m := range msgs {
		kind, rank, tb := m.Values[0].(int64), m.Values[1].(int64), m.Values[2].(int64)
		per[[2]int64{kind, rank}]++
		if kind != 1 {
			continue
		}
		// The snippet runs right at the boundary: within a microsecond of k * period.
		ns := tb * 10 / 7
		k := ns / period.Nanoseconds()
		if k < 1 || ns-k*period.Nanoseconds() > 2000 {
			t.Errorf("rank %d: firing at %d ns, not just after a multiple of %v", rank, ns, period)
		}
	}
	for r := range int64(ranks) {
		if got := per[[2]int64{1, r}]; got != want {
			t.Errorf("rank %d: %d firings, want %d", r, got, want)
		}
		if per[[2]int64{0, r}] != 1 || per[[2]int64{2, r}] != 1 {
			t.Errorf("rank %d: begin %d, end %d, want 1 each", r, per[[2]int64{0, r}], per[[2]int64{2, r}])
		}
	}
	if p.Fired() != want {
		t.Errorf("Fired() = %d, want %d", p.Fired(), want)
	}
	if strings.Count(out.String(), "done") != ranks {
		t.Errorf("output:\n%s", out)
	}
}

// TestPhaseFilterAndStop: the phase's data goes through its filter (one sum per
// firing), and a deactivated phase stops firing until reactivated; removed, it never
// fires again.
func TestPhaseFilterAndStop(t *testing.T) {
	const ranks, period = 8, 100 * time.Microsecond
	a, _ := launchSpin(t, ranks)
	p, err := a.Phase(period, probes.Send(probes.IntConst(1)),
		PhaseOptions{InstallOptions: InstallOptions{Filter: &netreduce.FilterSpec{Name: "sum"}}})
	if err != nil {
		t.Fatal(err)
	}
	a.Start()
	var msgs []Message
	msgs = append(msgs, stepFor(t, a, 350_000)...) // firings at 100, 200, 300 µs
	if err := p.Handle.Deactivate(); err != nil {
		t.Fatal(err)
	}
	msgs = append(msgs, stepFor(t, a, 300_000)...) // 350..650 µs: none
	if err := p.Handle.Activate(); err != nil {
		t.Fatal(err)
	}
	msgs = append(msgs, stepFor(t, a, 150_000)...) // 750 µs (one period after 650)
	if err := p.Handle.Remove(); err != nil {
		t.Fatal(err)
	}
	msgs = append(msgs, run(t, a)...)
	var sums []int64
	for _, m := range msgs {
		if m.Count != ranks {
			t.Errorf("message of %d ranks, want %d (sum over all)", m.Count, ranks)
		}
		sums = append(sums, m.Values[0].(int64))
	}
	if len(sums) != 4 || p.Fired() != 4 {
		var times []uint64
		for _, m := range msgs {
			times = append(times, m.Time)
		}
		t.Fatalf("%d messages (%v at %v), %d firings; want 4", len(sums), sums, times, p.Fired())
	}
	for _, s := range sums {
		if s != ranks {
			t.Errorf("sum %d, want %d", s, ranks)
		}
	}
	if err := p.Handle.Remove(); err == nil {
		t.Error("removing a removed phase succeeded")
	}
}

// TestPhaseMeetsBlockedRanks: ranks that wait in a barrier when the phase fires run the
// snippet as the barrier returns; a firing that finds the last one still waiting merges
// into it, so every rank runs the snippet at most once per period and never after exit.
func TestPhaseMeetsBlockedRanks(t *testing.T) {
	const ranks = 8
	a, out := launchSpin(t, ranks, "1025", "mpi")
	v, inc := counter(t, a)
	p, err := a.Phase(30*time.Microsecond, inc, PhaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a.Start()
	run(t, a)
	if strings.Count(out.String(), "done") != ranks {
		t.Fatalf("output:\n%s", out)
	}
	for r := range ranks {
		got := readVar(t, a, r, v)
		if got < 1 || got > int64(p.Fired()) {
			t.Errorf("rank %d ran the phase %d times of %d firings", r, got, p.Fired())
		}
	}
	if st := p.Handle.Stats(); len(st.Failed) > 0 {
		t.Errorf("failures: %v", st.Failed)
	}
}

func TestPhaseErrors(t *testing.T) {
	a, _ := launchSpin(t, 2)
	if _, err := a.Phase(time.Microsecond, probes.IntConst(1), PhaseOptions{}); err == nil ||
		!strings.Contains(err.Error(), "shorter than the minimum") {
		t.Errorf("short period: %v", err)
	}
}

// TestRetvalAtTailCallRefused: at -O2 tail() leaves by "b twice"; retval there would
// read twice's argument.
func TestRetvalAtTailCallRefused(t *testing.T) {
	a, err := Launch(Options{Exe: "../probes/testdata/points-O2.elf", Nodes: 1, PerIO: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	exits := points(t, a, "tail", probes.PointExit)
	_, err = a.Install(exits, probes.Send(probes.Retval(probes.Int)), InstallOptions{})
	if err == nil || !strings.Contains(err.Error(), "retval at a tail call to twice") {
		t.Fatalf("install retval at a tail call: %v", err)
	}
	if _, err := a.Install(exits, probes.Send(probes.Arg(0, probes.Int)), InstallOptions{}); err != nil {
		t.Errorf("arg at a tail call: %v", err)
	}
	if _, err := a.Install(points(t, a, "twice", probes.PointExit), probes.Send(probes.Retval(probes.Int)), InstallOptions{}); err != nil {
		t.Errorf("retval at blr: %v", err)
	}
}

// TestPhaseOnManyRanksKeepsItsTrampolines: with 64 ranks of ring under 8 daemons, the
// tree is slow enough that a firing finds ranks still inside the last firing's one-shot
// trampoline (blocked in its send): the new trampoline goes back into the old one, which
// must stay until the rank has left both, and packets that leave a trampoline before the
// daemon frees it still count as its code's. Every rank ends normally, no packet is
// dropped and the sum of every firing's message is the number of ranks that ran it.
func TestPhaseOnManyRanksKeepsItsTrampolines(t *testing.T) {
	const ranks = 64
	a, err := Launch(Options{Exe: "../examples/apps/bin/ring.elf", Nodes: ranks, PerIO: 8, Stdout: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	p, err := a.Phase(100*time.Microsecond, probes.Send(probes.IntConst(1), probes.Rank(), probes.Timebase()),
		PhaseOptions{InstallOptions: InstallOptions{Filter: &netreduce.FilterSpec{Name: "sum"}}})
	if err != nil {
		t.Fatal(err)
	}
	a.Start()
	msgs := run(t, a)
	exited, faulted, _, _ := a.Counts()
	if exited != ranks || faulted != 0 {
		t.Errorf("%d ranks exited, %d faulted; want all %d exited: %v", exited, faulted, ranks, a.FaultReports())
	}
	if n := a.Rejected(); n != 0 {
		t.Errorf("the daemons dropped %d packets", n)
	}
	if len(msgs) == 0 || p.Fired() == 0 {
		t.Errorf("%d messages from %d firings", len(msgs), p.Fired())
	}
}

// TestTwoPhasesMeetBlockedRanks: two phases of one period find ranks waiting in a
// barrier; both snippets wait for the same return and both run then, so the two phases'
// firings reach the same ranks, with no failure.
func TestTwoPhasesMeetBlockedRanks(t *testing.T) {
	const ranks = 8
	a, out := launchSpin(t, ranks, "1025", "mpi")
	sum := PhaseOptions{InstallOptions: InstallOptions{Filter: &netreduce.FilterSpec{Name: "sum"}}}
	var phases []*Phase
	for _, tag := range []int32{1, 100} {
		p, err := a.Phase(30*time.Microsecond, probes.Send(probes.IntConst(tag)), sum)
		if err != nil {
			t.Fatal(err)
		}
		phases = append(phases, p)
	}
	a.Start()
	msgs := run(t, a)
	if strings.Count(out.String(), "done") != ranks {
		t.Fatalf("output:\n%s", out)
	}
	total := map[uint32]int64{}
	for _, m := range msgs {
		total[m.Handle.ID] += m.Values[0].(int64)
	}
	for i, p := range phases {
		if st := p.Handle.Stats(); len(st.Failed) > 0 {
			t.Errorf("phase %d: failures: %v", i, st.Failed)
		}
	}
	ones, hundreds := total[phases[0].Handle.ID], total[phases[1].Handle.ID]
	if ones < int64(ranks) || hundreds != 100*ones {
		t.Errorf("the phases' firings reached %d and %d/100 ranks in all, want the same (%d firings of %d ranks)",
			ones, hundreds, phases[0].Fired(), ranks)
	}
}
