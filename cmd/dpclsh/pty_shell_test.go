package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

const jacobiELF = "../../examples/apps/bin/jacobi.elf"

// startOnTerminal runs the binary with args on a new pseudo-terminal.
func startOnTerminal(t *testing.T, args ...string) (*terminal, *exec.Cmd) {
	t.Helper()
	ptmx, tty := openPTY(t)
	t.Cleanup(func() { ptmx.Close() })
	cmd := exec.Command(binary, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.Env = append(os.Environ(), "DPCLSH_HISTORY="+filepath.Join(t.TempDir(), "history"), "TERM=xterm")
	cmd.SysProcAttr = &unix.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	t.Cleanup(func() { cmd.Process.Kill() })
	term := &terminal{t: t, ptmx: ptmx}
	go term.collect()
	return term, cmd
}

// TestProgressOnTerminalOnly runs the same long job on a terminal, where progress lines
// appear on stderr, and into pipes, where the output has none of them.
func TestProgressOnTerminalOnly(t *testing.T) {
	args := []string{"exec", "--nodes", "256", "--per-io", "8", jacobiELF, "64", "300"}
	term, cmd := startOnTerminal(t, args...)
	term.expect("ranks ended")
	term.expect("instr/s")
	term.expect("virtual ")
	if status := waitExit(t, cmd); status != 0 {
		t.Fatalf("status %d", status)
	}
	term.expect("final:")

	var stdout, stderr bytes.Buffer
	pipe := exec.Command(binary, args...)
	pipe.Stdout, pipe.Stderr = &stdout, &stderr
	if err := pipe.Run(); err != nil {
		t.Fatal(err)
	}
	if stderr.Len() != 0 || strings.Contains(stdout.String(), "\x1b") || !strings.Contains(stdout.String(), "final:") {
		t.Errorf("in a pipe: stderr %q, stdout %q", stderr.String(), stdout.String())
	}

	// The Lua host: dpcl.launch and app:wait on a terminal.
	term, cmd = startOnTerminal(t, "-e", `app = dpcl.launch("`+jacobiELF+`", {nodes = 256, per_io = 8, args = {"64", "300"}})
app:start() app:wait()`)
	term.expect("wait [")
	term.expect("ranks ended")
	if status := waitExit(t, cmd); status != 0 {
		t.Fatalf("status %d", status)
	}
}

// TestREPLJobOutputAbovePrompt: a running job's output appears above the prompt, and the
// prompt comes back with the half-typed line intact.
func TestREPLJobOutputAbovePrompt(t *testing.T) {
	term, cmd := startOnTerminal(t)
	term.expect("help() for help")
	term.expect("> ")
	term.send(`app = dpcl.launch("` + jacobiELF + `", {nodes = 64, per_io = 8, args = {"32", "400"}})` + "\r")
	term.expect("> ")
	term.send("app:start()\r")
	term.expect("> ")
	term.send("x = 1 +")
	term.expect("x = 1 +")
	term.expect("iter 200:") // the job runs while the shell waits for the line
	term.expect("final:")
	term.expect("> x = 1 +") // the prompt and the typed text are redrawn below it
	term.send(" 2\r")
	term.send("return x\r")
	term.expect("3\r\n")
	term.send("\x04")
	if status := waitExit(t, cmd); status != 0 {
		t.Errorf("status %d", status)
	}
}

// TestREPLCompletionMenuCtrlC: Ctrl-C with the completion menu open clears the line, and
// the program's names complete inside app:points' string argument.
func TestREPLCompletionMenuCtrlC(t *testing.T) {
	term, cmd := startOnTerminal(t)
	term.expect("> ")
	term.send("string.\t\t") // two Tabs: the menu of string's functions, then select mode
	term.expect("format")
	term.send("\x03")
	term.expect("^C")
	term.send("return 'after'\r")
	term.expect(`"after"`)

	term.send(`app = dpcl.launch("../../examples/apps/bin/ring.elf", {nodes = 8, per_io = 8, quiet = true})` + "\r")
	term.expect("> ")
	term.send(`pts = app:points("MPI_A` + "\t")
	term.expect("MPI_Allreduce")
	term.send("\x03")
	term.send(`pts = app:points("MPI_Allr` + "\t")
	term.expect("educe")
	term.send(`")` + "\r")
	term.send("return #pts, tostring(pts[1])\r")
	term.expect("1\t")
	term.expect("MPI_Allreduce")
	term.send("\x04")
	if status := waitExit(t, cmd); status != 0 {
		t.Errorf("status %d", status)
	}
}

// TestProgressFlags: --progress forces the line into a pipe; --quiet keeps a terminal
// free of it.
func TestProgressFlags(t *testing.T) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(binary, "exec", "--progress", "--nodes", "256", "--per-io", "8", jacobiELF, "64", "300")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "ranks ended") {
		t.Errorf("--progress in a pipe: stderr %q", stderr.String())
	}

	term, proc := startOnTerminal(t, "exec", "--quiet", "--nodes", "256", "--per-io", "8", jacobiELF, "64", "300")
	if status := waitExit(t, proc); status != 0 {
		t.Fatalf("status %d", status)
	}
	term.expect("final:")
	term.mu.Lock()
	defer term.mu.Unlock()
	if strings.Contains(term.out.String(), "ranks ended") {
		t.Errorf("--quiet on a terminal shows progress:\n%q", term.out.String())
	}
}

// TestREPLCtrlCInWaitSummarizesProbes: Ctrl-C in app:wait says where each probe stands
// (sent, delivered, in the tree, unread), so a stopped wait does not look like a probe
// that sent nothing.
func TestREPLCtrlCInWaitSummarizesProbes(t *testing.T) {
	term, cmd := startOnTerminal(t)
	term.expect("> ")
	term.send(`app = dpcl.launch("` + jacobiELF + `", {nodes = 64, per_io = 8, args = {"32", "100000"}})` + "\r")
	term.expect("> ")
	term.send(`h = app:install(app:points("MPI_Allreduce", "entry"), probe.send(1), {filter = "sum", print = false}) h:activate()` + "\r")
	term.expect("> ")
	term.send("app:start() app:wait()\r")
	term.expect("wait [")
	term.expect("64 running") // the job computes; the probe's waves queue unread
	term.send("\x03")
	term.expect("app:wait stopped at virtual ")
	term.expect("probe 1 (active): ")
	term.expect(" unread")
	term.expect("> ")
	term.send("\x04")
	if status := waitExit(t, cmd); status != 0 {
		t.Errorf("status %d", status)
	}
}
