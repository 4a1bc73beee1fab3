package ppc

import (
	"bytes"
	"testing"
)

// TestEntryMarks: marks at a recursive function and a printing helper are reached, one
// at code that never runs is not, and none of them changes the output, the counters
// (virtual time) or whether blocks run translated.
func TestEntryMarks(t *testing.T) {
	img := loadFile(t, execProg("fib"))
	sym := func(name string) uint32 {
		for _, s := range img.Symbols {
			if s.Name == name {
				return s.Addr
			}
		}
		t.Fatalf("fib.elf has no symbol %s", name)
		return 0
	}
	fib, dec := sym("fib"), sym("dec")
	never := sym("cmain") + 0x1000 // past the program's text: no block ever starts there
	run := func(translate bool, marks ...uint32) (*CPU, []byte) {
		c, err := img.NewProcess(ProcessConfig{Args: []string{"fib", "15"}, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		c.SetTranslation(translate)
		for _, a := range marks {
			c.MarkEntry(a)
		}
		var out bytes.Buffer
		for {
			st := c.Run(testBudget)
			if st.Kind != StopSyscall {
				t.Fatalf("stopped: %v at pc 0x%08x", st.Kind, c.PC)
			}
			if done, _ := testSyscall(t, c, &out); done {
				return c, out.Bytes()
			}
		}
	}
	for _, translate := range []bool{false, true} {
		plain, plainOut := run(translate)
		c, out := run(translate, fib, dec, never)
		if !bytes.Equal(out, plainOut) || c.Count != plain.Count {
			t.Errorf("translate=%v: marks changed the run: %q %+v, want %q %+v", translate, out, c.Count, plainOut, plain.Count)
		}
		if !c.EntryReached(fib) || !c.EntryReached(dec) || c.EntryReached(never) {
			t.Errorf("translate=%v: reached fib %v, dec %v, never-run code %v; want true, true, false",
				translate, c.EntryReached(fib), c.EntryReached(dec), c.EntryReached(never))
		}
		if translate && c.Translation() && c.TranslatedInstructions() < plain.TranslatedInstructions()*9/10 {
			t.Errorf("an armed mark slowed the run: %d instructions translated, %d without marks",
				c.TranslatedInstructions(), plain.TranslatedInstructions())
		}
		c.ClearEntryMark(fib)
		if c.EntryReached(fib) {
			t.Error("a cleared mark still reads as reached")
		}
	}
}
