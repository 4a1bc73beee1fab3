package bgl

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/bgl/abi"
	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// buildTarget compiles one source of testdata/cxx with the cross compiler named by tool
// (static, for the 440) into a temporary directory and returns the program's path.
func buildTarget(t *testing.T, tool, src string, flags ...string) string {
	t.Helper()
	cc := oracletest.Require(t, tool)
	exe := filepath.Join(t.TempDir(), strings.TrimSuffix(src, filepath.Ext(src))+".elf")
	args := append([]string{"-mcpu=440fp", "-static", "-O2", "-g", "-Wall", "-Wextra", "-Werror"}, flags...)
	args = append(args, "-o", exe, filepath.Join("testdata", "cxx", src))
	if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", tool, src, err, out)
	}
	return exe
}

// TestCXXRuntime: a C++ program using <iostream>, exceptions, static constructors and
// destructors, containers, file streams and timed waits prints on the simulated machine
// the bytes it prints under qemu-ppc, with no call the CNK lacks. Every call qemu's
// strace shows it making has a handler.
func TestCXXRuntime(t *testing.T) {
	qemu := oracletest.Require(t, oracletest.QEMU)
	exe := buildTarget(t, oracletest.GXX, "runtime.cpp", "-std=c++17")
	args := []string{"first-arg"}
	wantOut, wantErr, wantStatus, _ := qemuRun(t, qemu, t.TempDir(), exe, args, "")
	if !strings.Contains(wantOut, "destroy first") {
		t.Fatalf("qemu's run did not get to the static destructors:\n%s", wantOut)
	}
	var out, errb bytes.Buffer
	dir := t.TempDir()
	res, err := Run(JobConfig{Exe: exe, Args: args, Workdir: dir, Stdout: &out, Stderr: &errb})
	if err != nil {
		t.Fatal(err)
	}
	oracletest.CheckInterpreted(t, "runtime.cpp", res.Translated)
	if out.String() != wantOut || errb.String() != wantErr || res.ExitStatus() != wantStatus {
		t.Errorf("differs from qemu\n--- qemu (status %d)\n%s%s--- dpclsh (status %d)\n%s%s",
			wantStatus, wantOut, wantErr, res.ExitStatus(), out.String(), errb.String())
	}
	if len(res.Unsupported) != 0 {
		t.Errorf("unsupported calls: %v", res.Unsupported)
	}
	assertDirEmpty(t, dir)

	cmd := exec.Command(qemu, "-cpu", "440epx", "-strace", exe)
	cmd.Dir = t.TempDir()
	var trace bytes.Buffer
	cmd.Stderr = &trace
	cmd.Run()
	seen := map[abi.Sysno]bool{}
	for _, n := range straceCalls(t, trace.String()) {
		if s, ok := syscallTable[n]; (!ok || s.Support == Refused) && !seen[n] {
			seen[n] = true
			t.Errorf("%s (%d), called by runtime.cpp, has no CNK handler", n.Name(), n)
		}
	}
}

// TestFutexSelfDeadlock: a thread that locks a normal mutex it holds waits on a futex
// nothing can wake. Linux would block it forever; the CNK ends that rank with 128+9 and
// an event naming the call, the address and the value, and the other ranks' job goes on.
func TestFutexSelfDeadlock(t *testing.T) {
	exe := buildTarget(t, oracletest.GCC, "selflock.c")
	var out, errb bytes.Buffer
	res, err := Run(JobConfig{Exe: exe, Nodes: 2, Stdout: &out, Stderr: &errb})
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != "locked once\nlocked once\n" {
		t.Errorf("stdout %q", out.String())
	}
	if res.ExitStatus() != 137 || len(res.Unsupported) != 2 {
		t.Fatalf("status %d, unsupported %v; stderr:\n%s", res.ExitStatus(), res.Unsupported, errb.String())
	}
	for r, ev := range res.Unsupported {
		if ev.Rank != r || !strings.Contains(ev.Note, "futex: wait on 0x") ||
			!strings.Contains(ev.Note, "(value 2) without a timeout: no other thread can wake it") {
			t.Errorf("event %v", ev)
		}
	}
	if !strings.Contains(errb.String(), "dpclsh: rank 1: uncaught signal 9 (Killed) at pc 0x") {
		t.Errorf("stderr:\n%s", errb.String())
	}
}
