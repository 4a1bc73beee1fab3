package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/dpclsh/dpclsh/script/fileout"
)

// runChecked is run with its standard output checked, as a Unix tool's must be:
// `dpclsh ... > /dev/full` writes nothing, so it says so and fails instead of exiting 0.
// The first write error (and the error of closing stdout at the end, which is where a
// file system that writes back late reports) makes a successful status 1; another status
// stays, since it already says the run failed.
func runChecked(args []string, stdin io.Reader, stdout *os.File, stderr io.Writer) int {
	out := &checkedOutput{f: stdout}
	status := run(args, stdin, out, stderr)
	err := out.failure()
	if cerr := stdout.Close(); err == nil && cerr != nil {
		err = &fileout.Error{Path: stdoutName, Err: cerr}
	}
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh: %v\n", err)
		if status == exitOK {
			status = exitError
		}
	}
	return status
}

const stdoutName = "standard output"

// checkedOutput is standard output remembering its first error, a *fileout.Error naming
// "standard output". After it nothing more is written, so the output is a prefix of what
// the run produced, never one with holes.
type checkedOutput struct {
	f   *os.File
	mu  sync.Mutex
	err error
}

func (c *checkedOutput) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.f.Write(p)
	if err != nil {
		c.err = &fileout.Error{Path: stdoutName, Err: err}
	}
	return n, c.err
}

// isOutputError reports whether err is standard output's, which runChecked reports once
// for the whole run: a subcommand that meets it just fails.
func isOutputError(err error) bool {
	var fe *fileout.Error
	return errors.As(err, &fe) && fe.Path == stdoutName
}

func (c *checkedOutput) failure() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// File is the terminal check's way to the file underneath.
func (c *checkedOutput) File() *os.File { return c.f }
