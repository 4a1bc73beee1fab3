package runtime

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/contexts"
	"github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/probes"
)

const loopELF = "testdata/bin/loop.elf"

func launch(t testing.TB, nodes, perIO int, args ...string) (*App, *strings.Builder) {
	t.Helper()
	var out strings.Builder
	a, err := Launch(Options{Exe: loopELF, Args: args, Nodes: nodes, PerIO: perIO, Stdout: &out, Topology: "b:4"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a, &out
}

func points(t testing.TB, a *App, fn string, kind probes.PointKind) []probes.Point {
	t.Helper()
	f, ok := a.Prog.Lookup(fn)
	if !ok {
		t.Fatalf("no function %s", fn)
	}
	pts, err := a.Prog.Points(f, kind)
	if err != nil {
		t.Fatal(err)
	}
	return pts
}

// run advances the job to its end and returns every message delivered on the way.
func run(t testing.TB, a *App) []Message {
	t.Helper()
	var msgs []Message
	for !a.Done() {
		b, err := a.Step(context.Background(), ^uint64(0))
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, b.Messages...)
	}
	b, err := a.Step(context.Background(), ^uint64(0))
	if err != nil {
		t.Fatal(err)
	}
	// Nothing is lost: once the job has ended every handle whose stream no filter
	// failed has delivered every packet its ranks sent.
	counted := a.Rejected()
	for _, h := range a.handles {
		st := h.Stats()
		if h.State() != "failed" && st.Sent != st.Delivered {
			t.Errorf("probe %d: sent %d, delivered %d", h.ID, st.Sent, st.Delivered)
		}
		counted += st.Sent
	}
	// ... and the daemons took every packet the ranks sent (counted at the source).
	var sent uint64
	for r := range a.Size() {
		sent += a.Job.PacketsSent(r)
	}
	if uint64(counted) != sent {
		t.Errorf("the ranks sent %d packets, the daemons took %d", sent, counted)
	}
	return append(msgs, b.Messages...)
}

func counter(t testing.TB, a *App) (*probes.Var, *probes.Exp) {
	v, err := a.Var(probes.Int)
	if err != nil {
		t.Fatal(err)
	}
	return v, probes.Assign(v, probes.Binary(probes.KAdd, probes.Ref(v), probes.IntConst(1)))
}

func TestCountingProbeMatchesProgram(t *testing.T) {
	for _, size := range []struct{ n, perIO int }{{16, 8}, {1024, 64}} {
		t.Run(fmt.Sprint(size.n), func(t *testing.T) { countingProbe(t, size.n, size.perIO) })
	}
}

func countingProbe(t *testing.T, n, perIO int) {
	const iters = 7
	a, out := launch(t, n, perIO, fmt.Sprint(iters))
	v, inc := counter(t, a)
	h, err := a.Install(points(t, a, "tick", probes.PointEntry), inc, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if h.State() != "installed" || h.Stats().Ranks != n {
		t.Fatalf("state %q, %d ranks after install", h.State(), h.Stats().Ranks)
	}
	if err := h.Activate(); err != nil {
		t.Fatal(err)
	}
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	run(t, a)
	if a.Status() != "exited" {
		t.Fatalf("status %q", a.Status())
	}
	for r := range n {
		want := fmt.Sprintf("rank %d: step %d tick %d total", r, iters, iters*(r%4+1))
		if !strings.Contains(out.String(), want) {
			t.Fatalf("program output lacks %q", want)
		}
		if got := readVar(t, a, r, v); got != int64(iters*(r%4+1)) {
			t.Errorf("rank %d: probe counted %d tick calls, program made %d", r, got, iters*(r%4+1))
		}
	}
}

func TestSumFilterAndExecute(t *testing.T) {
	const n, iters = 32, 5
	a, _ := launch(t, n, 8, fmt.Sprint(iters))
	v, inc := counter(t, a)
	odd, _ := contexts.Where(n, func(r int) bool { return r%2 == 1 })
	send := probes.Seq(inc, probes.Send(probes.Ref(v)))
	h, err := a.Install(points(t, a, "step", probes.PointEntry), send,
		InstallOptions{Context: odd, Filter: &netreduce.FilterSpec{Name: "sum"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Activate(); err != nil {
		t.Fatal(err)
	}
	a.Start()
	msgs := run(t, a)
	if len(msgs) != iters {
		t.Fatalf("%d messages, want %d: %+v", len(msgs), iters, msgs)
	}
	for i, m := range msgs {
		if m.Rank != -1 || m.Count != n/2 || m.Values[0] != int64((i+1)*n/2) {
			t.Errorf("wave %d: %+v", i, m)
		}
	}
	if st := h.Stats(); st.Sent != iters*n/2 || st.Delivered != st.Sent || st.Ranks != n/2 {
		t.Errorf("stats %+v", st)
	}
}

func readVar(t testing.TB, a *App, r int, v *probes.Var) int64 {
	b, err := a.Job.Debug(a.IONodeOf(r)).ReadMem(r, v.Addr, 4)
	if err != nil {
		t.Fatal(err)
	}
	return int64(int32(beWord(b)))
}

// stepFor advances the job by ns virtual nanoseconds.
func stepFor(t testing.TB, a *App, ns uint64) []Message {
	var msgs []Message
	limit := a.Job.Now() + ns
	for {
		b, err := a.Step(context.Background(), limit)
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, b.Messages...)
		if b.Reason != 3 { // bgl.StopPaused
			return msgs
		}
	}
}

func TestExecuteReadsEveryRankMidRun(t *testing.T) {
	const n = 24
	a, _ := launch(t, n, 8, "3000")
	v, inc := counter(t, a)
	h, err := a.Install(points(t, a, "tick", probes.PointEntry), inc, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h.Activate()
	a.Start()
	stepFor(t, a, 100_000)
	want := make([]any, n)
	for r := range n {
		want[r] = readVar(t, a, r, v)
		if want[r] == int64(0) {
			t.Fatalf("rank %d has not counted anything yet", r)
		}
	}
	x, err := a.Execute(probes.Send(probes.Ref(v)), InstallOptions{Filter: &netreduce.FilterSpec{Name: "concat"}})
	if err != nil {
		t.Fatal(err)
	}
	// The answer takes the tool's tree's modeled time to reach the front-end (well
	// under a virtual millisecond with the default costs).
	msgs := stepFor(t, a, 1_000_000)
	if len(msgs) != 1 || msgs[0].Handle != x {
		t.Fatalf("messages %+v", msgs)
	}
	if got := fmt.Sprint(msgs[0].Values); got != fmt.Sprint(want) {
		t.Fatalf("execute read %s, memory holds %s", got, fmt.Sprint(want))
	}
	run(t, a)
	for r := range n {
		if got, want := readVar(t, a, r, v), int64(3000*(r%4+1)); got != want {
			t.Errorf("rank %d: counted %d, want %d (the one-shot must not disturb the program)", r, got, want)
		}
	}
}

func TestInstallRemoveWhileRunning(t *testing.T) {
	const n, iters = 16, 300
	a, out := launch(t, n, 8, fmt.Sprint(iters))
	a.Start()
	stepFor(t, a, 50_000)
	v, inc := counter(t, a)
	var hs []*Handle
	for _, fn := range []string{"tick", "step"} {
		for _, k := range []probes.PointKind{probes.PointEntry, probes.PointExit} {
			h, err := a.Install(points(t, a, fn, k), inc, InstallOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if err := h.Activate(); err != nil {
				t.Fatal(err)
			}
			hs = append(hs, h)
			stepFor(t, a, 20_000)
		}
	}
	for _, h := range hs {
		stepFor(t, a, 30_000)
		if err := h.Deactivate(); err != nil {
			t.Fatal(err)
		}
		if err := h.Remove(); err != nil {
			t.Fatal(err)
		}
		if h.State() != "removed" {
			t.Fatalf("state %s", h.State())
		}
	}
	before := make([]int64, n)
	for r := range n {
		before[r] = readVar(t, a, r, v)
	}
	run(t, a)
	for r := range n {
		want := fmt.Sprintf("rank %d: step %d tick %d total", r, iters, iters*(r%4+1))
		if !strings.Contains(out.String(), want) {
			t.Fatalf("program output changed: lacks %q", want)
		}
		if after := readVar(t, a, r, v); after != before[r] || after == 0 {
			t.Errorf("rank %d: counter %d before the end, %d after: removed probes still fire", r, before[r], after)
		}
	}
}

func TestFaultedRankLeavesWaves(t *testing.T) {
	const n, iters = 16, 30
	a, _ := launch(t, n, 8, fmt.Sprint(iters), "fault")
	v, inc := counter(t, a)
	h, err := a.Install(points(t, a, "step", probes.PointEntry), probes.Seq(inc, probes.Send(probes.Ref(v))),
		InstallOptions{Filter: &netreduce.FilterSpec{Name: "sum"}})
	if err != nil {
		t.Fatal(err)
	}
	h.Activate()
	a.Start()
	msgs := run(t, a)
	if a.Status() != "faulted" {
		t.Fatalf("status %s", a.Status())
	}
	exited, faulted, running, codes := a.Counts()
	if exited != n-1 || faulted != 1 || running != 0 || codes[5] != 128+11 {
		t.Fatalf("counts %d %d %d %v", exited, faulted, running, codes)
	}
	if len(msgs) != iters {
		t.Fatalf("%d waves, want %d", len(msgs), iters)
	}
	for i, m := range msgs {
		want := n
		if i >= 10 {
			want = n - 1
		}
		if m.Count != want {
			t.Errorf("wave %d merged %d ranks, want %d", i, m.Count, want)
		}
	}
	if st := h.Stats(); st.Sent != st.Delivered {
		t.Errorf("sent %d, delivered %d", st.Sent, st.Delivered)
	}
}

// TestEntryAtLoopHeadFiresOncePerCall installs an entry probe on spin, whose first
// instruction is also its loop's head at -O2: the runtime redirects the loop's branch to
// the trampoline's Resume, so the probe counts calls (one), not iterations, and the
// program prints what it prints uninstrumented.
func TestEntryAtLoopHeadFiresOncePerCall(t *testing.T) {
	var out strings.Builder
	a, err := Launch(Options{Exe: "../probes/testdata/points-O2.elf", Nodes: 2, PerIO: 8, Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	pts := points(t, a, "spin", probes.PointEntry)
	if !pts[0].BranchTarget {
		t.Fatal("spin's entry is not a loop head")
	}
	v, inc := counter(t, a)
	h, err := a.Install(pts, inc, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h.Activate()
	// A second probe at the point rebuilds the trampoline (and re-targets the redirect);
	// removing the first one rebuilds it again.
	w, inc2 := counter(t, a)
	h2, err := a.Install(pts, inc2, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h2.Activate()
	if err := h.Remove(); err != nil {
		t.Fatal(err)
	}
	a.Start()
	run(t, a)
	for r := range 2 {
		if got := readVar(t, a, r, w); got != 1 || readVar(t, a, r, v) != 0 {
			t.Errorf("rank %d: spin entered %d times, want 1", r, got)
		}
	}
	want, err := os.ReadFile("../probes/testdata/points.out")
	if err != nil {
		t.Fatal(err)
	}
	var both strings.Builder
	for _, line := range strings.SplitAfter(string(want), "\n") {
		both.WriteString(line + line)
	}
	if out.String() != both.String() {
		t.Errorf("output changed:\n%s", out.String())
	}
}

// TestTrampolineMemoryIsReused installs and removes a probe many times while the job runs:
// each removed trampoline is freed by every daemon once no node is inside it, and its
// memory serves a later install.
func TestTrampolineMemoryIsReused(t *testing.T) {
	const n, iters, rounds = 16, 3000, 40
	a, out := launch(t, n, 8, fmt.Sprint(iters))
	a.Start()
	v, inc := counter(t, a)
	for range rounds {
		h, err := a.Install(points(t, a, "tick", probes.PointEntry), inc, InstallOptions{})
		if err != nil {
			t.Fatal(err)
		}
		h.Activate()
		stepFor(t, a, 3_000)
		if err := h.Remove(); err != nil {
			t.Fatal(err)
		}
		stepFor(t, a, 1_000)
	}
	fresh, inUse, _, reused := a.RegionStats()
	size, _ := probes.TrampolineSize(points(t, a, "tick", probes.PointEntry)[0], []*probes.Code{a.handles[0].code})
	if reused < rounds/2 || fresh > 8*size {
		t.Errorf("fresh %d bytes (a trampoline is %d), %d pieces in use, %d allocations reused", fresh, size, inUse, reused)
	}
	run(t, a)
	for r := range n {
		if want := fmt.Sprintf("rank %d: step %d tick %d total", r, iters, iters*(r%4+1)); !strings.Contains(out.String(), want) {
			t.Fatalf("program output changed: lacks %q", want)
		}
		if readVar(t, a, r, v) == 0 {
			t.Errorf("rank %d: the probe never fired", r)
		}
	}
}

// TestIONodeExitsEarly ends every rank of I/O node 1 half way: the tree drops that whole
// subtree from the waves and the rest go on with the other ranks.
func TestIONodeExitsEarly(t *testing.T) {
	const n, iters = 32, 10
	a, _ := launch(t, n, 8, fmt.Sprint(iters), "early")
	h, err := a.Install(points(t, a, "step", probes.PointEntry), probes.Send(probes.IntConst(1)),
		InstallOptions{Filter: &netreduce.FilterSpec{Name: "sum"}})
	if err != nil {
		t.Fatal(err)
	}
	h.Activate()
	a.Start()
	msgs := run(t, a)
	if len(msgs) != iters {
		t.Fatalf("%d waves, want %d", len(msgs), iters)
	}
	for k, m := range msgs {
		want := n
		if k >= iters/2 {
			want = n - 8
		}
		if m.Count != want || m.Values[0] != int64(want) {
			t.Errorf("wave %d: %d ranks, sum %v; want %d", k+1, m.Count, m.Values[0], want)
		}
	}
	if st := h.Stats(); st.Sent != st.Delivered {
		t.Errorf("sent %d, delivered %d", st.Sent, st.Delivered)
	}
	if exited, _, _, _ := a.Counts(); exited != n {
		t.Errorf("%d ranks exited", exited)
	}
}

// TestProcessBacktrace stops ranks inside loop's call chain: every backtrace is a chain
// of loop's own functions ending in main and glibc's start code, with no stale frames.
func TestProcessBacktrace(t *testing.T) {
	a, _ := launch(t, 8, 8, "100000")
	a.Start()
	stepFor(t, a, 200_000)
	if err := a.Suspend(); err != nil {
		t.Fatal(err)
	}
	for r := range 8 {
		p, _ := a.Process(r)
		frames, err := p.Backtrace()
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range frames {
			names = append(names, f.Func)
		}
		got := strings.Join(names, " < ")
		ok := false
		for _, want := range []string{"tick < step < main < ", "step < main < ", "main < "} {
			ok = ok || strings.HasPrefix(got, want)
		}
		if !ok || !strings.Contains(got, "__libc_start_main") || frames[0].File != "src/loop.c" {
			t.Errorf("rank %d: backtrace %s (%v)", r, got, frames[0])
		}
	}
	if a.Status() != "suspended" {
		t.Fatalf("status %s", a.Status())
	}
}

// TestMemoryCommands writes a probe variable on some ranks and reads it back from all,
// through the control streams.
func TestMemoryCommands(t *testing.T) {
	a, _ := launch(t, 16, 8, "5")
	v, _ := counter(t, a)
	odd, _ := contexts.Where(16, func(r int) bool { return r%2 == 1 })
	if ans, err := a.WriteMemory(odd, v.Addr, []byte{0, 0, 0, 42}); err != nil || ans.Done != 8 {
		t.Fatalf("write: %+v %v", ans, err)
	}
	ans, err := a.ReadMemory(nil, v.Addr, 4)
	if err != nil || ans.Done != 16 || len(ans.Data) != 16 {
		t.Fatalf("read: %+v %v", ans, err)
	}
	for r, b := range ans.Data {
		if want := int64(42 * (r % 2)); int64(beWord(b)) != want {
			t.Errorf("rank %d holds %d, want %d", r, beWord(b), want)
		}
	}
}

// TestInstallAllPlacesOnce: probes installed together at one point run in the order
// given, active from the start, and the point's code is placed once (one trampoline in
// the region), where one install after another placed it again with every earlier probe.
func TestInstallAllPlacesOnce(t *testing.T) {
	const n, iters = 16, 2
	a, _ := launch(t, n, 8, fmt.Sprint(iters))
	v, err := a.Var(probes.Int)
	if err != nil {
		t.Fatal(err)
	}
	x := probes.Ref(v)
	double := probes.Assign(v, probes.Binary(probes.KMul, x, probes.IntConst(2)))
	inc := probes.Assign(v, probes.Binary(probes.KAdd, x, probes.IntConst(1)))
	pts := points(t, a, "tick", probes.PointEntry)
	var reqs []InstallRequest
	for _, e := range []*probes.Exp{double, inc, double, inc} {
		reqs = append(reqs, InstallRequest{Points: pts, Exp: e, Active: true})
	}
	hs, err := a.InstallAll(reqs)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hs {
		if h.State() != "active" || h.Stats().Ranks != n {
			t.Fatalf("probe %d: state %q on %d ranks after install, want active on %d", h.ID, h.State(), h.Stats().Ranks, n)
		}
	}
	fresh, inUse, _, _ := a.RegionStats()
	size := uint32(4 * len(a.points[pts[0].Addr].tramp.Words))
	if inUse != 1 || fresh > size+trampLign {
		t.Errorf("region: %d pieces, %d fresh bytes for one trampoline of %d bytes; want it placed once", inUse, fresh, size)
	}
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	run(t, a)
	for r := range n {
		want := int64(0)
		for range iters * (r%4 + 1) {
			want = (want*2+1)*2 + 1
		}
		if got := readVar(t, a, r, v); got != want {
			t.Errorf("rank %d: %d, want %d (the probes in the order given, each call)", r, got, want)
		}
	}
}
