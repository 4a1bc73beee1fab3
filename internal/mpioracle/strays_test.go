package mpioracle

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// TestKillStraysEndsOnlyItsRun starts two sleeps in sessions of their own, as ranks a
// launcher left behind would be, one tagged with a run's tag and one with another's: only
// the first is ended.
func TestKillStraysEndsOnlyItsRun(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("killStrays reads /proc")
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	mine, other := newRunTag(), newRunTag()
	start := func(tag string) (*exec.Cmd, chan error) {
		c := exec.Command(sleep, "60")
		c.Env = append(os.Environ(), runTagName+"="+tag)
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Process.Kill() })
		waited := make(chan error, 1)
		go func() { waited <- c.Wait() }()
		return c, waited
	}
	stray, strayDone := start(mine)
	kept, keptDone := start(other)
	if got := killStrays(mine); len(got) != 1 || got[0] != stray.Process.Pid {
		t.Fatalf("killStrays killed %v, want [%d]", got, stray.Process.Pid)
	}
	select {
	case <-strayDone:
	case <-time.After(5 * time.Second):
		t.Fatal("the stray still runs")
	}
	select {
	case <-keptDone:
		t.Errorf("the other run's process %d was ended", kept.Process.Pid)
	case <-time.After(100 * time.Millisecond):
	}
}
