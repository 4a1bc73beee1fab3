package runtime

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/probes"
)

const cgELF = "../examples/apps/bin/cg.elf"

func needELF(t testing.TB, path string) {
	if _, err := os.Stat(path); err != nil {
		t.Skipf("SKIP: %s is not built (make -C examples/apps)", path)
	}
}

// TestEveryMPIFunctionOfCG puts a counting probe on the entry and on every exit of every
// MPI function cg links, on 64 ranks: each function is left as often as it is entered on
// every rank, MPI_Init and MPI_Finalize run once, and cg prints what it prints alone.
func TestEveryMPIFunctionOfCG(t *testing.T) {
	needELF(t, cgELF)
	const n = 64
	args := []string{"64", "10"}
	plain := runPlain(t, cgELF, n, args)
	var out strings.Builder
	a, err := Launch(Options{Exe: cgELF, Args: args, Nodes: n, PerIO: 16, Stdout: &out, Topology: "b:4"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	fns, err := a.Prog.Match("MPI_*")
	if err != nil || len(fns) == 0 {
		t.Fatalf("no MPI functions: %v", err)
	}
	type pair struct{ in, out *probes.Var }
	vars := map[string]pair{}
	for _, f := range fns {
		var p pair
		for _, k := range []probes.PointKind{probes.PointEntry, probes.PointExit} {
			pts, err := a.Prog.Points(f, k)
			if err != nil {
				t.Fatal(err)
			}
			v, inc := counter(t, a)
			h, err := a.Install(pts, inc, InstallOptions{})
			if err != nil {
				t.Fatalf("%s %s: %v", f.Name, k, err)
			}
			h.Activate()
			if k == probes.PointEntry {
				p.in = v
			} else {
				p.out = v
			}
		}
		vars[f.Name] = p
	}
	a.Start()
	run(t, a)
	if out.String() != plain {
		t.Fatalf("instrumented output differs:\n%s\nwant:\n%s", out.String(), plain)
	}
	calls := 0
	for name, p := range vars {
		for r := range n {
			in, ex := readVar(t, a, r, p.in), readVar(t, a, r, p.out)
			if in != ex {
				t.Errorf("rank %d: %s entered %d times, left %d times", r, name, in, ex)
			}
			if (name == "MPI_Init" || name == "MPI_Finalize") && in != 1 {
				t.Errorf("rank %d: %s ran %d times", r, name, in)
			}
			calls += int(in)
		}
	}
	t.Logf("%d MPI functions, %d calls counted", len(vars), calls)
}

func runPlain(t testing.TB, exe string, n int, args []string) string {
	var out strings.Builder
	a, err := Launch(Options{Exe: exe, Args: args, Nodes: n, PerIO: 16, Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	a.Start()
	run(t, a)
	return out.String()
}

// BenchmarkCGSlowdown reports the slowdown in simulated time of cg on 64 ranks with a
// counting probe on its hottest function: among the functions of cg.c, the one called
// most often (found with entry counters in a first run).
func BenchmarkCGSlowdown(b *testing.B) {
	needELF(b, cgELF)
	const n = 64
	args := []string{"100", "20"}
	hot := hottest(b, n, args)
	virtual := func(fn string) uint64 {
		a, err := Launch(Options{Exe: cgELF, Args: args, Nodes: n, PerIO: 16})
		if err != nil {
			b.Fatal(err)
		}
		defer a.Close()
		if fn != "" {
			_, inc := counter(b, a)
			h, err := a.Install(points(b, a, fn, probes.PointEntry), inc, InstallOptions{})
			if err != nil {
				b.Fatal(err)
			}
			h.Activate()
		}
		a.Start()
		run(b, a)
		return a.Job.Now()
	}
	for range b.N {
		base, probed := virtual(""), virtual(hot)
		b.ReportMetric(100*(float64(probed)-float64(base))/float64(base), "slowdown-%")
		b.ReportMetric(float64(base)/1e6, "base-virtual-ms")
	}
	b.Logf("hottest function: %s", hot)
}

func hottest(b *testing.B, n int, args []string) string {
	a, err := Launch(Options{Exe: cgELF, Args: args, Nodes: n, PerIO: 16})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	vars := map[string]*probes.Var{}
	for _, f := range a.Prog.Funcs {
		if !strings.HasSuffix(f.File, "cg.c") || f.Name == "main" {
			continue
		}
		v, inc := counter(b, a)
		h, err := a.Install(points(b, a, f.Name, probes.PointEntry), inc, InstallOptions{})
		if err != nil {
			continue
		}
		h.Activate()
		vars[f.Name] = v
	}
	a.Start()
	run(b, a)
	best, most := "", int64(-1)
	for name, v := range vars {
		if c := readVar(b, a, 0, v); c > most || c == most && name < best {
			best, most = name, c
		}
	}
	if best == "" {
		b.Fatal(fmt.Errorf("no function of cg.c found"))
	}
	return best
}
