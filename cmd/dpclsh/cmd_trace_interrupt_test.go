package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTraceCtrlCPrintsTheMaps sends SIGINT to a child `dpclsh trace` whose job would run
// for 100 s of virtual time (spin.elf meets in a barrier every 100 µs): it stops the job,
// reads what the ranks hold and prints the maps as at exit, with status 0.
func TestTraceCtrlCPrintsTheMaps(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "trace", "--nodes", "4", "-e",
		`BEGIN { printf("tracing\n") } MPI_Barrier:entry { @[rank] = count(); @s[ustack(2)] = count() } END { printf("end\n") }`,
		"runtime/testdata/bin/spin.elf", "100000000", "mpi")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(pipe)
	if line, err := out.ReadString('\n'); err != nil || line != "tracing\n" {
		cmd.Process.Kill()
		t.Fatalf("first line %q, %v; want BEGIN's", line, err)
	}
	time.Sleep(300 * time.Millisecond) // let the job run a while
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	var rest bytes.Buffer
	done := make(chan error, 1)
	go func() {
		_, err := rest.ReadFrom(out)
		if err == nil {
			err = cmd.Wait()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("dpclsh trace after SIGINT: %v\nstderr:\n%s", err, stderr.String())
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("dpclsh trace still running 60 s after SIGINT\nstdout:\n%s\nstderr:\n%s", rest.String(), stderr.String())
	}
	text := rest.String()
	if !strings.HasPrefix(text, "end\n") {
		t.Errorf("END did not run first:\n%s", text)
	}
	perRank := map[int]int{}
	for _, m := range regexp.MustCompile(`(?m)^@\[(\d)\]: (\d+)$`).FindAllStringSubmatch(text, -1) {
		r, _ := strconv.Atoi(m[1])
		perRank[r], _ = strconv.Atoi(m[2])
	}
	total, lo, hi := 0, 1<<30, 0
	for r := range 4 {
		n, ok := perRank[r]
		if !ok {
			t.Errorf("no count for rank %d:\n%s", r, text)
		}
		total, lo, hi = total+n, min(lo, n), max(hi, n)
	}
	if lo < 1 || hi-lo > 1 {
		t.Errorf("barrier counts per rank %v: every rank passes each barrier, one at most is ahead", perRank)
	}
	stack := regexp.MustCompile(`(?m)^@s\[\n    main\+0x[0-9a-f]+ \(spin\.c:\d+\)\n    .*\n\]: (\d+)$`).FindStringSubmatch(text)
	if stack == nil || stack[1] != strconv.Itoa(total) {
		t.Errorf("@s by stack: want one stack in main holding all %d calls:\n%s", total, text)
	}
	if !regexp.MustCompile(`^dpclsh trace: interrupted at \d+ us of virtual time: the maps as the ranks held them\n$`).MatchString(stderr.String()) {
		t.Errorf("stderr %q", stderr.String())
	}
}
