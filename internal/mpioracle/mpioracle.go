package mpioracle

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// CFlags are the native compiler flags, the same as the Makefiles' NATIVE_CFLAGS.
var CFlags = []string{"-O2", "-g", "-Wall", "-Wextra", "-ffp-contract=off", "-Wno-stringop-overflow"}

// Build compiles the source src natively with MPICH's wrapper for its language (mpicc,
// mpicxx, mpif90) into a fresh t.TempDir and returns the executable's path. includeDirs
// are passed as -I. Compiler warnings fail the test: the sources are meant to build
// cleanly.
func Build(t testing.TB, src string, includeDirs ...string) string {
	t.Helper()
	return BuildLinking(t, src, nil, includeDirs...)
}

// BuildLinking is Build with objects linked into the program too.
func BuildLinking(t testing.TB, src string, objects []string, includeDirs ...string) string {
	t.Helper()
	lang, err := LangOf(src)
	if err != nil {
		t.Fatal(err)
	}
	wrapper := oracletest.Require(t, lang.MPI)
	out := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(src), lang.Ext))
	args := append([]string{}, lang.Flags...)
	for _, d := range includeDirs {
		args = append(args, "-I", d)
	}
	args = append(args, "-o", out, src)
	args = append(args, objects...)
	cmd := exec.Command(wrapper, args...)
	msg, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mpioracle: build %s: %v\n%s", src, err, msg)
	}
	if lang.Name == "Fortran" {
		msg = withoutMismatches(msg)
	}
	if len(bytes.TrimSpace(msg)) != 0 {
		t.Fatalf("mpioracle: build %s: compiler warnings:\n%s", src, msg)
	}
	return out
}

// mismatch is gfortran's warning for one external routine called with buffers of several
// types or ranks, which every MPI program without explicit interfaces for the choice
// routines (mpif.h, and MPICH's mpi module) gets: mpif90's -fallow-argument-mismatch
// turns the error into this warning.
var mismatch = regexp.MustCompile(`^Warning: (Type|Rank) mismatch between actual argument at \(1\) and actual argument at \(2\)`)

// withoutMismatches drops gfortran's argument-mismatch diagnostics from its output. A
// diagnostic is a block starting with a "FILE:LINE:COL:" line and ending with its
// "Warning: ..." line.
func withoutMismatches(out []byte) []byte {
	var keep, block []string
	for _, l := range strings.SplitAfter(string(out), "\n") {
		block = append(block, l)
		if strings.HasPrefix(l, "Warning: ") || strings.HasPrefix(l, "Error: ") {
			if !mismatch.MatchString(l) {
				keep = append(keep, block...)
			}
			block = nil
		}
	}
	return []byte(strings.Join(append(keep, block...), ""))
}

// Result is what one mpiexec run produced.
type Result struct {
	Ranks    int
	Stdout   string        // as mpiexec wrote it, every rank's line labelled "[rank] "
	Stderr   string        // likewise
	Status   int           // mpiexec's exit status; -1 if it was killed
	TimedOut bool          // killed after the timeout
	Elapsed  time.Duration // wall time, for reports only
	Lines    [][]string    // stdout lines of each rank, in the order the rank wrote them
	Launcher []string      // unlabelled stdout lines, written by mpiexec itself
}

// Run starts bin under `mpiexec -l -n ranks` with args and waits for it, at most timeout;
// then the whole process group is killed and the result says TimedOut.
func Run(t testing.TB, bin string, ranks int, args []string, timeout time.Duration) *Result {
	t.Helper()
	return RunIn(t, "", bin, ranks, args, timeout)
}

// RunIn is Run with the ranks' working directory set to dir ("": the test's).
func RunIn(t testing.TB, dir, bin string, ranks int, args []string, timeout time.Duration) *Result {
	t.Helper()
	mpiexec := oracletest.Require(t, oracletest.MPIExec)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	argv := append([]string{"-l", "-n", strconv.Itoa(ranks), bin}, args...)
	cmd := exec.CommandContext(ctx, mpiexec, argv...)
	cmd.Dir = dir
	tag := newRunTag()
	cmd.Env = append(os.Environ(), runTagName+"="+tag)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// mpiexec's proxies and the ranks share its process group: end them all.
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	// A rank may outlive its launcher in a session of its own (seen after MPI_Abort on a
	// loaded box: Hydra's proxy gone, the ranks spinning under init); none may stay.
	killStrays(tag)
	res := &Result{Ranks: ranks, Stdout: stdout.String(), Stderr: stderr.String(),
		Elapsed: time.Since(start), TimedOut: ctx.Err() != nil}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		res.Status = exit.ExitCode()
	case res.TimedOut:
		res.Status = -1
	default:
		t.Fatalf("mpioracle: run %s on %d ranks: %v", bin, ranks, err)
	}
	if res.TimedOut {
		res.Status = -1
	}
	res.Lines, res.Launcher = SplitLabeled(res.Stdout, ranks)
	return res
}

// SplitLabeled sorts mpiexec -l output into each rank's lines, in order, and the lines
// that carry no valid rank label (the launcher's own).
func SplitLabeled(out string, ranks int) (lines [][]string, launcher []string) {
	lines = make([][]string, ranks)
	for _, l := range strings.SplitAfter(out, "\n") {
		if l == "" {
			continue
		}
		l = strings.TrimSuffix(l, "\n")
		r, text, ok := label(l)
		if !ok || r >= ranks {
			launcher = append(launcher, l)
			continue
		}
		lines[r] = append(lines[r], text)
	}
	return lines, launcher
}

// label splits "[r] text" into r and text.
func label(l string) (int, string, bool) {
	rest, ok := strings.CutPrefix(l, "[")
	if !ok {
		return 0, "", false
	}
	num, text, ok := strings.Cut(rest, "]")
	r, err := strconv.Atoi(num)
	if !ok || err != nil || r < 0 {
		return 0, "", false
	}
	return r, strings.TrimPrefix(text, " "), true
}

// Canonical is the comparable form of a run: its exit status, then every rank's lines
// labelled "[rank] ", rank by rank.
func (r *Result) Canonical() string {
	return Canonical(r.Status, r.Lines)
}

// Canonical formats an exit status and per-rank output lines in the comparable form; the
// simulated machine's output is to be put through the same function.
func Canonical(status int, lines [][]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "exit %d\n", status)
	for r, ls := range lines {
		for _, l := range ls {
			fmt.Fprintf(&b, "[%d] %s\n", r, l)
		}
	}
	return b.String()
}
