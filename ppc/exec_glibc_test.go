package ppc

import (
	"bytes"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// glibcSys is a test-only handler for the system calls a static glibc 2.36 program makes
// before and after main (as qemu-ppc -strace lists them): enough to run one to exit. The
// real CNK lives in package bgl.
type glibcSys struct {
	brk uint32
	out bytes.Buffer
}

const enosys = 38

func (s *glibcSys) call(t *testing.T, c *CPU) (done bool, status int) {
	ret, errno := uint32(0), uint32(0)
	a := c.GPR[3:9]
	switch c.GPR[0] {
	case 1, 234: // exit, exit_group
		return true, int(a[0] & 0xff)
	case 4: // write
		buf := make([]byte, a[2])
		if err := c.Mem.Read(a[1], buf); err != nil {
			t.Fatalf("write: %v", err)
		}
		s.out.Write(buf)
		ret = a[2]
	case 45: // brk
		if a[0] > s.brk {
			c.Mem.Map(s.brk, a[0]-s.brk, PermRW)
			s.brk = a[0]
		}
		ret = s.brk
	case 125: // mprotect
		if err := c.Mem.Protect(a[0], a[1], Perm(a[2]&7)); err != nil {
			errno = 12
		}
	case 232: // set_tid_address
		ret = 1
	case 359: // getrandom: zeros
		c.Mem.Write(a[0], make([]byte, a[1]))
		ret = a[1]
	default: // set_robust_list, rseq, ugetrlimit, readlink, statx...
		errno = enosys
	}
	c.CR &^= 0x10000000
	if errno != 0 {
		c.CR |= 0x10000000
		ret = errno
	}
	c.GPR[3] = ret
	return false, 0
}

// TestGlibcProgram runs a static glibc program (startup, printf, exit) to completion and
// compares its output with qemu-ppc's. Its output prints the auxv, so this also checks
// that glibc reads the initial stack as the loader built it.
func TestGlibcProgram(t *testing.T) {
	path := execProg("auxv")
	want := runQEMU(t, path, "x")
	img := loadFile(t, path)
	c, err := img.NewProcess(ProcessConfig{Args: []string{path, "x"}})
	if err != nil {
		t.Fatal(err)
	}
	s := &glibcSys{brk: img.Brk()}
	for {
		st := c.Run(50_000_000)
		if st.Kind != StopSyscall {
			t.Fatalf("stopped: %v %v at 0x%08x after %d instructions", st.Kind, st.Fault, c.PC, c.Count.Instructions)
		}
		if done, status := s.call(t, c); done {
			oracletest.CheckInterpreted(t, path, c.TranslatedInstructions())
			if status != want.status {
				t.Errorf("status %d, qemu-ppc %d", status, want.status)
			}
			break
		}
	}
	if line, g, w := firstDiff(s.out.Bytes(), want.stdout); line > 0 {
		t.Errorf("stdout differs at line %d:\n got %q\nqemu %q", line, g, w)
	}
	t.Logf("%d instructions, %d cycles", c.Count.Instructions, c.Count.Cycles)
}
