package main

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/dpclsh/dpclsh/script/fileout"
)

// historyLimit is how many entries the history file keeps.
const historyLimit = 1000

// historyPath is $DPCLSH_HISTORY, else ~/.dpclsh_history; "" when neither can be had.
func historyPath() string {
	if p := os.Getenv("DPCLSH_HISTORY"); p != "" {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".dpclsh_history")
}

// The history file holds one entry per line. A chunk typed over several lines is one
// entry: its newlines are written as \n and backslashes as \\, so it reloads whole.
var (
	historyEscaper   = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	historyUnescaper = strings.NewReplacer(`\\`, `\`, `\n`, "\n")
)

// loadHistory reads the entries of the history file, oldest first; a missing file is an
// empty history. A file over the limit is rewritten with its newest entries.
func loadHistory(path string) ([]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("dpclsh: reading history: %w", err)
	}
	defer f.Close()
	var entries []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		if line := sc.Text(); line != "" {
			entries = append(entries, historyUnescaper.Replace(line))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("dpclsh: reading history %s: %w", path, err)
	}
	if len(entries) > historyLimit {
		entries = entries[len(entries)-historyLimit:]
		if err := writeHistory(path, entries); err != nil {
			return entries, err
		}
	}
	return entries, nil
}

// writeHistory replaces the history file whole (a failed rewrite keeps the old one); a
// new history file is private, as a shell's is.
func writeHistory(path string, entries []string) error {
	var b strings.Builder
	for _, e := range entries {
		b.WriteString(historyEscaper.Replace(e) + "\n")
	}
	if err := fileout.Write(path, []byte(b.String()), fileout.Private); err != nil {
		return fmt.Errorf("dpclsh: %w", err)
	}
	return nil
}

// appendHistory adds one entry at once, so the history survives os.exit and crashes.
// Appending cannot lose the entries already there, so it writes in place.
func appendHistory(path, entry string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, fileout.Private)
	if err == nil {
		_, err = f.WriteString(historyEscaper.Replace(entry) + "\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("dpclsh: %w", &fileout.Error{Path: path, Err: err})
	}
	return nil
}
