package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dpclsh/dpclsh/script"
	lua "github.com/yuin/gopher-lua"
)

// A Lua test file defines global functions named Test*; each is called with a t object
// (t:eq, t:ok, t:fail, t:error). Every file runs in a fresh session, tests in the order
// they are defined.

// testOutcome is the result of one Test function.
type testOutcome struct {
	name     string
	failures []string // "file:line: message", one per failed check
}

// fileOutcome is the result of one test file.
type fileOutcome struct {
	path  string
	tests []testOutcome
	err   error // the file did not load or run; no test was called
}

func (f fileOutcome) counts() (passed, failed int) {
	if f.err != nil {
		return 0, 1
	}
	for _, t := range f.tests {
		if len(t.failures) > 0 {
			failed++
		} else {
			passed++
		}
	}
	return passed, failed
}

// writeFailures prints one line per failed check, naming the file:line.
func (f fileOutcome) writeFailures(w io.Writer, verbose bool) {
	if f.err != nil {
		fmt.Fprintf(w, "FAIL %s: %v\n", f.path, f.err)
		return
	}
	for _, t := range f.tests {
		for _, msg := range t.failures {
			fmt.Fprintf(w, "FAIL %s: %s\n", t.name, msg)
		}
		if verbose && len(t.failures) == 0 {
			fmt.Fprintf(w, "ok   %s (%s)\n", t.name, f.path)
		}
	}
}

// runTestFile runs the tests of one file in a new session whose output goes to out.
func runTestFile(path string, out io.Writer, verbose bool) fileOutcome {
	res := fileOutcome{path: path}
	s, err := newSession(verbose, 0, out, out)
	if err != nil {
		res.err = err
		return res
	}
	defer s.Close()
	if err := s.DoFile(path, nil); err != nil {
		res.err = err
		return res
	}
	for _, tf := range testFunctions(s) {
		res.tests = append(res.tests, runOneTest(s, tf.name, tf.fn))
		if _, exiting := s.ExitCode(); exiting {
			res.err = fmt.Errorf("dpclsh test: %s called os.exit", tf.name)
			break
		}
	}
	return res
}

type namedFunc struct {
	name string
	fn   *lua.LFunction
}

// testFunctions lists the global Test* functions in the order they are defined.
func testFunctions(s *script.Session) []namedFunc {
	var out []namedFunc
	s.L.G.Global.ForEach(func(k, v lua.LValue) {
		name, ok := k.(lua.LString)
		fn, isFn := v.(*lua.LFunction)
		if ok && isFn && strings.HasPrefix(string(name), "Test") && !fn.IsG {
			out = append(out, namedFunc{string(name), fn})
		}
	})
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].fn.Proto, out[j].fn.Proto
		if a.SourceName != b.SourceName {
			return a.SourceName < b.SourceName
		}
		if a.LineDefined != b.LineDefined {
			return a.LineDefined < b.LineDefined
		}
		return out[i].name < out[j].name
	})
	return out
}

func runOneTest(s *script.Session, name string, fn *lua.LFunction) testOutcome {
	res := testOutcome{name: name}
	t := newTestObject(s, name, &res.failures)
	if _, err := s.Call(fn, t); err != nil {
		var exit *script.ExitError
		if !errors.As(err, &exit) {
			res.failures = append(res.failures, err.Error())
		}
	}
	return res
}

// findTestFiles expands the paths given to `dpclsh test`: files as they are, directories
// to the *_test.lua files beneath them, sorted.
func findTestFiles(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("dpclsh test: %w", err)
		}
		if !info.IsDir() {
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(path, "_test.lua") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("dpclsh test: %w", err)
		}
	}
	sort.Strings(files)
	return files, nil
}
