package mpioracle

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// ExpectKind says how a program must end.
type ExpectKind int

// How a program ends.
const (
	ExpectExit     ExpectKind = iota // every rank finishes; the job's status is Code
	ExpectSignal                     // a rank is killed by signal Code
	ExpectDeadlock                   // every rank blocks for good
)

// Expect is the manifest's expect column.
type Expect struct {
	Kind ExpectKind
	Code int
}

// String gives the manifest spelling.
func (e Expect) String() string {
	switch e.Kind {
	case ExpectSignal:
		return "signal:" + strconv.Itoa(e.Code)
	case ExpectDeadlock:
		return "deadlock"
	}
	return "exit:" + strconv.Itoa(e.Code)
}

// NativeStatus is the status mpiexec reports for the expected end: the exit status, or
// for a rank killed by signal S, S itself (Hydra's convention). A deadlock has none.
func (e Expect) NativeStatus() (int, bool) {
	return e.Code, e.Kind != ExpectDeadlock
}

// Entry is one line of a MANIFEST: a program and how to run it.
type Entry struct {
	Name   string
	Ranks  []int
	Args   []string
	Expect Expect
	Native bool // run by the native differential
	Line   int  // line number in the manifest, for messages
}

// ManifestError names the manifest line that could not be parsed.
type ManifestError struct {
	File string
	Line int
	Err  error
}

func (e *ManifestError) Error() string {
	return fmt.Sprintf("mpioracle: %s:%d: %v", e.File, e.Line, e.Err)
}

func (e *ManifestError) Unwrap() error { return e.Err }

// LoadManifest reads and parses the manifest at path.
func LoadManifest(path string) ([]Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("mpioracle: open manifest: %w", err)
	}
	defer f.Close()
	return ParseManifest(f, path)
}

// ParseManifest parses manifest text; file names it in errors. Blank lines and lines
// starting with # are skipped. A program may have several lines (say, smaller arguments
// for its largest size), but each job size at most once.
func ParseManifest(r io.Reader, file string) ([]Entry, error) {
	var entries []Entry
	seen := map[string]int{} // "name/size" -> line
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		e, err := parseEntry(line)
		for _, size := range e.Ranks {
			key := e.Name + "/" + strconv.Itoa(size)
			if err == nil && seen[key] != 0 {
				err = fmt.Errorf("program %q on %d ranks already listed on line %d", e.Name, size, seen[key])
			}
			seen[key] = n
		}
		if err != nil {
			return nil, &ManifestError{File: file, Line: n, Err: err}
		}
		e.Line = n
		entries = append(entries, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("mpioracle: read %s: %w", file, err)
	}
	return entries, nil
}

func parseEntry(line string) (Entry, error) {
	f := strings.Fields(line)
	if len(f) != 5 {
		return Entry{}, fmt.Errorf("want 5 columns (name ranks args expect native), got %d", len(f))
	}
	e := Entry{Name: f[0]}
	if !validName(e.Name) {
		return e, fmt.Errorf("program name %q: want letters, digits and _", e.Name)
	}
	var err error
	if e.Ranks, err = parseRanks(f[1]); err != nil {
		return e, err
	}
	if f[2] != "-" {
		e.Args = strings.Split(f[2], ",")
	}
	if e.Expect, err = parseExpect(f[3]); err != nil {
		return e, err
	}
	switch f[4] {
	case "run":
		e.Native = true
	case "skip":
	default:
		return e, fmt.Errorf("native column %q: want run or skip", f[4])
	}
	if e.Native && e.Expect.Kind == ExpectDeadlock {
		return e, fmt.Errorf("program %q expects a deadlock but is marked native=run: mpiexec would hang", e.Name)
	}
	return e, nil
}

func validName(s string) bool {
	for _, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

func parseRanks(s string) ([]int, error) {
	var ranks []int
	for _, p := range strings.Split(s, ",") {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("ranks %q: %q is not a job size >= 1", s, p)
		}
		ranks = append(ranks, n)
	}
	return ranks, nil
}

var expectKinds = map[string]ExpectKind{"exit": ExpectExit, "signal": ExpectSignal}

func parseExpect(s string) (Expect, error) {
	if s == "deadlock" {
		return Expect{Kind: ExpectDeadlock}, nil
	}
	kind, code, ok := strings.Cut(s, ":")
	k, known := expectKinds[kind]
	n, err := strconv.Atoi(code)
	if !ok || !known || err != nil || n < 0 || n > 255 {
		return Expect{}, fmt.Errorf("expect %q: want exit:N, signal:N (0..255) or deadlock", s)
	}
	return Expect{Kind: k, Code: n}, nil
}
