package main

import (
	"os"
	"path/filepath"
	"strings"
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
