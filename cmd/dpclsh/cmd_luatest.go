package main

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// defaultTestDir is searched for *_test.lua files when `dpclsh test` gets no paths.
const defaultTestDir = "examples"

func init() {
	registerSubcommand(subcommand{
		name:  "test",
		usage: "test [-v] [PATH...]",
		brief: "run the Test* functions of Lua test files (default: examples/**/*_test.lua); exit 1 on failure",
		help: `options:
  -v   print every test's name and result, not only the failures

A test file defines global functions named Test*, each called with a t object:
t:eq(got, want [, msg]), t:ok(cond [, msg]), t:error(fn [, pattern]).

example:
  dpclsh test examples/probes
`,
		run: runTestCommand,
	})
}

func runTestCommand(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	verbose := false
	var paths []string
	for _, a := range args {
		switch {
		case a == "-v":
			verbose = true
		case strings.HasPrefix(a, "-"):
			fmt.Fprintf(stderr, "dpclsh test: unknown option %s\nusage: dpclsh test [-v] [PATH...]\n", a)
			return exitUsage
		default:
			paths = append(paths, a)
		}
	}
	if len(paths) == 0 {
		paths = []string{defaultTestDir}
	}
	files, err := findTestFiles(paths)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitError
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "dpclsh test: no *_test.lua files under %s\n", strings.Join(paths, " "))
		return exitError
	}
	passed, failed := 0, 0
	for _, f := range files {
		res := runTestFile(f, stdout, verbose)
		res.writeFailures(stdout, verbose)
		p, n := res.counts()
		passed += p
		failed += n
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return exitError
	}
	return exitOK
}
