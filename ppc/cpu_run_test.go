package ppc

import (
	"testing"
)

// countLoop is: li r3,0; li r4,n; loop: addi r3,r3,1; stw r3,0(r9); lwz r5,0(r9);
// cmpw r3,r4; bne loop; sc.
func countLoop(n int32) []uint32 {
	return []uint32{
		wD(14, 3, 0, 0), wD(14, 4, 0, n),
		wD(14, 3, 3, 1), wD(36, 3, 9, 0), wD(32, 5, 9, 0), wX(31, 0, 3, 4, 0, false),
		16<<26 | 4<<21 | 2<<16 | 0xfff0, // bne -16
	}
}

func TestCounters(t *testing.T) {
	c := newTestCPU(t, countLoop(10)...)
	c.GPR[9] = 0x20000000
	run(t, c)
	want := Counters{Instructions: 2 + 10*5 + 1, Loads: 10, Stores: 10, Branches: 9, BranchesNotTaken: 1}
	want.Cycles = 2*uint64(DefaultCosts[ClassInt]) + 10*uint64(DefaultCosts[ClassInt]*2+DefaultCosts[ClassStore]+
		DefaultCosts[ClassLoad]+DefaultCosts[ClassBranch]) + uint64(DefaultCosts[ClassSyscall])
	if c.Count != want {
		t.Errorf("counters %+v, want %+v", c.Count, want)
	}
}

// TestBudgetIsExact: running in slices of any size executes the same instructions.
func TestBudgetIsExact(t *testing.T) {
	for _, slice := range []uint64{1, 2, 3, 7, 1000} {
		c := newTestCPU(t, countLoop(10)...)
		c.GPR[9] = 0x20000000
		var stops int
		for {
			before := c.Count.Instructions
			st := c.Run(slice)
			if st.Kind == StopSyscall {
				break
			}
			if st.Kind != StopBudget || c.Count.Instructions-before != slice {
				t.Fatalf("slice %d: %v after %d", slice, st.Kind, c.Count.Instructions-before)
			}
			if stops++; stops > 100 {
				t.Fatalf("slice %d: no exit after %d slices", slice, stops)
			}
		}
		if c.Count.Instructions != 53 || c.GPR[3] != 10 {
			t.Errorf("slice %d: %d instructions, r3=%d", slice, c.Count.Instructions, c.GPR[3])
		}
		if c.Count.Branches != 9 || c.Count.BranchesNotTaken != 1 {
			t.Errorf("slice %d: %d branches taken, %d not taken, want 9 and 1", slice,
				c.Count.Branches, c.Count.BranchesNotTaken)
		}
	}
}

func TestBreakpoints(t *testing.T) {
	c := newTestCPU(t, countLoop(3)...)
	c.GPR[9] = 0x20000000
	bp := uint32(codeBase + 16) // the lwz
	c.SetBreakpoint(bp)
	hits := 0
	for {
		st := c.Run(1000)
		if st.Kind == StopSyscall {
			break
		}
		if st.Kind != StopBreakpoint || c.PC != bp {
			t.Fatalf("stop %v at 0x%x", st.Kind, c.PC)
		}
		if hits++; hits > 10 {
			t.Fatal("breakpoint not cleared")
		}
		if hits == 2 {
			c.ClearBreakpoint(bp)
		}
	}
	if hits != 2 || c.GPR[3] != 3 {
		t.Errorf("%d hits, r3=%d", hits, c.GPR[3])
	}
}

