package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const hostileELF = "../../bgl/testdata/bin/hostile.elf"

// startExec starts `dpclsh exec OPTS hostile.elf ARGS` with a stdin that never delivers
// data nor ends, and returns the command and its output buffers.
func startExec(t *testing.T, opts []string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	abs, err := filepath.Abs(hostileELF)
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	argv := append(append(append([]string{"exec"}, opts...), abs), args...)
	cmd := exec.Command(binary, argv...)
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r, &out, &errb
	return cmd, &out, &errb
}

// waitStatus waits at most limit for cmd and returns its exit status.
func waitStatus(t *testing.T, cmd *exec.Cmd, limit time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("dpclsh exec still running after %v", limit)
		return -1
	}
}

// TestExecStdinReadIsInterruptible: a rank waiting for stdin that never comes must not
// make the process deaf to signals: SIGTERM ends it with 143, SIGINT with 130.
func TestExecStdinReadIsInterruptible(t *testing.T) {
	for _, c := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}} {
		cmd, _, errb := startExec(t, nil, "stdin")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
		if err := cmd.Process.Signal(c.sig); err != nil {
			t.Fatal(err)
		}
		if got := waitStatus(t, cmd, 10*time.Second); got != c.want {
			t.Errorf("%v: exit status %d, want %d; stderr:\n%s", c.sig, got, c.want, errb)
		}
	}
}

// TestExecRefusesFIFOs: opening a FIFO in the workdir would wait for a writer with the
// whole machine stopped; CIOD refuses it with EACCES at once.
func TestExecRefusesFIFOs(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	cmd, out, errb := startExec(t, []string{"--workdir", dir}, "fifo", "pipe")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if got := waitStatus(t, cmd, 20*time.Second); got != 0 || out.String() != "open pipe: Permission denied\n" {
		t.Errorf("status %d, output %q, stderr %q", got, out, errb)
	}
}

// TestExecReportsOneProcessPerNode: fork and execve get ENOSYS and the user reads why on
// stderr.
func TestExecReportsOneProcessPerNode(t *testing.T) {
	var out, errb bytes.Buffer
	abs, _ := filepath.Abs(hostileELF)
	if code := run([]string{"exec", abs, "fork"}, nil, &out, &errb); code != 0 {
		t.Fatalf("status %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "fork: -1 (Function not implemented)") {
		t.Errorf("stdout %q", out.String())
	}
	for _, call := range []string{"clone", "execve"} {
		if !strings.Contains(errb.String(), call+": CNK runs one process per node") {
			t.Errorf("stderr does not say %s is refused:\n%s", call, errb.String())
		}
	}
}

// TestExecLimits: --memory sets each node's memory (sysinfo agrees, malloc stops there),
// --disk-quota bounds the files the job writes; bad values are refused by name.
func TestExecLimits(t *testing.T) {
	abs, _ := filepath.Abs(hostileELF)
	var out, errb bytes.Buffer
	if code := run([]string{"exec", "--memory", "32", abs, "memory"}, nil, &out, &errb); code != 0 {
		t.Fatalf("status %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "fixed mmap Cannot allocate memory; totalram 32 MiB") ||
		!strings.Contains(errb.String(), "rank 0: out of memory") {
		t.Errorf("--memory 32: stdout %q stderr %q", out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	dir := t.TempDir()
	if code := run([]string{"exec", "--workdir", dir, "--disk-quota", "2", abs, "bigfile", "4"}, nil, &out, &errb); code != 0 {
		t.Fatalf("status %d: %s", code, errb.String())
	}
	if out.String() != "write big.out after 2097152 bytes: Disk quota exceeded\n" {
		t.Errorf("--disk-quota 2: %q", out.String())
	}
	errb.Reset()
	if code := run([]string{"exec", "--memory", "5", abs}, nil, &out, &errb); code == 0 || !strings.Contains(errb.String(), "memory of 5 MiB") {
		t.Errorf("--memory 5: status %d, %q", code, errb.String())
	}
}
