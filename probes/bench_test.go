package probes

import (
	"os"
	"testing"
)

// BenchmarkProbeHit reports what one hit of a probe costs the instrumented program, in
// instructions and simulated cycles (instructions/hit, cycles/hit): a variable increment,
// an increment of an array element indexed by func() (the per-function count), and a
// timer-stack push.
func BenchmarkProbeHit(b *testing.B) {
	slots := NewSlots(hVars, 0xf00)
	n, _ := slots.Alloc("n", Int)
	counts, _ := slots.AllocArray("counts", Int, 64)
	timers, _ := slots.AllocStack("timers", Int64, 64) // full after a few hits: pushes are refused
	for _, c := range []struct {
		name string
		e    *Exp
	}{
		{"var", Assign(n, Binary(KAdd, Ref(n), IntConst(1)))},
		{"array", SetIndex(counts, FuncIndex(), Binary(KAdd, Index(counts, FuncIndex()), IntConst(1)))},
		{"push", Push(timers, Timebase())},
	} {
		b.Run(c.name, func(b *testing.B) { probeHit(b, c.e) })
	}
}

func probeHit(b *testing.B, e *Exp) {
	c := relocCases[6] // a bdnz loop; the point runs 5 times a pass
	m := newMachine(b)
	words := m.load(b, c)
	m.reset()
	m.run(b, hCode)
	plainI, plainC := m.cpu.Count.Instructions, m.cpu.Count.Cycles
	code, err := Compile(e, &testTarget)
	if err != nil {
		b.Fatal(err)
	}
	pt := Point{Addr: hCode + uint32(4*c.point), Word: words[c.point]}
	tr, err := BuildTrampoline(pt, []*Code{code.ForPoint(0, 5)}, []bool{true}, hTramp, hGuard)
	if err != nil {
		b.Fatal(err)
	}
	install(b, m, tr)
	var instr, cycles uint64
	for b.Loop() {
		m.reset()
		i0, c0 := m.cpu.Count.Instructions, m.cpu.Count.Cycles
		m.run(b, hCode)
		instr += m.cpu.Count.Instructions - i0 - plainI
		cycles += m.cpu.Count.Cycles - c0 - plainC
	}
	hits := float64(b.N * c.hits)
	b.ReportMetric(float64(instr)/hits, "instructions/hit")
	b.ReportMetric(float64(cycles)/hits, "cycles/hit")
}

func BenchmarkCompile(b *testing.B) {
	slots := NewSlots(hVars, 0x100)
	n, _ := slots.Alloc("n", Int)
	d, _ := slots.Alloc("d", Double)
	e := Seq(Assign(n, Binary(KAdd, Ref(n), IntConst(1))),
		When(Binary(KGt, Arg(0, Int), IntConst(100)),
			Send(Rank(), Arg(0, Int), Assign(d, Binary(KAdd, Ref(d), Arg(1, Int)))), nil))
	for b.Loop() {
		if _, err := Compile(e, &testTarget); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPoints(b *testing.B) {
	data, err := os.ReadFile("testdata/points-O2.elf")
	if err != nil {
		b.Fatal(err)
	}
	prog, err := loadProgram(data)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		for _, fn := range prog.Funcs {
			for _, k := range []PointKind{PointEntry, PointExit, PointCall} {
				_, _ = prog.Points(fn, k)
			}
		}
	}
	b.ReportMetric(float64(len(prog.Funcs)), "functions")
}
