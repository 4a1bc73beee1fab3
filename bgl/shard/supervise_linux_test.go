package shard

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
)

// testWorkerEnv makes the test binary play a shard's worker (TestMain): "kill" reports
// its shard and holding and dies by SIGKILL, "exit" exits 5 after writing to the PMI
// descriptor it was passed.
const testWorkerEnv = "DPCL_SHARD_TEST_WORKER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(testWorkerEnv); mode != "" {
		playWorker(mode)
	}
	status := m.Run()
	if exchangeCheck.dir != "" {
		os.RemoveAll(exchangeCheck.dir)
	}
	os.Exit(status)
}

func playWorker(mode string) {
	report, ok := workerReport()
	if !ok || report == nil {
		fmt.Fprintln(os.Stderr, "worker: no report pipe")
		os.Exit(3)
	}
	report.WriteString(reportLine("shard", "3 8"))
	report.WriteString(reportLine("hold", "psets 6-7\n(ranks 384-511)"))
	switch mode {
	case "kill":
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
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
