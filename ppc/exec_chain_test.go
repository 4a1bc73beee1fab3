package ppc

import (
	"bytes"
	"os"
	"testing"
)

// cpuState is everything a run can change that a test can compare.
type cpuState struct {
	GPR                     [32]uint32
	FPR                     [32]uint64
	CR, XER, LR, CTR, FPSCR uint32
	PC                      uint32
	Count                   Counters
}

func stateOf(c *CPU) cpuState {
	return cpuState{c.GPR, c.FPR, c.CR, c.XER, c.LR, c.CTR, c.FPSCR, c.PC, c.Count}
}

func newTestProcess(t *testing.T, name string, args ...string) *CPU {
	t.Helper()
	f, err := os.Open(execProg(name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := LoadELF(f)
	if err != nil {
		t.Fatal(err)
	}
	c, err := img.NewProcess(ProcessConfig{Args: append([]string{name}, args...), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestChainMatchesGeneralPath runs each program twice: once in large slices (the chained
// interpreter, forwarded micro-ops and block chaining), once with a breakpoint set (at an
// address never reached), which keeps Run on the general path, in slices of 7
// instructions that cut blocks anywhere. Registers, counters and output must agree at
// every stop.
func TestChainMatchesGeneralPath(t *testing.T) {
	programs := []struct {
		name string
		args []string
	}{
		{"fib", []string{"12"}}, {"loop", []string{"3000"}}, {"intops", nil},
		{"strops", nil}, {"fpops", nil}, {"hello", nil},
	}
	for _, p := range programs {
		t.Run(p.name, func(t *testing.T) {
			fast, slow := newTestProcess(t, p.name, p.args...), newTestProcess(t, p.name, p.args...)
			slow.SetBreakpoint(0xfffffffc)
			var outFast, outSlow bytes.Buffer
			for stops := 0; ; stops++ {
				stFast := fast.Run(testBudget)
				var stSlow Stop
				for stSlow = slow.Run(7); stSlow.Kind == StopBudget; stSlow = slow.Run(7) {
				}
				if stFast.Kind != stSlow.Kind || stateOf(fast) != stateOf(slow) {
					t.Fatalf("stop %d: chained %v %+v\ngeneral %v %+v", stops, stFast.Kind, stateOf(fast), stSlow.Kind, stateOf(slow))
				}
				if stFast.Kind != StopSyscall {
					return
				}
				doneFast, _ := testSyscall(t, fast, &outFast)
				doneSlow, _ := testSyscall(t, slow, &outSlow)
				if doneFast || doneSlow {
					if !bytes.Equal(outFast.Bytes(), outSlow.Bytes()) || outFast.Len() == 0 {
						t.Fatalf("output: chained %q, general %q", outFast.Bytes(), outSlow.Bytes())
					}
					return
				}
			}
		})
	}
}
