package probes

import (
	"errors"
	"maps"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// lineCounts reads the "runs N" marks of lines.c: how often each line runs, by
// construction of the program.
func lineCounts(t testing.TB) map[int]int64 {
	src, err := os.ReadFile("testdata/lines.c")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`/\* runs (\d+) \*/`)
	out := map[int]int64{}
	for i, l := range strings.Split(string(src), "\n") {
		if m := re.FindStringSubmatch(l); m != nil && !strings.HasPrefix(strings.TrimSpace(l), "/*") {
			n, _ := strconv.Atoi(m[1])
			out[i+1] = int64(n)
		}
	}
	if len(out) < 20 {
		t.Fatalf("lines.c has %d marked lines", len(out))
	}
	return out
}

// traceCounts single-steps the uninstrumented program and counts how often each
// instruction address runs: the reference every probe count is checked against.
func traceCounts(t testing.TB, name string) (map[uint32]int64, string) {
	p := startProcess(t, name)
	hits := map[uint32]int64{}
	for !p.exited {
		hits[p.cpu.PC]++
		p.run(t, 1)
	}
	return hits, p.out.String()
}

// TestLinePointsFireAsTheLineRuns puts a counter on every marked line of lines.c and
// checks that each fires as often as the program runs the line (-O0, where the marks
// hold) and as often as the single-stepped program executes the line's points (-O0 and
// -O2), with the output unchanged.
func TestLinePointsFireAsTheLineRuns(t *testing.T) {
	want := lineCounts(t)
	out, err := os.ReadFile("testdata/lines.out")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"lines-O0.elf", "lines-O2.elf"} {
		t.Run(name, func(t *testing.T) {
			hits, plain := traceCounts(t, name)
			if plain != string(out) {
				t.Fatalf("uninstrumented run printed %q, qemu %q", plain, out)
			}
			p := startProcess(t, name)
			in := newInstrumenter(t, p, name)
			vars, pts := map[int]*Var{}, map[int][]Point{}
			for line := range want {
				ps, err := in.prog.LinePoints("lines.c", line)
				var le *LineError
				if errors.As(err, &le) && name == "lines-O2.elf" {
					continue // the optimizer may leave a line without code of its own
				}
				if err != nil {
					t.Fatalf("line %d: %v", line, err)
				}
				v := in.variable(Int)
				code := in.compile(Assign(v, Binary(KAdd, Ref(v), IntConst(1))))
				for _, pt := range ps {
					if pt.Kind != PointLine || pt.Line != line || pt.File != "lines.c" {
						t.Errorf("line %d: point %v", line, pt)
					}
					in.add(pt, code, true)
				}
				vars[line], pts[line] = v, ps
			}
			if got := p.finish(t); got != string(out) {
				t.Fatalf("instrumented run printed %q, want %q", got, out)
			}
			if name == "lines-O2.elf" && len(vars) < len(want)/2 {
				t.Errorf("only %d of %d marked lines have code at -O2", len(vars), len(want))
			}
			for line, v := range vars {
				got := readInt(t, p, v)
				var stepped int64
				for _, pt := range pts[line] {
					stepped += hits[pt.Addr]
				}
				if got != stepped {
					t.Errorf("line %d: probes fired %d times, single-stepping runs its points %d times", line, got, stepped)
				}
				if name == "lines-O0.elf" && got != want[line] {
					t.Errorf("line %d: probes fired %d times, the line runs %d times", line, got, want[line])
				}
			}
		})
	}
}

