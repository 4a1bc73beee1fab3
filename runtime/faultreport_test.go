package runtime

import (
	"context"
	"testing"

	"github.com/dpclsh/dpclsh/contexts"
	"github.com/dpclsh/dpclsh/probes"
)

// crashApp launches mpicrash on 4 ranks with e installed and active at points, only
// on rank 3, runs it to the end and returns rank 3's fault report.
func crashApp(t *testing.T, setup func(a *App) ([]probes.Point, *probes.Exp)) string {
	t.Helper()
	a, err := Launch(Options{Exe: crashELF, Nodes: 4, PerIO: 8, Topology: "b:4"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	pts, e := setup(a)
	only3 := contexts.None(4)
	only3.Add(3)
	h, err := a.Install(pts, e, InstallOptions{Context: only3})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Activate(); err != nil {
		t.Fatal(err)
	}
	a.Start()
	for !a.Done() {
		if _, err := a.Step(context.Background(), ^uint64(0)); err != nil {
			t.Fatal(err)
		}
	}
	ev, ok := a.Ended(3)
	if !ok || ev.Signal != 11 {
		t.Fatalf("rank 3 ended with %+v, want a segmentation fault", ev)
	}
	return ev.FaultReport()
}

// TestFaultReportNamesToolCode: a fault in a C probe module, in a program function a
// snippet called, and in the instruction a trampoline displaced are each named by the
// tool's code that holds them (module and function, the probe and its point), not by a
// bare pc.
func TestFaultReportNamesToolCode(t *testing.T) {
	stepEntry := func(a *App) probes.Point { return points(t, a, "step", probes.PointEntry)[0] }
	tests := []struct {
		name  string
		setup func(a *App) ([]probes.Point, *probes.Exp)
		want  string
	}{
		{"in a C module", func(a *App) ([]probes.Point, *probes.Exp) {
			m, err := a.LoadModule(moduleDir + "crash-O0.o")
			if err != nil {
				t.Fatal(err)
			}
			call, err := m.Call("poke", probes.IntConst(16))
			if err != nil {
				t.Fatal(err)
			}
			return []probes.Point{stepEntry(a)}, call
		}, "rank 3: uncaught signal 11 (Segmentation fault) at pc 0x0f100014 in module crash-O0: peek+0x14; " +
			"called from module crash-O0: poke+0x20 <- probe 1's snippet at step entry 0x10000514 (src/mpicrash.c:12)"},
		{"in a function a snippet called", func(a *App) ([]probes.Point, *probes.Exp) {
			return []probes.Point{stepEntry(a)}, probes.Call("deref", probes.IntConst(16))
		}, "rank 3: uncaught signal 11 (Segmentation fault) at pc 0x100004f8 in deref (src/mpicrash.c:8); " +
			"called from probe 1's snippet at step entry 0x10000514 (src/mpicrash.c:12)"},
		{"in a displaced instruction", func(a *App) ([]probes.Point, *probes.Exp) {
			p, err := a.Prog.PointAt(0x100004f8)
			if err != nil {
				t.Fatal(err)
			}
			n, err := a.Var(probes.Int)
			if err != nil {
				t.Fatal(err)
			}
			return []probes.Point{p}, probes.Assign(n, probes.Binary(probes.KAdd, probes.Ref(n), probes.IntConst(1)))
		}, "rank 3: uncaught signal 11 (Segmentation fault) at pc 0x0f100030 in deref (src/mpicrash.c:8) " +
			"[displaced into the trampoline at 0x0f100000]; called from step (src/mpicrash.c:16) <- main (src/mpicrash.c:26) " +
			"<- __libc_start_call_main+0x84 <- __libc_start_main+0x414"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := crashApp(t, tt.setup); got != tt.want {
				t.Errorf("fault report\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
