package main

import (
	"context"
	"errors"
	"flag"
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
		flags: func() *flag.FlagSet { fs, _ := testFlags(); return fs },
		example: `dpclsh test                      # every examples/**/*_test.lua
dpclsh test -v examples/quickstart_test.lua`,
		run: runTestCommand,
	})
}

func testFlags() (*flag.FlagSet, *bool) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs, fs.Bool("v", false, "list every test with its result, not only the failures")
}

func runTestCommand(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs, v := testFlags()
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeSubcommandHelp(stdout, subcommands["test"])
			return exitOK
		}
		return usageError(stderr, "test", err)
	}
	verbose, paths := *v, fs.Args()
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
