package mpioracle

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// TestKillStraysEndsADetachedProcess starts a copy of sleep in a session of its own, as
// a rank left behind by its launcher would be, and sees killStrays end it and nothing
// else.
func TestKillStraysEndsADetachedProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("killStrays reads /proc")
	}
	src, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "stray")
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	other := exec.Command(src, "60")
	stray := exec.Command(bin, "60")
	stray.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	for _, c := range []*exec.Cmd{other, stray} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		defer c.Process.Kill()
	}
	waited := make(chan error, 1)
	go func() { waited <- stray.Wait() }()
	deadline := time.Now().Add(5 * time.Second)
	for len(processesOf(bin)) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // until exec has replaced the forked child
	}
	if got := killStrays(bin); len(got) != 1 || got[0] != stray.Process.Pid {
		t.Fatalf("killStrays killed %v, want [%d]", got, stray.Process.Pid)
	}
	select {
	case <-waited:
	case <-time.After(5 * time.Second):
		t.Fatal("the stray still runs")
	}
	if err := other.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("another program's process was ended: %v", err)
	}
}