func TestLinePointErrors(t *testing.T) {
	p := openProgram(t, "lines-O0.elf")
	noCode := lineOf(t, "/* no code */")
	tests := []struct {
		file string
		line int
		want string
	}{
		{"lines.c", noCode, "lines.c:" + strconv.Itoa(noCode) + ": no code at this line (nearest lines with code: lines.c:" +
			strconv.Itoa(noCode-2) + ", lines.c:" + strconv.Itoa(noCode+1) + ")"},
		{"lines.c", 1, "no code at this line (nearest lines with code: lines.c:12)"},
		{"lines.c", 9999, "no code at this line (nearest lines with code: lines.c:59)"},
		{"line.c", 20, `line line.c:20: no such source file in the line table (did you mean lines.c`},
		{"nosuch.c", 20, "no such source file in the line table"},
	}
	for _, tt := range tests {
		_, err := p.LinePoints(tt.file, tt.line)
		var le *LineError
		if !errors.As(err, &le) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("LinePoints(%q, %d) = %v, want a LineError containing %q", tt.file, tt.line, err, tt.want)
		}
	}
	// A path written with directories still names the file.
	if ps, err := p.LinePoints("probes/testdata/lines.c", noCode+1); err != nil || len(ps) != 1 {
		t.Errorf("path suffix: %v %v", ps, err)
	}
}

// lineOf is the 1-based line of lines.c holding s.
func lineOf(t testing.TB, s string) int {
	src, err := os.ReadFile("testdata/lines.c")
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, s) && strings.HasPrefix(l, "\t") {
			return i + 1
		}
	}
	t.Fatalf("lines.c has no %q", s)
	return 0
}

func TestParseLineSpec(t *testing.T) {
	for _, tt := range []struct {
		in   string
		file string
		line int
		ok   bool
	}{
		{"cg.c:143", "cg.c", 143, true},
		{"dir/a:b.c:7", "dir/a:b.c", 7, true},
		{"cg.c", "", 0, false},
		{"cg.c:0", "", 0, false},
		{":12", "", 0, false},
		{"MPI_Send", "", 0, false},
	} {
		f, l, ok := ParseLineSpec(tt.in)
		if f != tt.file || l != tt.line || ok != tt.ok {
			t.Errorf("ParseLineSpec(%q) = %q, %d, %v", tt.in, f, l, ok)
		}
	}
}

// TestAddressPointsCountExactly puts a counter on 1,000 random instruction boundaries of
// a glibc program at once, half of them drawn from the instructions it executes: the
// output must not change, and each counter must equal how often single-stepping the
// uninstrumented program runs its instruction.
func TestAddressPointsCountExactly(t *testing.T) {
	const n = 1000
	for _, name := range []string{"points-O0.elf", "points-O2.elf"} {
		t.Run(name, func(t *testing.T) {
			hits, plain := traceCounts(t, name)
			if plain != expectedOutput(t) {
				t.Fatalf("uninstrumented run printed %q", plain)
			}
			executed := slices.Sorted(maps.Keys(hits))
			p := startProcess(t, name)
			in := newInstrumenter(t, p, name)
			rng := rand.New(rand.NewPCG(14, 1))
			vars := map[uint32]*Var{}
			refused := map[string]int{}
			for len(vars) < n {
				addr := executed[rng.IntN(len(executed))]
				if len(vars)%2 == 1 {
					fn := in.prog.Funcs[rng.IntN(len(in.prog.Funcs))]
					addr = fn.Addr + 4*uint32(rng.IntN(int(fn.Size/4)))
				}
				if vars[addr] != nil {
					continue
				}
				pt, err := in.prog.PointAt(addr)
				var pe *PointError
				if errors.As(err, &pe) {
					refused[pe.Why]++
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				v := in.variable(Int)
				in.add(pt, in.compile(Assign(v, Binary(KAdd, Ref(v), IntConst(1)))), true)
				vars[addr] = v
			}
			if out := p.finish(t); out != plain {
				t.Fatalf("output changed:\n%s", out)
			}
			fired := 0
			for addr, v := range vars {
				got := readInt(t, p, v)
				if got != hits[addr] {
					t.Errorf("point 0x%x fired %d times, single-stepping runs it %d times", addr, got, hits[addr])
				}
				if got > 0 {
					fired++
				}
			}
			if fired < n/2 {
				t.Errorf("only %d of %d points ran", fired, n)
			}
			t.Logf("%d points, %d of them ran; refused: %v", n, fired, refused)
		})
	}
}
