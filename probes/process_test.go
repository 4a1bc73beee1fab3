package probes

import (
	"bytes"
	"os"
	"testing"

	"github.com/dpclsh/dpclsh/bgl/abi"
	"github.com/dpclsh/dpclsh/ppc"
)

// process runs a static test program on the interpreter with the few Linux calls its
// startup and printf need (write, writev, brk, exit); every other call fails with ENOSYS,
// which glibc tolerates. The probe hypercalls are served as in the snippet harness.
type process struct {
	cpu      *ppc.CPU
	img      *ppc.Image
	out      bytes.Buffer
	brk, top uint32
	exited   bool
	status   int
	sends    [][]Value
}

func startProcess(t testing.TB, name string, args ...string) *process {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := ppc.LoadELF(f)
	if err != nil {
		t.Fatal(err)
	}
	cpu, err := img.NewProcess(ppc.ProcessConfig{Args: append([]string{name}, args...), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return &process{cpu: cpu, img: img, brk: img.Brk(), top: img.Brk()}
}

// run executes up to budget instructions; it reports whether the program is still running.
func (p *process) run(t testing.TB, budget uint64) bool {
	t.Helper()
	for budget > 0 && !p.exited {
		before := p.cpu.Count.Instructions
		st := p.cpu.Run(budget)
		budget -= min(budget, p.cpu.Count.Instructions-before)
		switch st.Kind {
		case ppc.StopBudget:
			return true
		case ppc.StopSyscall:
			p.syscall(t)
		default:
			t.Fatalf("program stopped: %v %v", st.Kind, st.Fault)
		}
	}
	return !p.exited
}

func (p *process) syscall(t testing.TB) {
	c := p.cpu
	ret, errno := p.serve(t, abi.Sysno(c.GPR[0]), c.GPR[3:9])
	c.CR &^= 1 << 28 // CR0[SO]
	if errno != 0 {
		ret = uint32(errno)
		c.CR |= 1 << 28
	}
	if abi.Sysno(c.GPR[0]) == abi.HcCounter {
		v := counterValue(int(c.GPR[3]))
		c.GPR[4] = uint32(v)
		ret = uint32(v >> 32)
	}
	c.GPR[3] = ret
}

func (p *process) serve(t testing.TB, num abi.Sysno, a []uint32) (uint32, abi.Errno) {
	mem := p.cpu.Mem
	switch num {
	case abi.SysWrite:
		b := make([]byte, a[2])
		if err := mem.Read(a[1], b); err != nil {
			return 0, abi.EFAULT
		}
		p.out.Write(b)
		return a[2], 0
	case abi.SysWritev:
		return p.writev(a[1], a[2])
	case abi.SysBrk:
		return p.setBrk(a[0]), 0
	case abi.SysMprotect:
		return 0, 0 // glibc write-protects RELRO data; the test machine need not
	case abi.SysExit, abi.SysExitGroup:
		p.exited, p.status = true, int(int32(a[0]))
		return 0, 0
	case abi.HcRank:
		return 0, 0
	case abi.HcCounter:
		return 0, 0
	case abi.HcAisSend:
		b := make([]byte, a[1])
		if err := mem.Read(a[0], b); err != nil {
			t.Fatal(err)
		}
		_, vals, err := DecodeSend(b)
		if err != nil {
			t.Fatal(err)
		}
		p.sends = append(p.sends, vals)
		return 0, 0
	}
	return 0, abi.ENOSYS
}

func (p *process) writev(iov, n uint32) (uint32, abi.Errno) {
	var total uint32
	for i := range n {
		base, err1 := p.cpu.Mem.Read32(iov + 8*i)
		size, err2 := p.cpu.Mem.Read32(iov + 8*i + 4)
		b := make([]byte, size)
		if err1 != nil || err2 != nil || p.cpu.Mem.Read(base, b) != nil {
			return 0, abi.EFAULT
		}
		p.out.Write(b)
		total += size
	}
	return total, 0
}

// setBrk grows the heap by mapping pages (never shrinks it).
func (p *process) setBrk(want uint32) uint32 {
	if want <= p.brk || want > p.brk+64<<20 {
		return p.brk
	}
	end := (want + 0xfff) &^ 0xfff
	if end > p.top {
		if err := p.cpu.Mem.Map(p.top, end-p.top, ppc.PermR|ppc.PermW); err != nil {
			return p.brk
		}
		p.top = end
	}
	p.brk = want
	return p.brk
}

// finish runs the program to its end.
func (p *process) finish(t testing.TB) string {
	t.Helper()
	for p.run(t, 1<<24) {
	}
	if p.status != 0 {
		t.Fatalf("program exited with %d:\n%s", p.status, p.out.String())
	}
	return p.out.String()
}

func TestProcessHarnessMatchesQemu(t *testing.T) {
	for _, name := range []string{"points-O0.elf", "points-O2.elf"} {
		got := startProcess(t, name).finish(t)
		want, err := os.ReadFile("testdata/points.out")
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s printed\n%s\nwant (qemu-ppc)\n%s", name, got, want)
		}
	}
}
