package shard

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// testWorkerEnv makes the test binary play a shard's worker (TestMain): "kill" reports
// its shard and holding and dies by SIGKILL, "exit" exits 5 after writing to the PMI
// descriptor it was passed, "orphan" watches its lifeline, prints "ready PID" on stdout
// and waits to be ended. testSupervisorEnv makes it the supervisor of such a worker.
const (
	testWorkerEnv     = "DPCL_SHARD_TEST_WORKER"
	testSupervisorEnv = "DPCL_SHARD_TEST_SUPERVISOR"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(testWorkerEnv); mode != "" {
		playWorker(mode)
	}
	if mode := os.Getenv(testSupervisorEnv); mode != "" {
		env := append(os.Environ(), testWorkerEnv+"="+mode)
		os.Exit(supervise([]string{os.Args[0]}, env, os.Stderr))
	}
	status := m.Run()
	if exchangeCheck.dir != "" {
		os.RemoveAll(exchangeCheck.dir)
	}
	os.Exit(status)
}

func playWorker(mode string) {
	report, lifeline, ok := workerPipes()
	if !ok || report == nil || lifeline == nil {
		fmt.Fprintln(os.Stderr, "worker: no report pipe or lifeline")
		os.Exit(3)
	}
	report.WriteString(reportLine("shard", "3 8"))
	report.WriteString(reportLine("hold", "psets 6-7\n(ranks 384-511)"))
	switch mode {
	case "kill":
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	case "orphan":
		who := func() string { return describe(3, 8, "psets 6-7 (ranks 384-511)") }
		watchSupervisor(lifeline, os.Getppid(), who, os.Stderr)
		fmt.Printf("ready %d\n", os.Getpid())
		time.Sleep(time.Hour)
	case "exit":
		var fd int
		fmt.Sscan(os.Getenv("PMI_FD"), &fd)
		os.NewFile(uintptr(fd), "pmi").WriteString("pmi reached the worker\n")
		os.Exit(5)
	}
	os.Exit(4)
}

func TestSupervisorNamesTheShardWhoseWorkerWasKilled(t *testing.T) {
	var stderr bytes.Buffer
	env := append(os.Environ(), testWorkerEnv+"=kill", "PMI_RANK=1", "PMI_SIZE=2")
	status := supervise([]string{os.Args[0]}, env, &stderr)
	if status != 128+9 {
		t.Errorf("status %d, want %d", status, 128+9)
	}
	want := "dpclsh: shard 3 of 8 (holding psets 6-7 (ranks 384-511)) died: killed by signal 9 (killed); ending the run\n"
	if stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
}

func TestSupervisorPassesStatusAndPMIDescriptor(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var stderr bytes.Buffer
	env := append(os.Environ(), testWorkerEnv+"=exit", fmt.Sprintf("PMI_FD=%d", w.Fd()))
	status := supervise([]string{os.Args[0]}, env, &stderr)
	w.Close()
	if status != 5 || stderr.Len() != 0 {
		t.Errorf("status %d, stderr %q: want the worker's 5 and nothing said", status, stderr.String())
	}
	got := make([]byte, 64)
	n, _ := r.Read(got)
	if !strings.Contains(string(got[:n]), "pmi reached the worker") {
		t.Errorf("the PMI descriptor carried %q", got[:n])
	}
}

func TestWorkerNamesItsShardWhenItsSupervisorIsKilled(t *testing.T) {
	stdout, err := os.CreateTemp(t.TempDir(), "stdout")
	if err != nil {
		t.Fatal(err)
	}
	er, ew, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer er.Close()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), testSupervisorEnv+"=orphan")
	cmd.Stdout, cmd.Stderr = stdout, ew
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ew.Close()
	worker := waitReady(t, stdout.Name())
	if worker == 0 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("the worker never said it was ready")
	}
	cmd.Process.Kill()
	cmd.Wait()
	said := make(chan string, 1)
	go func() { b, _ := io.ReadAll(er); said <- string(b) }() // until the worker is gone too
	select {
	case got := <-said:
		want := fmt.Sprintf("dpclsh: shard 3 of 8 (holding psets 6-7 (ranks 384-511)) died: its supervisor (pid %d) was killed; ending the run\n", cmd.Process.Pid)
		if got != want {
			t.Errorf("stderr %q, want %q", got, want)
		}
	case <-time.After(10 * time.Second):
		syscall.Kill(worker, syscall.SIGKILL)
		t.Fatal("the worker ran on for 10 s after its supervisor was killed")
	}
}

// waitReady returns the pid in the "ready PID" line the worker writes to path, 0 when
// none comes within 10 s.
func waitReady(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var pid int
		if _, err := fmt.Sscanf(string(b), "ready %d\n", &pid); err == nil {
			return pid
		}
	}
	return 0
}
