package bgl

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/dpclsh/dpclsh/bgl/abi"
	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// TestTableCoversStrace runs the differential corpus under qemu-ppc -strace and checks
// that the CNK table has an entry for every call static glibc made.
func TestTableCoversStrace(t *testing.T) {
	qemu := oracletest.Require(t, oracletest.QEMU)
	seen := map[abi.Sysno]string{}
	for _, tc := range corpus {
		exe, _ := filepath.Abs("testdata/bin/" + tc.prog + ".elf")
		cmd := exec.Command(qemu, append([]string{"-cpu", "440epx", "-strace", exe}, tc.args...)...)
		cmd.Dir = t.TempDir()
		var errb bytes.Buffer
		cmd.Stderr = &errb
		cmd.Run()
		for _, n := range straceCalls(t, errb.String()) {
			seen[n] = tc.prog
		}
	}
	if len(seen) < 20 {
		t.Fatalf("only %d distinct calls parsed from qemu's strace", len(seen))
	}
	for n, prog := range seen {
		if s, ok := syscallTable[n]; !ok || s.Support == Refused {
			t.Errorf("%s (%d), called by %s, has no CNK handler", n.Name(), n, prog)
		}
	}
}

var straceLine = regexp.MustCompile(`(?m)^\d+ (?:([a-z_0-9]+)\(|Unknown syscall (\d+))`)

// straceCalls lists the system calls in qemu-ppc -strace output, by name or number.
func straceCalls(t *testing.T, trace string) []abi.Sysno {
	t.Helper()
	byName := map[string]abi.Sysno{}
	for _, n := range abi.LinuxSyscalls() {
		byName[n.Name()] = n
	}
	var calls []abi.Sysno
	for _, m := range straceLine.FindAllStringSubmatch(trace, -1) {
		if m[2] != "" {
			n, _ := strconv.Atoi(m[2])
			calls = append(calls, abi.Sysno(n))
		} else if n, ok := byName[m[1]]; ok {
			calls = append(calls, n)
		}
	}
	return calls
}
