package probes

import (
	"strings"
	"testing"
)

// TestInlinedPoints: at -O2 gcc inlines loops.c's scale into fill, so scale has no entry
// of its own; InlinedPoints finds the copy from DWARF and InlinedNote says so, while at
// -O0 -fno-inline scale is an ordinary function without copies.
func TestInlinedPoints(t *testing.T) {
	p := openProgram(t, "loops-O2.elf")
	pts, err := p.InlinedPoints("scale")
	if err != nil {
		t.Fatal(err)
	}
	for _, pt := range pts {
		if pt.Kind != PointInlined || pt.Func != "fill" || pt.Callee != "scale" || pt.File != "loops.c" || pt.Line != 26 {
			t.Errorf("inlined point %v, want one in fill for the call at loops.c:26", pt)
		}
	}
	if len(pts) == 0 {
		t.Fatal("no inlined points for scale")
	}
	// The copy runs once per call fill's loop makes: as often as scale's line runs.
	proc := startProcess(t, "loops-O2.elf")
	in := newInstrumenter(t, proc, "loops-O2.elf")
	v := in.variable(Int)
	code := in.compile(Assign(v, Binary(KAdd, Ref(v), IntConst(1))))
	for _, pt := range pts {
		in.add(pt, code, true)
	}
	proc.finish(t)
	if got, want := readInt(t, proc, v), markedCounts(t, "loops.c", true)[12]; got != want {
		t.Errorf("inlined copies of scale ran %d times, scale's line runs %d times", got, want)
	}
	note := p.InlinedNote("scale")
	for _, want := range []string{"scale is also inlined at", "in fill", `app:points("scale", "inlined")`} {
		if !strings.Contains(note, want) {
			t.Errorf("InlinedNote = %q, want it to contain %q", note, want)
		}
	}
	o0 := openProgram(t, "loops-O0.elf")
	if note := o0.InlinedNote("scale"); note != "" {
		t.Errorf("-O0 -fno-inline: InlinedNote = %q", note)
	}
	if _, err := o0.InlinedPoints("scale"); err == nil || !strings.Contains(err.Error(), "scale has no inlined copies") {
		t.Errorf("-O0 -fno-inline: InlinedPoints = %v", err)
	}
}
