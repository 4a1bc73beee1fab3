package probes

import "testing"

// pointTimeAt runs the "plain" case with one snippet at its second instruction, which
// stores read() into an int64 variable and, when heavy, also sums eight argument registers
// (so its trampoline saves eight more registers first); it returns the time stored.
func pointTimeAt(t *testing.T, read func() *Exp, heavy bool) int64 {
	t.Helper()
	c := relocCases[0]
	m := newMachine(t)
	words := m.load(t, c)
	slots := NewSlots(hVars, 0x100)
	at, _ := slots.Alloc("at", Int64)
	sum, _ := slots.Alloc("sum", Int)
	e := Assign(at, read())
	if heavy {
		s := Arg(0, Int)
		for i := 1; i < 8; i++ {
			s = Binary(KAdd, s, Arg(i, Int))
		}
		e = Seq(e, Assign(sum, s))
	}
	code, err := Compile(e, &testTarget)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := BuildTrampoline(Point{Addr: hCode + 4, Word: words[1]}, []*Code{code}, []bool{true}, hTramp, hGuard)
	if err != nil {
		t.Fatal(err)
	}
	install(t, m, tr)
	m.reset()
	m.run(t, hCode)
	return m.readVar(t, at).I
}

// PointTimebase is the time the point was reached: a snippet that uses more registers
// (whose trampoline saves more before running it) reads the same time, where Timebase
// reads later.
func TestPointTimebaseIgnoresTheSnippetsSaves(t *testing.T) {
	light, heavy := pointTimeAt(t, PointTimebase, false), pointTimeAt(t, PointTimebase, true)
	if light != heavy {
		t.Errorf("point_timebase(): %d with a light snippet, %d with one that saves 8 more registers", light, heavy)
	}
	if light == 0 {
		t.Error("point_timebase() read 0: the trampoline did not store the time base")
	}
	if a, b := pointTimeAt(t, Timebase, false), pointTimeAt(t, Timebase, true); a == b {
		t.Errorf("timebase(): %d in both, but the heavy snippet's trampoline saves more before it", a)
	}
}
