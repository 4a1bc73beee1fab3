package mpichsuite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

// A Runner starts a built program at a rank count.
type Runner interface {
	Command(ctx context.Context, e Entry, prog, workdir string) *exec.Cmd
}

// BGLRunner runs programs on the simulated machine with `dpclsh exec`.
type BGLRunner struct{ Dpclsh string }

// Command is dpclsh exec --nodes NP [--env NAME=VALUE]... PROG ARGS..., confined to workdir.
func (r BGLRunner) Command(ctx context.Context, e Entry, prog, workdir string) *exec.Cmd {
	args := []string{"exec", "--quiet", "--nodes", fmt.Sprint(e.NP), "--workdir", workdir}
	for _, v := range e.Env {
		args = append(args, "--env", v)
	}
	args = append(append(args, prog), e.Args...)
	return exec.CommandContext(ctx, r.Dpclsh, args...)
}

// NativeRunner runs programs under MPICH's mpiexec on the host.
type NativeRunner struct{ MPIExec string }

// Command is mpiexec -n NP [-genv NAME VALUE]... PROG ARGS... in workdir.
func (r NativeRunner) Command(ctx context.Context, e Entry, prog, workdir string) *exec.Cmd {
	args := []string{"-n", fmt.Sprint(e.NP)}
	for _, v := range e.Env {
		name, value, _ := strings.Cut(v, "=")
		args = append(args, "-genv", name, value)
	}
	args = append(append(args, prog), e.Args...)
	cmd := exec.CommandContext(ctx, r.MPIExec, args...)
	cmd.Dir = workdir
	return cmd
}

// Run runs prog for e with runner within e's time limit (scaled by slow: the simulated
// machine is slower than the host) and judges it as runtests does; it returns "" for a
// pass, else why it failed.
func Run(ctx context.Context, r Runner, e Entry, prog, workdir string, slow float64) string {
	limit := time.Duration(float64(e.TimeLimit) * slow * float64(time.Second))
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := r.Command(ctx, e, prog, workdir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Stdin = nil
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return fmt.Sprintf("timed out after %v", limit)
	}
	status := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		status = exit.ExitCode()
	case err != nil:
		return err.Error()
	}
	return Judge(e, out.String(), status)
}

var (
	noErrorsRe = regexp.MustCompile(`^\s*No [Ee]rrors\s*$`)
	passedRe   = regexp.MustCompile(`^\s*Test Passed\s*$`)
)

// Judge applies runtests' criteria to a run's combined output and exit status: by
// default the output is " No Errors" (or "Test Passed") lines only, with at least one
// " No Errors", and the status is 0; TestStatus wants a nonzero status and no output;
// TestErrFatal wants a nonzero status (the job aborted).
func Judge(e Entry, out string, status int) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	switch e.ResultTest {
	case "TestErrFatal":
		if status == 0 {
			return "exited 0 where the error should have been fatal"
		}
		return ""
	case "TestStatus":
		for _, l := range lines {
			if strings.TrimSpace(l) != "" {
				return "unexpected output: " + clip(l)
			}
		}
		if status == 0 {
			return "exited 0 where a nonzero status was expected"
		}
		return ""
	}
	found := false
	for _, l := range lines {
		switch {
		case noErrorsRe.MatchString(l):
			found = true
		case passedRe.MatchString(l):
		case out == "":
		default:
			return fmt.Sprintf("unexpected output (status %d): %s", status, clip(l))
		}
	}
	switch {
	case !found:
		return fmt.Sprintf("no \" No Errors\" line (status %d)", status)
	case status != 0:
		return fmt.Sprintf("exit status %d", status)
	}
	return ""
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return s
}

// TempWorkdir makes an empty directory under parent for one run.
func TempWorkdir(parent, name string) (string, error) {
	return os.MkdirTemp(parent, strings.NewReplacer("/", "_", " ", "_").Replace(name)+"-")
}
