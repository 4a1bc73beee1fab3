package probes

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// LineError says why a file:line names no code: the file is unknown (Files lists the
// candidates), ambiguous, or the line has no statement (Before and After are the nearest
// lines of that file that have one, 0 when there is none on that side).
type LineError struct {
	File          string
	Line          int
	Why           string
	Before, After int
	Files         []string
}

// Unprefixed is the error's text without "probes: "; Error adds it.
func (e *LineError) Unprefixed() string {
	var b strings.Builder
	if e.Line == 0 { // a whole file was asked for (app:source)
		fmt.Fprintf(&b, "%s: %s", e.File, e.Why)
	} else {
		fmt.Fprintf(&b, "line %s:%d: %s", e.File, e.Line, e.Why)
	}
	var near []string
	if e.Before > 0 {
		near = append(near, fmt.Sprintf("%s:%d", e.File, e.Before))
	}
	if e.After > 0 {
		near = append(near, fmt.Sprintf("%s:%d", e.File, e.After))
	}
	switch {
	case len(near) > 0:
		fmt.Fprintf(&b, " (nearest lines with code: %s)", strings.Join(near, ", "))
	case len(e.Files) > 0:
		fmt.Fprintf(&b, " (%s)", strings.Join(e.Files, ", "))
	}
	return b.String()
}

func (e *LineError) Error() string { return "probes: " + e.Unprefixed() }

// Package is the name the error's text starts with.
func (e *LineError) Package() string { return "probes" }

// ParseLineSpec splits "file.c:LINE"; ok is false when s does not have that shape.
func ParseLineSpec(s string) (file string, line int, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil || n <= 0 {
		return "", 0, false
	}
	return s[:i], n, true
}

// SourceFiles lists the source files of the DWARF line table, sorted.
func (b *Program) SourceFiles() []string {
	seen := map[string]bool{}
	for _, l := range b.lines {
		if l.Line > 0 {
			seen[l.File] = true
		}
	}
	out := make([]string, 0, len(seen))
	for f := range seen {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// resolveFile maps a file name as a user writes it to the line table's name: equal, or
// a suffix of it after a '/'.
func (b *Program) resolveFile(file string, line int) (string, error) {
	all := b.SourceFiles()
	var hits []string
	for _, f := range all {
		if f == file || strings.HasSuffix(f, "/"+file) || strings.HasSuffix(file, "/"+f) {
			hits = append(hits, f)
		}
	}
	switch {
	case len(hits) == 1:
		return hits[0], nil
	case len(hits) > 1:
		return "", &LineError{File: file, Line: line, Why: "ambiguous source file", Files: hits}
	case len(all) == 0:
		return "", &LineError{File: file, Line: line, Why: "the program has no DWARF line table (build it with -g)"}
	}
	bases := make([]string, len(all))
	for i, f := range all {
		bases[i] = path.Base(f)
	}
	e := &LineError{File: file, Line: line, Why: "no such source file in the line table"}
	if s := Suggest(path.Base(file), bases, 5); len(s) > 0 {
		e.Files = []string{"did you mean " + strings.Join(s, ", ")}
	} else {
		e.Files = []string{"its source files: " + strings.Join(closestFirst(path.Base(file), bases, 8), ", ")}
	}
	return "", e
}

// LinePoints resolves a source line to its points: every place the line's code begins
// (lineStarts) — its statement rows, unrolled and inlined copies included, and each basic
// block of its code entered from elsewhere — so a probe there fires once each time the
// line runs, also when the optimizer moved a loop's test below its body or split the line
// over several blocks. Every address is checked as PointAt checks it. A line without code
// is a *LineError naming the nearest lines with code.
func (b *Program) LinePoints(file string, line int) ([]Point, error) {
	name, err := b.resolveFile(file, line)
	if err != nil {
		return nil, err
	}
	addrs := b.lineStarts(name, line)
	if len(addrs) == 0 {
		before, after := b.nearestLines(name, line)
		return nil, &LineError{File: file, Line: line, Why: "no code at this line", Before: before, After: after}
	}
	out := make([]Point, 0, len(addrs))
	for _, a := range addrs {
		if _, ok := b.FuncAt(a); !ok {
			continue // code of the line outside any function symbol (startup stubs)
		}
		p, err := b.PointAt(a)
		if err != nil {
			return nil, errorf("line %s:%d: %w", file, line, err)
		}
		p.Kind, p.File, p.Line = PointLine, name, line
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, &LineError{File: file, Line: line, Why: "its code lies outside every function symbol"}
	}
	return out, nil
}

// nearestLines returns the closest lines of file before and after line that have a
// statement (0 when none).
func (b *Program) nearestLines(file string, line int) (before, after int) {
	for _, l := range b.lines {
		if l.File != file || !l.Stmt || l.Line == 0 {
			continue
		}
		if l.Line < line && l.Line > before {
			before = l.Line
		}
		if l.Line > line && (after == 0 || l.Line < after) {
			after = l.Line
		}
	}
	return before, after
}

// Lines lists the lines of file that have code (statement starts), sorted.
func (b *Program) Lines(file string) ([]int, error) {
	name, err := b.resolveFile(file, 0)
	if err != nil {
		return nil, err
	}
	seen := map[int]bool{}
	for _, l := range b.lines {
		if l.File == name && l.Stmt && l.Line > 0 {
			seen[l.Line] = true
		}
	}
	out := make([]int, 0, len(seen))
	for l := range seen {
		out = append(out, l)
	}
	slices.Sort(out)
	return out, nil
}

// closestFirst lists up to n of names ordered by edit distance to word (ties
// alphabetically), with "..." and the count left out when there are more.
func closestFirst(word string, names []string, n int) []string {
	out := slices.Clone(names)
	slices.Sort(out)
	out = slices.Compact(out)
	sort.SliceStable(out, func(i, j int) bool { return editDistance(word, out[i]) < editDistance(word, out[j]) })
	if len(out) > n {
		out = append(out[:n], fmt.Sprintf("... %d more", len(out)-n))
	}
	return out
}
