package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestExecStatsIgnoresHostEnv runs `exec --stats` as a user would, under two host
// environments (the test's own plus a 1 KB variable; only PATH, as env -i PATH=... gives):
// stdout and the summary line are the same bytes, and ranks saw no variable.
func TestExecStatsIgnoresHostEnv(t *testing.T) {
	hosts := map[string][]string{
		"extra 1 KB variable": append(os.Environ(), "DPCL_TEST_PADDING="+strings.Repeat("x", 1024)),
		"only PATH":           {"PATH=" + os.Getenv("PATH")},
	}
	var first, firstName string
	for name, env := range hosts {
		cmd := exec.Command(binary, "exec", "--stats", "--nodes", "2", "--per-io", "8", execCorpus+"printenv.elf")
		cmd.Env = env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, stderr.String())
		}
		lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[1], "dpclsh exec: wall ") {
			t.Fatalf("%s: stderr is not a summary line then a wall line:\n%s", name, stderr.String())
		}
		got := stdout.String() + lines[0]
		if !strings.HasSuffix(got, ", environment 0 variables, sha256 e3b0c44298fc") ||
			!strings.HasPrefix(got, "0 variables\n0 variables\ndpclsh exec: 2 ranks, status 0, ") {
			t.Errorf("%s: ranks saw an environment:\n%s", name, got)
		}
		if first == "" {
			first, firstName = got, name
		} else if got != first {
			t.Errorf("the host's environment changed the run:\n%s:\n%s\n%s:\n%s", firstName, first, name, got)
		}
	}
}

// TestExecEnvReachesRanks: --env and --export are what getenv reads on every rank, in a
// sorted envp, and the summary counts them.
func TestExecEnvReachesRanks(t *testing.T) {
	t.Setenv("DPCL_TEST_EXPORTED", "from the host")
	t.Setenv("DPCL_TEST_NOT_EXPORTED", "secret")
	var out, errb bytes.Buffer
	code := run([]string{"exec", "--stats", "--label", "--nodes", "2", "--per-io", "8", "--env", "ZED=last", "--env", "A=1=2",
		"--export", "DPCL_TEST_EXPORTED", execCorpus + "printenv.elf"}, strings.NewReader(""), &out, &errb)
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, errb.String())
	}
	want := []string{"A=1=2", "DPCL_TEST_EXPORTED=from the host", "ZED=last", "3 variables"}
	for _, rank := range []string{"0: ", "1: "} {
		var got []string
		for _, line := range strings.Split(out.String(), "\n") {
			if v, ok := strings.CutPrefix(line, rank); ok {
				got = append(got, v)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("rank %s saw %q, want %q", rank[:1], got, want)
		}
	}
	if !strings.Contains(errb.String(), ", environment 3 variables, sha256 ") {
		t.Errorf("summary does not count the environment: %q", errb.String())
	}
	out.Reset()
	code = run([]string{"exec", "--env", "A=x", execCorpus + "printenv.elf", "A", "DPCL_TEST_NOT_EXPORTED"},
		strings.NewReader(""), &out, &errb)
	if want := "A=x\nDPCL_TEST_NOT_EXPORTED=(unset)\n"; code != 0 || out.String() != want {
		t.Errorf("getenv: status %d, stdout %q, want %q", code, out.String(), want)
	}
}