// TestCodePatching: writing code (as instrumentation does) takes effect at once, only in
// the Memory written; other processes of the same image keep the original code.
func TestCodePatching(t *testing.T) {
	img := loadFile(t, execProg("hello"))
	a, _ := img.NewProcess(ProcessConfig{Args: []string{"a"}})
	b, _ := img.NewProcess(ProcessConfig{Args: []string{"b"}})
	// Both decode the entry block; it must be one shared predecode.
	a.Step()
	b.Step()
	pa, _ := a.Mem.readPage(img.Entry, PermX)
	pb, _ := b.Mem.readPage(img.Entry, PermX)
	if pa != pb || pa.code.Load() == nil {
		t.Fatal("processes do not share the predecoded entry page")
	}
	// Patch b's second instruction to "li r3,77; sc" equivalent: replace with li r3,77.
	li := wD(14, 3, 0, 77)
	if err := b.Mem.Poke(img.Entry+4, []byte{byte(li >> 24), byte(li >> 16), byte(li >> 8), byte(li)}); err != nil {
		t.Fatal(err)
	}
	a.Step()
	b.Step()
	if b.GPR[3] != 77 || a.GPR[3] == 77 {
		t.Errorf("patched r3=%d, unpatched r3=%d", b.GPR[3], a.GPR[3])
	}
	pa2, _ := a.Mem.readPage(img.Entry, PermX)
	if pa2 != pa || pa.code.Load() == nil {
		t.Error("patching one process dropped the shared predecode")
	}
}

// TestSelfModifyingStore: a store into the current page's code ends the block, so the
// next instruction is decoded from the new bytes.
func TestSelfModifyingStore(t *testing.T) {
	newWord := wD(14, 7, 0, 99) // li r7,99
	c := newTestCPU(t, wD(36, 5, 6, 8), wD(14, 7, 0, 1))
	c.Mem.Protect(codeBase, PageSize, PermRWX)
	c.GPR[5], c.GPR[6] = newWord, codeBase-4 // stw r5,8(r6) hits the second instruction
	c.Step()                                 // predecode the block first, then store
	c.PC = codeBase
	run(t, c)
	if c.GPR[7] != 99 {
		t.Errorf("r7 = %d: stale predecoded code ran", c.GPR[7])
	}
}

// TestConcurrentProcesses runs processes of one image on several goroutines (run with
// -race): the base Memory, its shared pages and their predecoded code are shared.
func TestConcurrentProcesses(t *testing.T) {
	img := loadFile(t, execProg("fib"))
	const n = 8
	results := make(chan string, n)
	for i := 0; i < n; i++ {
		go func() {
			c, err := img.NewProcess(ProcessConfig{Args: []string{"fib", "15"}})
			if err != nil {
				results <- err.Error()
				return
			}
			var out []byte
			for {
				st := c.Run(1 << 30)
				if st.Kind != StopSyscall {
					results <- st.Kind.String()
					return
				}
				if c.GPR[0] == 1 {
					results <- string(out)
					return
				}
				buf := make([]byte, c.GPR[5])
				c.Mem.Read(c.GPR[4], buf)
				out = append(out, buf...)
				c.GPR[3] = c.GPR[5]
			}
		}()
	}
	for i := 0; i < n; i++ {
		if got := <-results; got != "fib 15 = 610\n" {
			t.Errorf("process output %q", got)
		}
	}
}

// TestTimebaseIsExactInsideABlock: mftb reads the cycles of every instruction before it,
// whether the block runs whole or is cut into single steps.
func TestTimebaseIsExactInsideABlock(t *testing.T) {
	mftb := uint32(31<<26 | 5<<21 | (268&31)<<16 | (268>>5)<<11 | 339<<1)
	prog := []uint32{wD(14, 3, 0, 1), wD(7, 4, 3, 9), wD(14, 6, 0, 2), mftb} // li; mulli; li; mftb
	want := uint64(1000 + 2*DefaultCosts[ClassInt] + DefaultCosts[ClassMul])
	for _, slice := range []uint64{1, 1000} {
		c := newTestCPU(t, prog...)
		c.TBBase = 1000
		for c.PC != codeBase+16 {
			if st := c.Run(min(slice, uint64(codeBase+16-c.PC)/4)); st.Kind != StopBudget {
				t.Fatalf("slice %d: stopped with %v", slice, st.Kind)
			}
		}
		if got := uint64(c.GPR[5]); got != want {
			t.Errorf("slice %d: mftb read %d, want %d", slice, got, want)
		}
	}
}
