package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// attachJob is a short job (a fraction of a second translated): the job waits for its
// tool (--wait-for-tool), so that it cannot end before the tool comes; its output does
// not depend on timing, so probes cannot change it.
var attachJob = []string{"--nodes", "8", "--per-io", "8", "examples/apps/bin/jacobi.elf", "64", "400"}

// runningJob runs for about a minute translated (100,000 sweeps), far longer than a tool
// takes to start, attach and detach; the test interrupts it once the tool has gone.
var runningJob = []string{"--nodes", "8", "--per-io", "8", "examples/apps/bin/jacobi.elf", "64", "100000"}

// attachTool attaches, counts MPI_Allreduce calls through a probe until 5 messages came,
// then detaches (or, with arg[3] == "stay", keeps polling until it is killed).
const attachTool = `local addr, secret, mode = arg[1], arg[2], arg[3]
local app = dpcl.attach(addr, {secret_file = secret})
print("attached", app.size, app:attached() ~= nil)
local got = 0
local h = app:install(app:points("MPI_Allreduce", "entry"), probe.send(probe.rank()),
  {filter = "sum", callback = function(m) got = got + 1 end})
h:activate()
while got < 5 do dpcl.poll(0.001) end
print("got", got, h:stats().delivered)
io.stdout:flush()
if mode == "stay" then
  while true do dpcl.poll(0.001) end
end
app:detach()
print("detached", h.state)
`

// startListening starts the job with --listen and returns it, its stdout buffer and the
// address it publishes (read from its stderr, which keeps being collected).
func startListening(t *testing.T, ctx context.Context, root, secretFile string, job ...string) (*exec.Cmd, *bytes.Buffer, *syncBuffer, string) {
	t.Helper()
	args := append([]string{"exec", "--listen", "127.0.0.1:0", "--secret-file", secretFile}, job...)
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = root
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stderr := &syncBuffer{done: make(chan struct{})}
	addrc := make(chan string, 1)
	go func() {
		defer close(stderr.done)
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			stderr.WriteString(sc.Text() + "\n")
			if m := regexp.MustCompile(`tools attach at (\S+)`).FindStringSubmatch(sc.Text()); m != nil {
				addrc <- m[1]
			}
		}
	}()
	select {
	case addr := <-addrc:
		return cmd, &stdout, stderr, addr
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the job printed no address; stderr:\n%s", stderr.String())
	}
	return nil, nil, nil, ""
}

