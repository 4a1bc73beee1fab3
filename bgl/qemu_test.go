package bgl

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// corpus lists the differential programs with their arguments. Every one must produce the
// same stdout bytes and exit status as qemu-ppc -cpu 440epx.
var corpus = []struct {
	prog  string
	args  []string
	stdin string
}{
	{"hello", nil, ""},
	{"ints", nil, ""},
	{"floats", nil, ""},
	{"malloc", nil, ""},
	{"qsort", nil, ""},
	{"setjmp", nil, ""},
	{"fileio", nil, ""},
	{"listdir", nil, ""},
	{"argv", []string{"one", "two words", "", "three"}, ""},
	{"exit", []string{"42"}, ""},
	{"exit", []string{"255"}, ""},
	{"upper", nil, "stdin goes\nto rank 0\n" + strings.Repeat("x", 9000)},
	{"segv", nil, ""},
	{"abort", nil, ""},
	{"trap", nil, ""},
}

// qemuRun runs prog under qemu in dir and returns stdout, stderr and the shell-style
// status (128+S when killed by signal S, the signal then).
func qemuRun(t *testing.T, qemu, dir, prog string, args []string, stdin string) (string, string, int, int) {
	t.Helper()
	cmd := exec.Command(qemu, append([]string{"-cpu", "440epx", prog}, args...)...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), errb.String(), 0, 0
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return out.String(), errb.String(), 128 + int(ws.Signal()), int(ws.Signal())
		}
		return out.String(), errb.String(), ee.ExitCode(), 0
	}
	t.Fatalf("qemu %s: %v", prog, err)
	return "", "", 0, 0
}

func TestDifferentialQEMU(t *testing.T) {
	qemu := oracletest.Require(t, oracletest.QEMU)
	for _, tc := range corpus {
		name := tc.prog + strings.Join(tc.args, "_")
		t.Run(name, func(t *testing.T) {
			exe, _ := filepath.Abs("testdata/bin/" + tc.prog + ".elf")
			qdir, odir := t.TempDir(), t.TempDir()
			wantOut, wantErr, wantStatus, wantSig := qemuRun(t, qemu, qdir, exe, tc.args, tc.stdin)
			var out, errb bytes.Buffer
			res, err := Run(JobConfig{Exe: exe, Args: tc.args, Workdir: odir, Stdout: &out, Stderr: &errb,
				Stdin: strings.NewReader(tc.stdin)})
			if err != nil {
				t.Fatal(err)
			}
			oracletest.CheckInterpreted(t, tc.prog, res.Translated)
			if out.String() != wantOut {
				t.Errorf("stdout differs from qemu\n--- qemu\n%s\n--- dpclsh\n%s", wantOut, out.String())
			}
			if got := res.ExitStatus(); got != wantStatus {
				t.Errorf("status %d, qemu %d", got, wantStatus)
			}
			if wantSig != 0 {
				checkSignalLine(t, errb.String(), wantSig)
			} else if errb.String() != wantErr {
				t.Errorf("stderr %q, qemu %q", errb.String(), wantErr)
			}
			if len(res.Unsupported) != 0 {
				t.Errorf("unsupported calls: %v", res.Unsupported)
			}
			assertDirEmpty(t, odir)
		})
	}
}

// checkSignalLine wants exactly one line naming rank 0, a pc and the signal.
func checkSignalLine(t *testing.T, stderr string, sig int) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	want := "rank 0: uncaught signal " + strconv.Itoa(sig) + " (" + SignalName(sig) + ") at pc 0x"
	if len(lines) != 1 || !strings.Contains(lines[0], want) {
		t.Errorf("stderr %q: want one line containing %q", stderr, want)
	}
}

func assertDirEmpty(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Errorf("program left %s in its working directory", e.Name())
	}
}
