package probes

import (
	"errors"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// markedCounts reads the "runs N" marks of a test program's source: how often each line
// runs, by construction of the program. A mark "runs N at -O0" holds only unoptimized and
// is left out when optimized is set.
func markedCounts(t testing.TB, file string, optimized bool) map[int]int64 {
	src, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`/\* runs (\d+)( at -O0)?[ *(]`)
	out := map[int]int64{}
	for i, l := range strings.Split(string(src), "\n") {
		if m := re.FindStringSubmatch(l); m != nil && !strings.HasPrefix(strings.TrimSpace(l), "/*") && !(optimized && m[2] != "") {
			n, _ := strconv.Atoi(m[1])
			out[i+1] = int64(n)
		}
	}
	return out
}

// TestLinePointsCoverLoopBodies puts a counter on every marked line of loops.c — loop
// bodies on lines of their own, a helper inlined at -O2 — and checks that the line's points
// fire exactly as often as the line runs, at -O0 -fno-inline and at -O2: a line point
// covers every place the line's code begins, not only the first statement row.
func TestLinePointsCoverLoopBodies(t *testing.T) {
	out, err := os.ReadFile("testdata/loops.out")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"loops-O0.elf", "loops-O2.elf"} {
		if n := len(markedCounts(t, "loops.c", true)); n < 10 {
			t.Fatalf("loops.c has %d marked lines", n)
		}
		t.Run(name, func(t *testing.T) {
			want := markedCounts(t, "loops.c", name == "loops-O2.elf")
			p := startProcess(t, name)
			in := newInstrumenter(t, p, name)
			vars := map[int]*Var{}
			pts := map[int][]Point{}
			for line := range want {
				ps, err := in.prog.LinePoints("loops.c", line)
				var le *LineError
				if errors.As(err, &le) && name == "loops-O2.elf" && le.Why == "no code at this line" {
					continue // the optimizer merged the line into another (a return)
				}
				if err != nil {
					t.Fatalf("line %d: %v", line, err)
				}
				v := in.variable(Int)
				code := in.compile(Assign(v, Binary(KAdd, Ref(v), IntConst(1))))
				for _, pt := range ps {
					in.add(pt, code, true)
				}
				vars[line], pts[line] = v, ps
			}
			if got := p.finish(t); got != string(out) {
				t.Fatalf("instrumented run printed %q, want %q", got, out)
			}
			for line, v := range vars {
				if got := readInt(t, p, v); got != want[line] {
					t.Errorf("loops.c:%d: probes at %v fired %d times, the line runs %d times", line, pts[line], got, want[line])
				}
			}
		})
	}
}

// TestUnknownSourceFileListsFiles: a file name nothing resembles lists the program's
// source files, closest first, and a whole-file request names no line 0.
func TestUnknownSourceFileListsFiles(t *testing.T) {
	p := openProgram(t, "loops-O2.elf")
	_, err := p.Lines("nofile.c")
	if err == nil || err.Error() != "probes: nofile.c: no such source file in the line table (its source files: loops.c)" {
		t.Errorf("Lines(nofile.c) = %v", err)
	}
	got := closestFirst("lines.c", []string{"zzz.c", "loops.c", "lines.h", "a.c", "loops.c"}, 3)
	if want := []string{"lines.h", "loops.c", "a.c", "... 1 more"}; !slices.Equal(got, want) {
		t.Errorf("closestFirst = %q, want %q", got, want)
	}
}