// attachFiles gives the repository's root, a temporary directory holding a job's secret
// and the attaching tool's script, and their paths.
func attachFiles(t *testing.T) (root, dir, secret, tool string) {
	t.Helper()
	root, _ = filepath.Abs(filepath.Join("..", ".."))
	dir = t.TempDir()
	secret, tool = filepath.Join(dir, "job.secret"), filepath.Join(dir, "tool.lua")
	writeSecret(t, secret)
	if err := os.WriteFile(tool, []byte(attachTool), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, dir, secret, tool
}

func writeSecret(t *testing.T, path string) {
	t.Helper()
	b := make([]byte, 32)
	rand.Read(b)
	if err := os.WriteFile(path, []byte(hex.EncodeToString(b)), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestAttachToWaitingJob starts a job in one process (dpclsh exec --listen
// --wait-for-tool), attaches from another over loopback, installs a probe, receives its
// data and detaches; the job runs to its end with the output of a run without any tool.
// A tool with a wrong secret is refused first and does not release the job.
func TestAttachToWaitingJob(t *testing.T) {
	root, dir, secret, tool := attachFiles(t)
	wrong := filepath.Join(dir, "wrong.secret")
	writeSecret(t, wrong)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	job, stdout, stderr, addr := startListening(t, ctx, root, secret, append([]string{"--wait-for-tool"}, attachJob...)...)
	refused, err := exec.CommandContext(ctx, binary, tool, addr, wrong).CombinedOutput()
	if err == nil || !strings.Contains(string(refused), "dpcl.attach: attach "+addr+": the job refused the secret") {
		t.Errorf("a wrong secret: %v\n%s", err, refused)
	}
	out, err := exec.CommandContext(ctx, binary, tool, addr, secret).CombinedOutput()
	if err != nil {
		t.Fatalf("tool: %v\n%s", err, out)
	}
	want := regexp.MustCompile(`^attached\t8\ttrue\ngot\t5\t40\ndetached\tremoved\n$`)
	if !want.Match(out) {
		t.Errorf("tool output:\n%s", out)
	}
	<-stderr.done
	if err := job.Wait(); err != nil {
		t.Fatalf("job: %v\n%s", err, stderr.String())
	}
	for _, s := range []string{"the job waits for a tool", "refused a tool", "attached at virtual time 0 ns", "the tool detached at virtual time"} {
		if !strings.Contains(stderr.String(), s) {
			t.Errorf("job's stderr lacks %q:\n%s", s, stderr.String())
		}
	}
	plain := exec.CommandContext(ctx, binary, append([]string{"exec"}, attachJob...)...)
	plain.Dir = root
	want2, err := plain.Output()
	if err != nil {
		t.Fatal(err)
	}
	if stdout.String() != string(want2) {
		t.Errorf("attached run's output differs from a run without the tool:\n%s\n---- want\n%s", stdout, want2)
	}
}

// TestAttachToRunningJob attaches to a job already running (no --wait-for-tool): the
// job takes the tool at the end of one of its 10 us quanta of virtual time, past the
// start, and runs on by itself after the tool detached, until interrupted.
func TestAttachToRunningJob(t *testing.T) {
	root, _, secret, tool := attachFiles(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	job, _, stderr, addr := startListening(t, ctx, root, secret, runningJob...)
	defer job.Process.Kill()
	out, err := exec.CommandContext(ctx, binary, tool, addr, secret).CombinedOutput()
	if err != nil {
		t.Fatalf("tool: %v\n%s", err, out)
	}
	if want := regexp.MustCompile(`^attached\t8\ttrue\ngot\t5\t40\ndetached\tremoved\n$`); !want.Match(out) {
		t.Errorf("tool output:\n%s", out)
	}
	job.Process.Signal(os.Interrupt)
	<-stderr.done
	err = job.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Errorf("the interrupted job: %v, want exit status 130\n%s", err, stderr.String())
	}
	m := regexp.MustCompile(`attached at virtual time (\d+) ns`).FindStringSubmatch(stderr.String())
	if m == nil || m[1] == "0" || !strings.HasSuffix(m[1], "0000") {
		t.Errorf("the attach is not at the end of a quantum past the start:\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "the tool detached at virtual time") {
		t.Errorf("job's stderr:\n%s", stderr.String())
	}
}

// TestAttachedToolKilled kills a tool that attached and installed a probe: the job runs
// on to its end, with its usual output.
func TestAttachedToolKilled(t *testing.T) {
	root, _, secret, tool := attachFiles(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	job, stdout, stderr, addr := startListening(t, ctx, root, secret, append([]string{"--wait-for-tool"}, attachJob...)...)
	tc := exec.CommandContext(ctx, binary, tool, addr, secret, "stay")
	pipe, _ := tc.StdoutPipe()
	if err := tc.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(pipe)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "got") {
	}
	tc.Process.Kill()
	go io.Copy(io.Discard, pipe)
	tc.Wait()
	<-stderr.done
	if err := job.Wait(); err != nil {
		t.Fatalf("job after its tool was killed: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "the tool dropped its connection") {
		t.Errorf("job's stderr:\n%s", stderr.String())
	}
	if !strings.Contains(stdout.String(), "final: u(32,32)") {
		t.Errorf("the job did not finish its work:\n%s", stdout)
	}
}

// syncBuffer collects a process's stderr on one goroutine while the test reads it.
type syncBuffer struct {
	mu   sync.Mutex
	b    strings.Builder
	done chan struct{} // closed at the stream's end
}

func (s *syncBuffer) WriteString(x string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.WriteString(x)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
