package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY returns the controller and terminal ends of a new pseudo-terminal, or skips
// the test when the system has none to give.
func openPTY(t *testing.T) (ptmx, tty *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		ptmx.Close()
		t.Skipf("no pseudo-terminal: unlock: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		ptmx.Close()
		t.Skipf("no pseudo-terminal: number: %v", err)
	}
	tty, err = os.OpenFile("/dev/pts/"+itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		ptmx.Close()
		t.Skipf("no pseudo-terminal: %v", err)
	}
	ws := &unix.Winsize{Row: 40, Col: 120}
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, ws); err != nil {
		t.Fatalf("setting the terminal size: %v", err)
	}
	return ptmx, tty
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// terminal drives a process on a pseudo-terminal and collects what it writes.
type terminal struct {
	t    *testing.T
	ptmx *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	seen int // output before this offset has been matched already
}

func (term *terminal) collect() {
	buf := make([]byte, 4096)
	for {
		n, err := term.ptmx.Read(buf)
		term.mu.Lock()
		term.out.Write(buf[:n])
		term.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (term *terminal) send(s string) {
	term.t.Helper()
	if _, err := term.ptmx.WriteString(s); err != nil {
		term.t.Fatalf("writing to the terminal: %v", err)
	}
}

// expect waits until want appears in the output after what was matched before.
func (term *terminal) expect(want string) {
	term.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		term.mu.Lock()
		rest := term.out.String()[term.seen:]
		term.mu.Unlock()
		if i := strings.Index(rest, want); i >= 0 {
			term.seen += i + len(want)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	term.mu.Lock()
	defer term.mu.Unlock()
	term.t.Fatalf("terminal output lacks %q; after the last match it is:\n%q", want, term.out.String()[term.seen:])
}

// startREPL runs the binary on a new pseudo-terminal with its history in histFile.
func startREPL(t *testing.T, histFile string) (*terminal, *exec.Cmd) {
	t.Helper()
	ptmx, tty := openPTY(t)
	t.Cleanup(func() { ptmx.Close() })
	cmd := exec.Command(binary)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.Env = append(os.Environ(), "DPCLSH_HISTORY="+histFile, "TERM=xterm")
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

// waitExit waits for the shell to end and returns its exit status. The limit only guards
// against a hang, so it is generous enough for a loaded machine.
func waitExit(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(90 * time.Second):
		t.Fatal("dpclsh did not exit")
	}
	return -1
}

// TestREPLOnTerminal types at the shell on a pseudo-terminal: completion, a multi-line
// chunk and its single history entry, Ctrl-C while a chunk runs, Ctrl-D.
func TestREPLOnTerminal(t *testing.T) {
	histFile := filepath.Join(t.TempDir(), "history")
	term, cmd := startREPL(t, histFile)

	term.expect("> ")
	term.send("string.fo\t")
	term.expect("string.format")
	term.send(`("%d", 42)` + "\r")
	term.expect(`"42"`)

	term.send("for i = 1, 3 do\r")
	term.expect(">> ")
	term.send("print(i * 10)\r")
	term.expect(">> ")
	term.send("end\r")
	term.expect("10\r\n20\r\n30\r\n")
	term.expect("> ")
	term.send("\x1b[A") // up: the whole loop comes back as one entry
	term.expect("end")
	term.send("\r")
	term.expect("10\r\n20\r\n30\r\n")

	term.send("pcall(function() print('loop' .. 'ing') while true do end end)\r")
	term.expect("looping") // the chunk runs: the terminal is out of raw mode
	term.send("\x03")
	term.expect("interrupted")
	term.expect("> ")
	term.send("return 6 * 7\r")
	term.expect("42")

	term.send("half a line\x03") // Ctrl-C at the prompt clears the line
	term.expect("^C")
	term.send("for i = 1, 2 do\r")
	term.expect(">> ")
	term.send("\x03") // and drops a pending multi-line chunk
	term.expect("^C")
	term.send("return 'clean'\r")
	term.expect(`"clean"`)
	term.send("\x04")

	if status := waitExit(t, cmd); status != 0 {
		t.Errorf("status after Ctrl-D: %d", status)
	}

	data, err := os.ReadFile(histFile)
	if err != nil {
		t.Fatal(err)
	}
	loop := `for i = 1, 3 do\nprint(i * 10)\nend`
	want := `string.format("%d", 42)` + "\n" + loop + "\n" + loop + "\n" +
		"pcall(function() print('loop' .. 'ing') while true do end end)\nreturn 6 * 7\nreturn 'clean'\n"
	if string(data) != want {
		t.Errorf("history file:\n%s\nwant:\n%s", data, want)
	}
}

// TestREPLExitKeepsHistory ends the shell with os.exit: its status is the process's, and
// the history written so far (including the os.exit line) is on disk.
func TestREPLExitKeepsHistory(t *testing.T) {
	histFile := filepath.Join(t.TempDir(), "history")
	if err := os.WriteFile(histFile, []byte("old = 1\\nprint(old)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	term, cmd := startREPL(t, histFile)
	term.expect("> ")
	term.send("\x1b[A") // the reloaded entry comes back whole
	term.expect("print(old)")
	term.send("\r")
	term.expect("1\r\n")
	term.send("os.exit(3)\r")
	if status := waitExit(t, cmd); status != 3 {
		t.Errorf("status %d, want 3", status)
	}
	data, err := os.ReadFile(histFile)
	if err != nil {
		t.Fatal(err)
	}
	want := "old = 1\\nprint(old)\nold = 1\\nprint(old)\nos.exit(3)\n"
	if string(data) != want {
		t.Errorf("history %q, want %q", data, want)
	}
}
