package mpichsuite

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadList: a testlist's entries with their keys, runtests' default rank count,
// substitutions, comments, skipped entries and a nested directory (its own testlist,
// named by a @...@ substitution).
func TestReadList(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "pt2pt", "testlist.in"), "# a comment\n"+
		"sendrecv 2 arg=-a arg=-b env=X=1 timeLimit=30\n"+
		"solo\n"+
		"@rmadir@\n"+
		"@largetest@big 4\n"+
		"cancel 2 xfail=ticket1 test/mpi/pt2pt/cancel\n"+
		"status 2 resultTest=TestStatus\n")
	writeFile(t, filepath.Join(root, "pt2pt", "rma", "testlist"), "win 3 mem=2.5\n")
	got, err := ReadList(root, "pt2pt")
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i].Where = ""
	}
	want := []Entry{
		{Dir: "pt2pt", Program: "sendrecv", NP: 2, Args: []string{"-a", "-b"}, Env: []string{"X=1"}, TimeLimit: 30},
		{Dir: "pt2pt", Program: "solo", NP: 2, TimeLimit: 180},
		{Dir: "pt2pt/rma", Program: "win", NP: 3, TimeLimit: 180, Skip: "mem=2.5 GB per job is beyond the machine's 512 MiB nodes"},
		{Dir: "pt2pt", Program: "cancel", NP: 2, TimeLimit: 180, Skip: "xfail=ticket1"},
		{Dir: "pt2pt", Program: "status", NP: 2, TimeLimit: 180, ResultTest: "TestStatus"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("entries:\n%+v\nwant\n%+v", got, want)
	}
	if k := want[0].Key(); k != "pt2pt/sendrecv 2 -a -b env:X=1" {
		t.Errorf("key %q", k)
	}
}

// TestReadListErrors: what the runner cannot read is an error naming the file and line.
func TestReadListErrors(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{"x 2\n@nosuchdir@\n", "testlist.in:2: unknown substitution @nosuchdir@"},
		{"x two\n", "testlist.in:1: rank count \"two\" of x is not a positive number"},
		{"x 2 colour=red\n", "testlist.in:1: unknown key \"colour\" in colour=red"},
		{"x 2 timeLimit=soon\n", "testlist.in:1: timeLimit=\"soon\" of x is not a positive number"},
	} {
		root := t.TempDir()
		writeFile(t, filepath.Join(root, "d", "testlist.in"), tt.line)
		_, err := ReadList(root, "d")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want one with %q", tt.line, err, tt.want)
		}
	}
}

// TestJudge: runtests' criteria.
func TestJudge(t *testing.T) {
	plain, status, fatal := Entry{}, Entry{ResultTest: "TestStatus"}, Entry{ResultTest: "TestErrFatal"}
	for _, tt := range []struct {
		e      Entry
		out    string
		status int
		want   string
	}{
		{plain, " No Errors\n", 0, ""},
		{plain, " No Errors\n No Errors\n", 0, ""},
		{plain, "Test Passed\n No Errors\n", 0, ""},
		{plain, " No Errors\n", 1, "exit status 1"},
		{plain, "", 0, "no \" No Errors\" line (status 0)"},
		{plain, "x is 3\n No Errors\n", 0, "unexpected output (status 0): x is 3"},
		{plain, " Found 2 errors\n", 0, "unexpected output (status 0): Found 2 errors"},
		{status, "", 3, ""},
		{status, "", 0, "exited 0 where a nonzero status was expected"},
		{status, "oops\n", 3, "unexpected output: oops"},
		{fatal, "dpclsh: rank 0: ...\n", 12, ""},
		{fatal, " No Errors\n", 0, "exited 0 where the error should have been fatal"},
	} {
		if got := Judge(tt.e, tt.out, tt.status); got != tt.want {
			t.Errorf("Judge(%q, %q, %d) = %q, want %q", tt.e.ResultTest, tt.out, tt.status, got, tt.want)
		}
	}
}

// TestKnownFailures: the committed list parses, and a regression is a natively passing
// entry that fails without being listed.
func TestKnownFailures(t *testing.T) {
	known, err := KnownFailures(filepath.Join("testdata", "known_failures.txt"))
	if err != nil {
		t.Fatal(err)
	}
	a := Entry{Dir: "d", Program: "a", NP: 1}
	b := Entry{Dir: "d", Program: "b", NP: 2}
	known = map[string]string{b.Key(): "why"}
	res := []Result{{Entry: a, Native: true, Reason: "boom"}, {Entry: b, Native: true, Passed: true}}
	failed, fixed := Regressions(res, known)
	if !reflect.DeepEqual(failed, []string{"d/a 1: boom"}) || !reflect.DeepEqual(fixed, []string{"d/b 2"}) {
		t.Errorf("regressions %q, fixed %q", failed, fixed)
	}
}
