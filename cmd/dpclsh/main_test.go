package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// binary is the dpclsh executable built once for the tests that need a real process
// (exit statuses, signals, the terminal).
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "dpclsh-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	scratch, binary = dir, filepath.Join(dir, "dpclsh")
	out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building dpclsh: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestExitStatus runs the binary as a user would and checks status and output.
func TestExitStatus(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		stdin      string
		status     int
		stdout     string // exact, when stderr is not checked alone
		stderrHas  []string
		stderrNone bool
	}{
		{"expression", []string{"-e", "return 1+1"}, "", 0, "2\n", nil, true},
		{"piped chunks", nil, "x = 6*7\nprint(x)\n", 0, "42\n", nil, true},
		{"error", []string{"-e", `error("boom")`}, "", 1, "", []string{"-e:1: boom", `error("boom")`}, false},
		{"unknown option", []string{"--bogus"}, "", 2, "", []string{"unknown option --bogus", "usage:"}, false},
		{"os.exit", []string{"-e", "os.exit(7)"}, "", 7, "", nil, true},
		{"os.exit through pcall", []string{"-e", "pcall(os.exit, 3) print('not reached')"}, "", 3, "", nil, true},
		{"os.exit(false)", []string{"-e", "os.exit(false)"}, "", 1, "", nil, true},
		{"os.exit in piped REPL", nil, "print(1)\nos.exit(4)\nprint(2)\n", 4, "1\n", nil, true},
		{"error in piped REPL goes on", nil, "nosuch()\nprint('on')\n", 1, "on\n", []string{"stdin:1: attempt to call a non-function object"}, false},
		{"missing script", []string{"/nonexistent/x.lua"}, "", 1, "", []string{"/nonexistent/x.lua"}, false},
		{"-e needs a chunk", []string{"-e"}, "", 2, "", []string{"-e needs a chunk"}, false},
		{"script from stdin", []string{"-", "a"}, "print(#arg, arg[0], ...)", 0, "1\tstdin\ta\n", nil, true},
		{"syntax error", []string{"-e", "x = = 1"}, "", 1, "", []string{"-e:1: syntax error near '='"}, false},
		{"go stack only with -v", []string{"-v", "-e", "error('deep')"}, "", 1, "", []string{"stack traceback"}, false},
		{"help lists subcommands", []string{"--help"}, "", 0, "", nil, true},
		{"modules", []string{"--module-dir", "../../examples/modules", "--modules", "counter, nosuch", "-e",
			`print(dpcl.load_modules{"counter"}[1].reason)`}, "", 0,
			"module counter is already loaded (from ../../examples/modules/counter.lua)\n",
			[]string{`module nosuch refused: no module "nosuch" in ../../examples/modules (modules there: counter, hwcounters, timer)`}, false},
		{"--modules needs a value", []string{"--modules"}, "", 2, "", []string{"--modules needs a value"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(binary, tc.args...)
			cmd.Stdin = strings.NewReader(tc.stdin)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Env = append(os.Environ(), "DPCLSH_HISTORY="+filepath.Join(t.TempDir(), "history"))
			err := cmd.Run()
			status := 0
			if ee, ok := err.(*exec.ExitError); ok {
				status = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if status != tc.status {
				t.Errorf("status %d, want %d\nstdout: %s\nstderr: %s", status, tc.status, stdout.String(), stderr.String())
			}
			if tc.name == "help lists subcommands" {
				if !strings.Contains(stdout.String(), "dpclsh test") {
					t.Errorf("--help does not list the test subcommand:\n%s", stdout.String())
				}
				return
			}
			if stdout.String() != tc.stdout {
				t.Errorf("stdout %q, want %q", stdout.String(), tc.stdout)
			}
			for _, want := range tc.stderrHas {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
				}
			}
			if tc.stderrNone && stderr.Len() > 0 {
				t.Errorf("unexpected stderr:\n%s", stderr.String())
			}
			if !strings.Contains(strings.Join(tc.args, " "), "-v") && strings.Contains(stderr.String(), "goroutine ") {
				t.Errorf("Go stack without -v:\n%s", stderr.String())
			}
		})
	}
}

// TestStdoutWriteFailure: output nobody can receive is a failure, said once on stderr;
// a status that already says failure stays.
func TestStdoutWriteFailure(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full on this host")
	}
	defer full.Close()
	const msg = "dpclsh: cannot write standard output: no space left on device\n"
	tests := []struct {
		args   []string
		status int
	}{
		{[]string{"-e", "print('hello')"}, 1},
		{[]string{"-e", "print('hello') os.exit(3)"}, 3},
		{[]string{"disasm", "../../examples/apps/bin/ring.elf", "main"}, 1},
	}
	for _, tc := range tests {
		cmd := exec.Command(binary, tc.args...)
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = full, &stderr
		cmd.Env = append(os.Environ(), "DPCLSH_HISTORY="+filepath.Join(t.TempDir(), "history"))
		err := cmd.Run()
		status := 0
		if ee, ok := err.(*exec.ExitError); ok {
			status = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if status != tc.status || stderr.String() != msg {
			t.Errorf("%q: status %d, stderr %q; want %d, %q", tc.args, status, stderr.String(), tc.status, msg)
		}
	}
}

// TestTestCommand runs `dpclsh test` on a file with one passing and one failing test.
func TestTestCommand(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mixed_test.lua")
	src := "function TestPasses(t)\n  t:eq({1, {2}}, {1, {2}})\nend\n\nfunction TestFails(t)\n  t:eq(1 + 1, 3, \"sum\")\nend\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "test", file)
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("err = %v, want exit status 1\n%s", err, out)
	}
	want := "FAIL TestFails: " + file + ":6: sum: got 2, want 3\n1 passed, 1 failed\n"
	if string(out) != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}

// TestSIGINTInterruptsBatchChunk: Ctrl-C (SIGINT) stops a running script, pcall or not,
// and the shell exits 1 reporting where it was.
func TestSIGINTInterruptsBatchChunk(t *testing.T) {
	cmd := exec.Command(binary, "-e", "print('started') while true do pcall(function() while true do end end) end")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, len("started\n"))
	if _, err := io.ReadFull(stdout, buf); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("err = %v, want exit status 1", err)
	}
	if !strings.Contains(stderr.String(), "-e:1: interrupted") {
		t.Errorf("stderr %q lacks the interrupt and its place", stderr.String())
	}
}
