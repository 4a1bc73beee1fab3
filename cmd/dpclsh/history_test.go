package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestHistoryRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	entries := []string{"print(1)", "for i = 1, 2 do\n  print(i)\nend", `s = "a\\nb"`, `x = "\\"`, "tab\there"}
	for _, e := range entries {
		if err := appendHistory(path, e); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(path)
	if n := strings.Count(string(data), "\n"); n != len(entries) {
		t.Errorf("history file has %d lines for %d entries:\n%s", n, len(entries), data)
	}
	got, err := loadHistory(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "\x00") != strings.Join(entries, "\x00") {
		t.Errorf("reloaded %q, want %q", got, entries)
	}
}

func TestHistoryIsTrimmedToTheLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	var all []string
	for i := range historyLimit + 10 {
		all = append(all, "x = "+itoa(i))
	}
	if err := writeHistory(path, all); err != nil {
		t.Fatal(err)
	}
	got, err := loadHistory(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != historyLimit || got[0] != "x = 10" {
		t.Fatalf("kept %d entries starting %q", len(got), got[0])
	}
	again, _ := loadHistory(path)
	if len(again) != historyLimit {
		t.Errorf("the file was not rewritten: %d entries", len(again))
	}
}

func TestMissingHistoryIsEmpty(t *testing.T) {
	got, err := loadHistory(filepath.Join(t.TempDir(), "none"))
	if err != nil || len(got) != 0 {
		t.Errorf("got %q, %v", got, err)
	}
}

func FuzzHistoryEscape(f *testing.F) {
	for _, s := range []string{"", "a\nb", `\n`, `\\n`, "\\", "x\\\ny"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		esc := historyEscaper.Replace(s)
		if strings.Contains(esc, "\n") {
			t.Fatalf("escaped %q still holds a newline: %q", s, esc)
		}
		if back := historyUnescaper.Replace(esc); back != s {
			t.Fatalf("round trip of %q gave %q", s, back)
		}
	})
}

// historyFsizeChild names the history file a child test process loads under a lowered
// file size limit (TestHistoryRewriteFailureKeepsTheHistory).
const historyFsizeChild = "DPCLSH_TEST_HISTORY_FSIZE_CHILD"

// TestHistoryRewriteFailureKeepsTheHistory: the rewrite of a history over the limit
// fails half-way (a file size limit, which root cannot pass either): the error names
// the file and the old history is still whole, with no temporary file beside it. The
// limit is lowered in a child process: it holds for every thread of a process, and the
// test binary's own log of opened files, written meanwhile by the other tests, failed
// under it ("testlog.txt: file too large").
func TestHistoryRewriteFailureKeepsTheHistory(t *testing.T) {
	if path := os.Getenv(historyFsizeChild); path != "" {
		var lim syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			fmt.Println("getrlimit:", err)
			os.Exit(1)
		}
		// Go ignores SIGXFSZ, so a write past the limit fails with EFBIG.
		lim.Cur = 64
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			fmt.Println("skip: cannot lower the file size limit:", err)
			os.Exit(0)
		}
		_, err := loadHistory(path)
		fmt.Printf("error: %v\n", err)
		os.Exit(0)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "history")
	var b strings.Builder
	for i := range historyLimit + 10 {
		b.WriteString("x = " + itoa(i) + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHistoryRewriteFailureKeepsTheHistory$")
	cmd.Env = append(os.Environ(), historyFsizeChild+"="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if strings.HasPrefix(string(out), "skip: ") {
		t.Skip(strings.TrimSpace(string(out)))
	}
	if want := "error: dpclsh: cannot write " + path + ": file too large\n"; !strings.HasPrefix(string(out), want) {
		t.Errorf("child said %q, want %q", out, want)
	}
	if data, _ := os.ReadFile(path); string(data) != b.String() {
		t.Errorf("the history became %d bytes; it was %d", len(data), b.Len())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d files beside the history", len(ents)-1)
	}
}

// TestHistoryAppendFailureIsReported: an entry that cannot be saved says which file.
func TestHistoryAppendFailureIsReported(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "history")
	err := appendHistory(path, "print(1)")
	if want := "dpclsh: cannot write " + path + ": no such file or directory"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}
