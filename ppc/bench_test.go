package ppc

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// benchPrograms are the MIPS workloads: call-heavy recursion and a tight arithmetic loop.
var benchPrograms = []struct {
	name string
	args []string
}{
	{"fib", []string{"32"}},
	{"loop", []string{"20000000"}},
}

// BenchmarkMIPS runs each program to completion, translated and interpreted, and reports
// simulated instructions per second of wall time (MIPS) and of the thread's CPU time
// (cpuMIPS, which a busy shared machine disturbs less), and the share of the instructions
// that ran as translated code.
func BenchmarkMIPS(b *testing.B) {
	for _, p := range benchPrograms {
		for _, mode := range []struct {
			name      string
			translate bool
		}{{"translated", true}, {"interpreted", false}} {
			b.Run(p.name+"/"+mode.name, func(b *testing.B) {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				var insts, native uint64
				cpu0 := threadCPU()
				for b.Loop() {
					insts, native = runCount(b, mode.translate, execProg(p.name), p.args...)
				}
				cpu := threadCPU() - cpu0
				b.ReportMetric(float64(insts)*float64(b.N)/b.Elapsed().Seconds()/1e6, "MIPS")
				b.ReportMetric(float64(insts)*float64(b.N)/cpu.Seconds()/1e6, "cpuMIPS")
				b.ReportMetric(float64(insts), "insts/run")
				b.ReportMetric(100*float64(native)/float64(insts), "%translated")
			})
		}
	}
}

// BenchmarkQEMU times qemu-ppc -cpu 440epx on the same binaries; with BenchmarkMIPS's
// instruction counts this gives qemu's MIPS on the same work.
func BenchmarkQEMU(b *testing.B) {
	qemu := oracletest.Require(b, oracletest.QEMU)
	for _, p := range benchPrograms {
		b.Run(p.name, func(b *testing.B) {
			insts, _ := runCount(b, false, execProg(p.name), p.args...)
			start := time.Now()
			var cpu time.Duration
			for b.Loop() {
				cmd := exec.Command(qemu, append([]string{"-cpu", "440epx", execProg(p.name)}, p.args...)...)
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			b.ReportMetric(float64(insts)*float64(b.N)/time.Since(start).Seconds()/1e6, "MIPS")
			b.ReportMetric(float64(insts)*float64(b.N)/cpu.Seconds()/1e6, "cpuMIPS")
		})
	}
}

// runCount runs a freestanding program, translated or not, and returns the instructions
// it executed and how many of them ran translated.
func runCount(b *testing.B, translate bool, path string, args ...string) (uint64, uint64) {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	img, err := LoadELF(f)
	if err != nil {
		b.Fatal(err)
	}
	c, err := img.NewProcess(ProcessConfig{Args: append([]string{path}, args...)})
	if err != nil {
		b.Fatal(err)
	}
	c.SetTranslation(translate)
	for {
		st := c.Run(1 << 40)
		if st.Kind != StopSyscall {
			b.Fatalf("%s: %v at 0x%08x", path, st.Kind, c.PC)
		}
		switch c.GPR[0] {
		case 1:
			return c.Count.Instructions, c.TranslatedInstructions()
		case 4:
			c.GPR[3] = c.GPR[5]
		}
	}
}

// threadCPU returns the CPU time the calling OS thread has used.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	const rusageThread = 1
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkProcessBytes measures what each additional process of one static glibc image
// costs before it runs: heap bytes per process (Go's accounting) and the Memory's own
// private bytes (page-table root, private leaves and pages: the stack page).
func BenchmarkProcessBytes(b *testing.B) {
	f, err := os.Open(execProg("auxv"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	img, err := LoadELF(f)
	if err != nil {
		b.Fatal(err)
	}
	const n = 2000
	procs := make([]*CPU, n)
	var before, after runtime.MemStats
	for b.Loop() {
		clear(procs)
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range procs {
			procs[i], err = img.NewProcess(ProcessConfig{Args: []string{"auxv"}, Seed: uint64(i)})
			if err != nil {
				b.Fatal(err)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
	}
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "heapB/proc")
	b.ReportMetric(float64(procs[0].Mem.Stats().PrivateBytes), "privateB/proc")
	runtime.KeepAlive(procs)
}