// TestJobEnvBadInput: a bad name, an exported name the host does not set and a name given
// twice are usage errors naming the option, for exec, profile and ui alike, before a job
// starts.
func TestJobEnvBadInput(t *testing.T) {
	t.Setenv("DPCL_TEST_SET", "1")
	t.Setenv("DPCL_TEST_UNSET", "")
	os.Unsetenv("DPCL_TEST_UNSET")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--env", "1X=a"}, `--env 1X=a: "1X" is not a variable name (letters, digits and _, not starting with a digit)`},
		{[]string{"--env", "=a"}, `--env =a: "" is not a variable name`},
		{[]string{"--env", "NOVALUE"}, `want NAME=VALUE, got "NOVALUE"`},
		{[]string{"--export", "DPCL_TEST_UNSET"}, "--export DPCL_TEST_UNSET: DPCL_TEST_UNSET is not set on the host"},
		{[]string{"--export", "A-B"}, `--export A-B: "A-B" is not a variable name`},
		{[]string{"--env", "X=1", "--env", "X=2"}, "--env X=2: X is given twice"},
		{[]string{"--export", "DPCL_TEST_SET", "--export", "DPCL_TEST_SET"}, "--export DPCL_TEST_SET: DPCL_TEST_SET is given twice"},
		{[]string{"--env", "DPCL_TEST_SET=2", "--export", "DPCL_TEST_SET"}, "--export DPCL_TEST_SET: DPCL_TEST_SET is given twice"},
	}
	for _, sub := range []string{"exec", "profile", "ui"} {
		for _, c := range cases {
			var out, errb bytes.Buffer
			args := append(append([]string{sub}, c.args...), "no-such-program.elf")
			code := run(args, strings.NewReader(""), &out, &errb)
			if code != exitUsage || !strings.Contains(errb.String(), c.want) || strings.Contains(errb.String(), "no-such-program") {
				t.Errorf("dpclsh %s: status %d, stderr %q, want status %d and %q", strings.Join(args, " "), code, errb.String(), exitUsage, c.want)
			}
		}
	}
}

// TestProfileExportsExcludeOnlyWhenAsked: the host's MPIINSTR_EXCLUDE reaches limpio only
// through --export MPIINSTR_EXCLUDE.
func TestProfileExportsExcludeOnlyWhenAsked(t *testing.T) {
	inRoot(t)
	t.Setenv("MPIINSTR_EXCLUDE", "MPI_Comm_rank,MPI_Comm_size")
	for _, tc := range []struct {
		args     []string
		excluded bool
	}{
		{nil, false},
		{[]string{"--export", "MPIINSTR_EXCLUDE"}, true},
	} {
		var out, errb bytes.Buffer
		args := append(withReport(t, "--nodes", "3"), append(tc.args, "examples/apps/bin/hello_mpi.elf")...)
		st := runProfile(context.Background(), args, nil, &out, &errb)
		if st != exitOK || !strings.Contains(out.String(), "MPI_Init") ||
			strings.Contains(out.String(), "MPI_Comm_rank") != !tc.excluded {
			t.Errorf("profile %v: status %d, MPI_Comm_rank excluded should be %v; stdout:\n%s\nstderr %q",
				tc.args, st, tc.excluded, out.String(), errb.String())
		}
	}
}

// cancelOnWrite cancels a context once something containing mark is written.
type cancelOnWrite struct {
	bytes.Buffer
	mark   string
	cancel context.CancelFunc
}

func (w *cancelOnWrite) Write(p []byte) (int, error) {
	n, err := w.Buffer.Write(p)
	if strings.Contains(w.String(), w.mark) {
		w.cancel()
	}
	return n, err
}

// TestUIEnvReachesLaunch: ui's --env and --export go to the job its script launches, and
// nothing else of the host's environment does; the page's announcement ends the test.
func TestUIEnvReachesLaunch(t *testing.T) {
	t.Setenv("DPCL_TEST_EXPORTED", "from the host")
	script := t.TempDir() + "/env.lua"
	src := `app = dpcl.launch("` + execCorpus + `printenv.elf", {quiet = true, env = {B = "lua"}})
for k, v in pairs(app:env()) do names = (names or "") .. " " .. k .. "=" .. v end
print("env:" .. (names or ""))
`
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &cancelOnWrite{mark: "the page of", cancel: cancel}
	var errb bytes.Buffer
	code := runUI(ctx, []string{"--env", "A=cli", "--export", "DPCL_TEST_EXPORTED", script}, nil, out, &errb)
	if code != exitOK {
		t.Fatalf("status %d, stderr %q", code, errb.String())
	}
	got, _, _ := strings.Cut(out.String(), "\n")
	if !strings.HasPrefix(got, "env:") || !strings.Contains(got, " A=cli") || !strings.Contains(got, " B=lua") ||
		!strings.Contains(got, " DPCL_TEST_EXPORTED=from the host") || strings.Count(got, "=") != 3 {
		t.Errorf("the launched job's environment: %q, want A, B and DPCL_TEST_EXPORTED only", got)
	}
}
