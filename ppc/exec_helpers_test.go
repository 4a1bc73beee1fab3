package ppc

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// result is what a whole-program run produced: output and how it ended.
type result struct {
	stdout []byte
	status int // exit status, or 128+signal when killed
}

// testBudget bounds a test program run so a broken interpreter cannot hang the test.
const testBudget = 2_000_000_000

// runELF loads path and runs it with the test-only system calls: write (to a buffer) and
// exit. Any other call fails the test.
func runELF(t testing.TB, path string, args ...string) result {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := LoadELF(f)
	if err != nil {
		t.Fatal(err)
	}
	c, err := img.NewProcess(ProcessConfig{Args: append([]string{path}, args...), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for {
		st := c.Run(testBudget)
		switch st.Kind {
		case StopSyscall:
			if done, status := testSyscall(t, c, &out); done {
				oracletest.CheckInterpreted(t, path, c.TranslatedInstructions())
				return result{out.Bytes(), status}
			}
		case StopFault, StopTrap:
			oracletest.CheckInterpreted(t, path, c.TranslatedInstructions())
			return result{out.Bytes(), 128 + st.Fault.Signal()}
		default:
			t.Fatalf("%s: stopped: %v at pc 0x%08x", path, st.Kind, c.PC)
		}
	}
}

func testSyscall(t testing.TB, c *CPU, out *bytes.Buffer) (bool, int) {
	switch c.GPR[0] {
	case 1, 234: // exit, exit_group
		return true, int(c.GPR[3] & 0xff)
	case 4: // write
		buf := make([]byte, c.GPR[5])
		if err := c.Mem.Read(c.GPR[4], buf); err != nil {
			t.Fatalf("write: %v", err)
		}
		out.Write(buf)
		c.GPR[3] = c.GPR[5]
		c.CR &^= 0x10000000
		return false, 0
	}
	t.Fatalf("unexpected system call %d at pc 0x%08x", c.GPR[0], c.PC-4)
	return false, 0
}

// runQEMU runs path under qemu-ppc -cpu 440epx.
func runQEMU(t testing.TB, path string, args ...string) result {
	t.Helper()
	qemu := oracletest.Require(t, oracletest.QEMU)
	cmd := exec.Command(qemu, append([]string{"-cpu", "440epx", path}, args...)...)
	cmd.Env = []string{}
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	st := cmd.ProcessState
	if st == nil {
		t.Fatalf("qemu-ppc %s: %v", path, err)
	}
	status := st.ExitCode()
	if status < 0 {
		status = 128 + signalOf(st)
	}
	return result{out.Bytes(), status}
}

func execProg(name string) string { return filepath.Join("testdata", "exec", name+".elf") }
