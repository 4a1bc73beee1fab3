package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFrozenCommProcessFromLua: a script's s:recv over a TCP tree must come back when one
// comm process is frozen (SIGSTOP): after liveness_s its subtree counts as lost and the
// wave completes with the rest.
func TestFrozenCommProcessFromLua(t *testing.T) {
	script := filepath.Join(t.TempDir(), "frozen.lua")
	os.WriteFile(script, []byte(`
local net = netreduce.new{topology = "b:2^2", transport = "tcp", liveness_s = 1}
net:on_backend(function(rank, x) return 1 end)
local s = net:stream(net:broadcast(), {up = "sum"})
print("ready")
io.stdout:flush()
io.read("*l")
s:send("%d", 0)
print(s:recv(5), net:lost())
net:close()
`), 0o644)
	cmd := exec.Command(binary, script)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("no ready line: %q", lines.Text())
	}
	kid := commChild(t, cmd.Process.Pid, 4)
	if err := syscall.Kill(kid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(kid, syscall.SIGCONT)
	for i := 0; !stopped(kid); i++ {
		if i == 200 {
			t.Fatalf("comm process %d did not stop", kid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Fprintln(stdin, "go")
	got := make(chan string, 1)
	go func() {
		lines.Scan()
		got <- lines.Text()
	}()
	select {
	case line := <-got:
		if line != "2\t0-1" {
			t.Errorf("wave with comm process 4 frozen: %q, want the sum of back-ends 2 and 3 and 0-1 lost", line)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("s:recv still waiting 20 s after a comm process froze")
	}
}

// stopped reports whether the kernel has stopped pid (state T): a signal takes effect
// when the process next runs.
func stopped(pid int) bool {
	st, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	i := strings.LastIndexByte(string(st), ')')
	return i > 0 && strings.HasPrefix(string(st[i:]), ") T")
}

// commChild finds the comm process for tree rank among pid's children (each thread of a
// Go program lists the children it started).
func commChild(t *testing.T, pid, rank int) int {
	t.Helper()
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	var all []string
	for _, path := range tasks {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		all = append(all, strings.Fields(string(b))...)
	}
	if len(tasks) == 0 {
		t.Skip("cannot list child processes")
	}
	for _, f := range all {
		argv, _ := os.ReadFile("/proc/" + f + "/cmdline")
		if strings.HasSuffix(string(argv), fmt.Sprintf("\x00--rank\x00%d\x00", rank)) {
			var kid int
			fmt.Sscan(f, &kid)
			return kid
		}
	}
	t.Fatalf("no comm process for rank %d among %v", rank, all)
	return 0
}
