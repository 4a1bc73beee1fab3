// Command mpichsuite runs MPICH's test/mpi suite on the simulated Blue Gene/L and under
// MPICH, prints the table per directory and writes the CSV. See package mpichsuite.
//
//	go run ./internal/mpichsuite/cmd/mpichsuite [-dirs attr,errhan] [-csv suite.csv] [-known FILE]
//
// The exit status is 1 when a natively passing test that is not a known failure fails.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/dpclsh/dpclsh/internal/mpichsuite"
)

func main() {
	dirs := flag.String("dirs", strings.Join(mpichsuite.AcceptanceDirs, ","), "comma-separated top-level directories of the suite")
	csvPath := flag.String("csv", "mpichsuite.csv", "the CSV to write")
	known := flag.String("known", "", "known failures (default internal/mpichsuite/testdata/known_failures.txt)")
	only := flag.String("run", "", "only entries whose key contains one of these comma-separated strings")
	flag.Parse()
	if err := run(*dirs, *csvPath, *known, *only); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(dirs, csvPath, knownPath, only string) error {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		return fmt.Errorf("mpichsuite: run it inside the dpclsh repository (go env GOMOD: %v)", err)
	}
	repo := filepath.Dir(strings.TrimSpace(string(out)))
	if knownPath == "" {
		knownPath = filepath.Join(repo, "internal", "mpichsuite", "testdata", "known_failures.txt")
	}
	root, _ := mpichsuite.SuiteDir(repo)
	if !mpichsuite.Present(root) {
		return fmt.Errorf("mpichsuite: MPICH's test/mpi not found at %s (set DPCL_REALAPPS)", root)
	}
	known, err := mpichsuite.KnownFailures(knownPath)
	if err != nil {
		return err
	}
	entries, err := mpichsuite.ReadDirs(root, strings.Split(dirs, ","))
	if err != nil {
		return err
	}
	if only != "" {
		var keep []mpichsuite.Entry
		for _, e := range entries {
			for _, o := range strings.Split(only, ",") {
				if strings.Contains(e.Key(), o) {
					keep = append(keep, e)
					break
				}
			}
		}
		entries = keep
	}
	work, err := os.MkdirTemp("", "mpichsuite-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	// Ctrl-C stops the builds and runs, and the scratch directory is still removed.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := mpichsuite.New(ctx, repo, root, work)
	if err != nil {
		return err
	}
	s.Log = os.Stderr
	res := s.Run(ctx, entries)
	mpichsuite.WriteTable(os.Stdout, res)
	f, err := os.Create(csvPath)
	if err != nil {
		return err
	}
	if err := mpichsuite.WriteCSV(f, res); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	failed, fixed := mpichsuite.Regressions(res, known)
	for _, k := range fixed {
		fmt.Printf("now passes (remove from %s): %s\n", knownPath, k)
	}
	if len(failed) > 0 {
		return fmt.Errorf("mpichsuite: %d natively passing tests failed that are not known failures:\n  %s",
			len(failed), strings.Join(failed, "\n  "))
	}
	return nil
}
