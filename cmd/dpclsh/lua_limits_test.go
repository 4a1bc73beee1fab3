package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// addressLimitKiB is the address space the memory tests give dpclsh (ulimit -v): 4 GiB,
// a fifteenth of what the scripts ask for.
const addressLimitKiB = 4 << 20

// runCapped runs the binary with args under the address-space limit, stdin from the file
// stdin (or none), and returns its status and output. A process Go kills for want of
// memory says "fatal error: out of memory" and exits 2; one the kernel kills has no
// status.
func runCapped(t *testing.T, stdin string, args ...string) (int, string) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Fatal("no sh to set ulimit -v with")
	}
	script := "ulimit -v " + itoa(addressLimitKiB) + " && exec \"$0\" \"$@\""
	// The limit only guards against a hang (a filter that never returns used to keep the
	// job from ending), so it is generous enough for a loaded machine.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", append([]string{"-c", script, binary}, args...)...)
	cmd.Dir = "../.."
	if stdin != "" {
		f, err := os.Open(stdin)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	status := cmd.ProcessState.ExitCode()
	if err != nil && status < 0 {
		t.Fatalf("dpclsh was killed (%v):\n%s", err, out.String())
	}
	if strings.Contains(out.String(), "fatal error") {
		t.Fatalf("dpclsh died:\n%s", out.String())
	}
	return status, out.String()
}

// TestFiltersFailTheirProbeOnly: under a 4 GiB address-space limit, a filter that asks
// for 60 GiB fails its probe with the memory budget's error, a filter whose pattern
// backtracks without end fails its probe with the instruction budget's, and the job and
// the other probe run to their end.
func TestFiltersFailTheirProbeOnly(t *testing.T) {
	dir, err := filepath.Abs("testdata/lualimits")
	if err != nil {
		t.Fatal(err)
	}
	status, out := runCapped(t, "", filepath.Join(dir, "job.lua"), dir)
	for _, want := range []string{
		"hog: failed: " + dir + "/hog_filter.lua:7: memory budget exceeded: string concatenation of 60 MiB would take what the script holds past 64 MiB",
		"backtrack: failed: " + dir + "/backtrack_filter.lua:6: budget exceeded: more than 20000000 Lua instructions in one call",
		"counted 128 calls; job: 16 exited, 0 faulted",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if status != 0 {
		t.Errorf("status %d:\n%s", status, out)
	}
}

// TestREPLChunkFailsMemoryBudget: the same allocation typed at the shell (stdin read in
// batch) fails that chunk only, under the session's default budget, which the address
// limit brings down to 1 GiB; the following chunks run, and can allocate again once the
// table is dropped.
func TestREPLChunkFailsMemoryBudget(t *testing.T) {
	status, out := runCapped(t, "testdata/lualimits/repl.lua")
	want := "stdin:2: memory budget exceeded: string concatenation of 60 MiB would take what the script holds past 1 GiB\n" +
		"    2 | for i = 1, 1000 do t[i] = string.rep(\"x\", 60 * 2^20) .. i end\n" +
		"the session goes on\ttrue\n1048576\n"
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	if status != 1 {
		t.Errorf("status %d, want 1 (a chunk failed)", status)
	}
	// --lua-memory sets the budget: 256 MiB holds four of the strings.
	status, out = runCapped(t, "", "--lua-memory", "256", "-e",
		`t = {} local ok, err = pcall(function() for i = 1, 1000 do t[i] = ("x"):rep(60 * 2^20) .. i end end) print(#t, ok, err)`)
	if !strings.Contains(out, "-e:1: memory budget exceeded: string concatenation of 60 MiB would take what the script holds past 256 MiB") || status != 1 {
		t.Errorf("with --lua-memory 256: status %d, output:\n%s", status, out)
	}
}

// TestPatternMatchAnswersCtrlC: a pattern that backtracks without end, run by -e and at
// the prompt, stops at Ctrl-C within a second (it used to need SIGKILL); the shell goes on.
func TestPatternMatchAnswersCtrlC(t *testing.T) {
	const find = `print(string.find(string.rep("a",30), string.rep("a*",30).."c"))`
	interrupt := func(term *terminal) time.Duration {
		time.Sleep(200 * time.Millisecond) // well inside the match
		start := time.Now()
		term.send("\x03")
		term.expect("interrupted")
		return time.Since(start)
	}
	term, cmd := startOnTerminal(t, "-e", `print("matching")`, "-e", find)
	term.expect("matching")
	if d := interrupt(term); d > time.Second {
		t.Errorf("-e: Ctrl-C answered after %v", d)
	}
	if status := waitExit(t, cmd); status != 1 {
		t.Errorf("-e: status %d, want 1", status)
	}

	term, cmd = startOnTerminal(t)
	term.expect("> ")
	term.send(`print("matching") ` + find + "\r")
	term.expect("matching")
	if d := interrupt(term); d > time.Second {
		t.Errorf("REPL: Ctrl-C answered after %v", d)
	}
	term.expect("> ")
	term.send("return ('ab'):find('b')\r")
	term.expect("2\t2")
	term.send("\x04")
	if status := waitExit(t, cmd); status != 0 {
		t.Errorf("REPL: status %d after Ctrl-D", status)
	}
}

// TestYieldInsideProtectedCalls: coroutine.yield inside pcall and xpcall inside a
// coroutine reaches the resumer and the protected call completes on the next resume, as
// in Lua 5.2, whether the code runs as a script, by -e or typed at the shell.
func TestYieldInsideProtectedCalls(t *testing.T) {
	const file = "testdata/lualimits/coroutines.lua"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/lualimits/coroutines.out")
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []struct {
		name  string
		args  []string
		stdin bool
	}{
		{"script", []string{file}, false},
		{"-e", []string{"-e", string(src)}, false},
		{"shell", nil, true},
	} {
		cmd := exec.Command(binary, mode.args...)
		if mode.stdin {
			cmd.Stdin = bytes.NewReader(src)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || string(out) != string(want) || stderr.Len() != 0 {
			t.Errorf("%s: %v\n%s%s\nwant:\n%s", mode.name, err, out, stderr.String(), want)
		}
	}
}
