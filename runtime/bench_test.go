package runtime

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/probes"
)

// BenchmarkFullMachine is the BG/L paper's scale: 65,536 ranks, 64 per I/O node. It
// reports the wall time of each step — launch; install and activate a counting probe on
// every rank; install the probe that reports the count at main's exit; run until the one
// sum-reduced value is back — and the peak RSS.
func BenchmarkFullMachine(b *testing.B) {
	benchFlow(b, 65536, 64, "b:32", "2")
}

// BenchmarkFullMachineB16 is the full machine with a b:16 tree above the I/O nodes.
func BenchmarkFullMachineB16(b *testing.B) {
	benchFlow(b, 65536, 64, "b:16", "2")
}

// BenchmarkFlow4096 is the same flow on 4,096 ranks.
func BenchmarkFlow4096(b *testing.B) {
	benchFlow(b, 4096, 64, "b:16", "2")
}

// BenchmarkFlowScale is the full machine's flow (b:32, 64 ranks per I/O node) on fewer
// ranks, so its profile can be taken in seconds: -bench 'FlowScale/ranks=16384'.
func BenchmarkFlowScale(b *testing.B) {
	for _, n := range []int{4096, 16384} {
		b.Run(fmt.Sprintf("ranks=%d", n), func(b *testing.B) { benchFlow(b, n, 64, "b:32", "2") })
	}
}

func benchFlow(b *testing.B, nodes, perIO int, topo, iters string) {
	for range b.N {
		t0 := time.Now()
		a, err := Launch(Options{Exe: loopELF, Args: []string{iters}, Nodes: nodes, PerIO: perIO, Topology: topo})
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		v, inc := counter(b, a)
		h, err := a.Install(points(b, a, "tick", probes.PointEntry), inc, InstallOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if err := h.Activate(); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		// The value back: each rank sends its count when main returns, summed in the tree.
		report, err := a.Install(points(b, a, "main", probes.PointExit), probes.Send(probes.Ref(v)),
			InstallOptions{Filter: &netreduce.FilterSpec{Name: "sum"}})
		if err != nil {
			b.Fatal(err)
		}
		if err := report.Activate(); err != nil {
			b.Fatal(err)
		}
		t3 := time.Now()
		a.Start()
		var got []Message
		for !a.Done() {
			bt, err := a.Step(context.Background(), ^uint64(0))
			if err != nil {
				b.Fatal(err)
			}
			got = append(got, bt.Messages...)
		}
		t4 := time.Now()
		if len(got) != 1 || got[0].Count != nodes {
			b.Fatalf("%d messages back, want one sum over %d ranks", len(got), nodes)
		}
		sum := got[0].Values[0].(int64)
		want := int64(0)
		for r := range nodes {
			want += int64(r%4+1) * 2
		}
		if sum != want {
			b.Fatalf("sum of counters %d, want %d", sum, want)
		}
		a.Close()
		b.ReportMetric(t1.Sub(t0).Seconds(), "launch-s")
		b.ReportMetric(t2.Sub(t1).Seconds(), "install-s")
		b.ReportMetric(t3.Sub(t2).Seconds(), "report-probe-s")
		b.ReportMetric(t4.Sub(t3).Seconds(), "run-and-value-s")
		b.ReportMetric(t4.Sub(t0).Seconds(), "total-s")
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	b.ReportMetric(float64(ru.Maxrss)/1024, "peakRSS-MiB")
}

// BenchmarkProbeMessages measures probe messages per wall second into the session, one
// message per rank per probe hit, with and without a sum filter (seed 000 Figure 7).
func BenchmarkProbeMessages(b *testing.B) {
	for _, n := range []int{256, 4096} {
		for _, f := range []string{"none", "sum"} {
			b.Run(fmt.Sprintf("ranks=%d/filter=%s", n, f), func(b *testing.B) {
				var spec *netreduce.FilterSpec
				if f == "sum" {
					spec = &netreduce.FilterSpec{Name: "sum"}
				}
				var msgs, delivered int
				var wall time.Duration
				for range b.N {
					a, err := Launch(Options{Exe: loopELF, Args: []string{"20"}, Nodes: n, PerIO: 64, Topology: "b:8"})
					if err != nil {
						b.Fatal(err)
					}
					h, err := a.Install(points(b, a, "step", probes.PointEntry), probes.Send(probes.IntConst(1)), InstallOptions{Filter: spec})
					if err != nil {
						b.Fatal(err)
					}
					h.Activate()
					a.Start()
					t0 := time.Now()
					for !a.Done() {
						bt, err := a.Step(context.Background(), ^uint64(0))
						if err != nil {
							b.Fatal(err)
						}
						msgs += len(bt.Messages)
					}
					wall += time.Since(t0)
					delivered += h.Stats().Delivered
					a.Close()
				}
				b.ReportMetric(float64(delivered)/wall.Seconds(), "rankmsgs/s")
				b.ReportMetric(float64(msgs)/wall.Seconds(), "sessionmsgs/s")
			})
		}
	}
}

// BenchmarkInstructionsPerHit reports what one hit of a probe that increments a variable
// costs the node: the instructions and cycles of a run with the probe active at tick's
// entry minus those of the same run without it, per hit (goal: at most 20 instructions).
func BenchmarkInstructionsPerHit(b *testing.B) {
	const iters = 2000
	count := func(active bool) (instr, cycles uint64, hits int64) {
		a, err := Launch(Options{Exe: loopELF, Args: []string{fmt.Sprint(iters)}, Nodes: 1, PerIO: 8})
		if err != nil {
			b.Fatal(err)
		}
		defer a.Close()
		v, inc := counter(b, a)
		if active {
			h, err := a.Install(points(b, a, "tick", probes.PointEntry), inc, InstallOptions{})
			if err != nil {
				b.Fatal(err)
			}
			h.Activate()
		}
		a.Start()
		run(b, a)
		c, err := a.Job.Debug(0).Counters(0)
		if err != nil {
			b.Fatal(err)
		}
		return c.Instructions, c.Cycles, readVar(b, a, 0, v)
	}
	for range b.N {
		i0, c0, _ := count(false)
		i1, c1, hits := count(true)
		if hits != iters {
			b.Fatalf("%d hits, want %d", hits, iters)
		}
		b.ReportMetric(float64(i1-i0)/float64(hits), "instr/hit")
		b.ReportMetric(float64(c1-c0)/float64(hits), "cycles/hit")
	}
}
