package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

func inRoot(t testing.TB) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
}

// TestProfileReportFitsAPage: 1,024 ranks of master_worker print a report of a page,
// every number reduced in the tree: the task extremes name their ranks, and the callsite
// statistics count every rank's MPI_Init.
func TestProfileReportFitsAPage(t *testing.T) {
	inRoot(t)
	var out, errb bytes.Buffer
	st := runProfile(context.Background(), withReport(t, "--nodes", "1024", "examples/apps/bin/master_worker.elf"), nil, &out, &errb)
	if st != exitOK {
		t.Fatalf("status %d: %s", st, errb.String())
	}
	text := out.String()
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if len(lines) > 160 || len(lines) < 20 {
		t.Fatalf("%d lines, want a page:\n%s", len(lines), text)
	}
	for _, re := range []string{`(?m)^@ Ranks +: 1024 `, `(?m)^MPI_Init +\d+ +\* +1024 `, `(?m)^MPI_Gatherv +\d+ +\* `,
		`(?m)^  rank +\d+ +\d+ +\d+$`, `(?m)^ *\d+ +MPI_Recv +master_worker\.c:\d+ +\w+$`} {
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("no match for %s in the report:\n%s", re, text)
		}
	}
}

// TestProfileFortran: dpclsh profile counts a Fortran program's MPI calls, which its
// mpi_xxx_ bindings make through the C entries limpio's probes are on: heat on 4 ranks
// and 200 sweeps makes 400 MPI_Sendrecv and 20 MPI_Allreduce per rank (the profile of
// the same program under MPICH's PMPI is TestLimpioCountsMatchPMPI's).
func TestProfileFortran(t *testing.T) {
	inRoot(t)
	var out, errb bytes.Buffer
	st := runProfile(context.Background(), withReport(t, "--nodes", "4", "examples/apps/bin/heat.elf", "40", "200"), nil, &out, &errb)
	if st != exitOK {
		t.Fatalf("status %d: %s", st, errb.String())
	}
	text := out.String()
	// Two MPI_Sendrecv lines and two MPI_Allreduce lines of the source: 200 and 10 calls
	// per rank each, seen through the bindings' saved return addresses.
	for _, re := range []string{`(?m)^MPI_Sendrecv +\d+ +\* +800 `, `(?m)^MPI_Allreduce +\d+ +\* +40 `,
		`(?m)^ *\d+ +MPI_Sendrecv +heat\.f90:53 +MAIN__$`, `(?m)^ *\d+ +MPI_Sendrecv +heat\.f90:55 +MAIN__$`,
		`(?m)^ *\d+ +MPI_Gatherv +heat\.f90:\d+`, `(?m)^ *\d+ +MPI_Bcast +heat\.f90:\d+`} {
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("no match for %s in the report:\n%s", re, text)
		}
	}
	if strings.Contains(text, "mpi_") || strings.Contains(text, "(other)") {
		t.Errorf("the Fortran bindings are counted as callsites of their own:\n%s", text)
	}
}

// withReport is args with the report written to a temporary file, not the checkout.
func withReport(t *testing.T, args ...string) []string {
	return append([]string{"--report", filepath.Join(t.TempDir(), "report.txt")}, args...)
}

// TestProfileBadInput: an unknown exclude warns by name; an unwritable trace path fails
// before the run; a program without MPI functions is a clear error.
func TestProfileBadInput(t *testing.T) {
	inRoot(t)
	var out, errb bytes.Buffer
	st := runProfile(context.Background(), withReport(t, "--nodes", "2", "--exclude", "MPI_Nope,MPI_Barrier", "examples/apps/bin/hello_mpi.elf"), nil, &out, &errb)
	if st != exitOK || !strings.Contains(errb.String(), `"MPI_Nope" is not an MPI function`) {
		t.Errorf("status %d, stderr %q", st, errb.String())
	}
	out.Reset()
	errb.Reset()
	st = runProfile(context.Background(), withReport(t, "--nodes", "2", "--trace", "/nonexistent/dir/t.json", "examples/apps/bin/hello_mpi.elf"), nil, &out, &errb)
	if st != exitError || errb.String() != "dpclsh profile: cannot write /nonexistent/dir/t.json: no such file or directory\n" || out.Len() != 0 {
		t.Errorf("status %d, stdout %q, stderr %q", st, out.String(), errb.String())
	}
	errb.Reset()
	st = runProfile(context.Background(), withReport(t, "--nodes", "1", "runtime/testdata/bin/loop.elf"), nil, &out, &errb)
	if st != exitError || !strings.Contains(errb.String(), "no MPI functions") {
		t.Errorf("status %d, stderr %q", st, errb.String())
	}
}

// TestProfileTraceWriteFailure: a trace the device cannot take fails the command with
// the reason, after the table; a trace that can be written is a file others may read.
func TestProfileTraceWriteFailure(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full on this host")
	}
	inRoot(t)
	var out, errb bytes.Buffer
	st := runProfile(context.Background(), withReport(t, "--nodes", "2", "--trace", "/dev/full", "examples/apps/bin/hello_mpi.elf"), nil, &out, &errb)
	if st != exitError || errb.String() != "dpclsh profile: cannot write /dev/full: no space left on device\n" {
		t.Errorf("status %d, stderr %q", st, errb.String())
	}
	if !strings.Contains(out.String(), "MPI_Init") || strings.Contains(out.String(), "trace:") {
		t.Errorf("want the table and no trace line:\n%s", out.String())
	}

	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "t.json")
	out.Reset()
	errb.Reset()
	st = runProfile(context.Background(), withReport(t, "--nodes", "2", "--trace", path, "examples/apps/bin/hello_mpi.elf"), nil, &out, &errb)
	if st != exitOK || !strings.Contains(out.String(), "bytes in "+path) {
		t.Fatalf("status %d, stdout %q, stderr %q", st, out.String(), errb.String())
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("the trace is %v (%v), want -rw-r--r--", fi.Mode(), err)
	}
}

const traceChunk = `
local app = dpcl.launch("examples/apps/bin/jacobi.elf", {nodes = 7, per_io = 8, args = {"32", "20"}, quiet = true})
local prof = limpio.profile(app)
local tr = limpio.trace(app, {max_events = MAXEV})
app:start()
app:wait()
INFO = tr:perfetto(PATH)
local rows = prof:snapshot()
CALLS = {}
for r = 0, 6 do
  for name, n in pairs(rows[r].calls) do CALLS[r .. " " .. name] = n end
end
app:close()
`

// TestTracePerfettoOneSlicePerCall decodes the Chrome trace JSON and checks that every
// call limpio.profile counted is one slice on its rank's track, and that max_events drops
// what it says it drops.
func TestTracePerfettoOneSlicePerCall(t *testing.T) {
	inRoot(t)
	for _, maxev := range []int{100000, 30} {
		path := filepath.Join(t.TempDir(), "trace.json")
		var out bytes.Buffer
		s, err := newSession(false, 0, &out, &out)
		if err != nil {
			t.Fatal(err)
		}
		s.L.SetGlobal("PATH", lua.LString(path))
		s.L.SetGlobal("MAXEV", lua.LNumber(maxev))
		if err := s.DoString(traceChunk, "trace"); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		info := s.L.GetGlobal("INFO").(*lua.LTable)
		calls := map[string]int{}
		total := 0
		s.L.GetGlobal("CALLS").(*lua.LTable).ForEach(func(k, v lua.LValue) {
			calls[k.String()] = int(v.(lua.LNumber))
			total += int(v.(lua.LNumber))
		})
		s.Close()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			TraceEvents []struct {
				Name string  `json:"name"`
				Ph   string  `json:"ph"`
				Tid  int     `json:"tid"`
				Ts   float64 `json:"ts"`
				Dur  float64 `json:"dur"`
			} `json:"traceEvents"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("trace JSON does not parse: %v", err)
		}
		slices := map[string]int{}
		n := 0
		for _, e := range doc.TraceEvents {
			if e.Ph == "X" {
				slices[strconv.Itoa(e.Tid)+" "+e.Name]++
				n++
				if e.Dur < 0 {
					t.Errorf("negative duration %v", e)
				}
			}
		}
		dropped := int(info.RawGetString("dropped").(lua.LNumber))
		if int(info.RawGetString("events").(lua.LNumber)) != n || n+dropped != total {
			t.Errorf("max %d: %d slices, %d dropped, %d calls counted", maxev, n, dropped, total)
		}
		if maxev < total/7 {
			if n != 7*maxev {
				t.Errorf("max %d per rank: %d slices on 7 ranks", maxev, n)
			}
			continue
		}
		for k, c := range calls {
			if slices[k] != c {
				t.Errorf("%s: %d slices, %d calls", k, slices[k], c)
			}
		}
		if int(info.RawGetString("messages").(lua.LNumber)) >= n/10 {
			t.Errorf("%v messages for %d events: not batched", info.RawGetString("messages"), n)
		}
	}
}

// TestProfileEnv: --env sets the job's environment, whose MPIINSTR_EXCLUDE limpio reads;
// a malformed --env is a usage error, found before the job starts.
func TestProfileEnv(t *testing.T) {
	inRoot(t)
	var out, errb bytes.Buffer
	st := runProfile(context.Background(), withReport(t, "--nodes", "3", "--env", "MPIINSTR_EXCLUDE=MPI_Comm_rank,MPI_Comm_size",
		"--env", "OTHER=1", "examples/apps/bin/hello_mpi.elf"), nil, &out, &errb)
	if st != exitOK || strings.Contains(out.String(), "MPI_Comm_rank") || !strings.Contains(out.String(), "MPI_Init") {
		t.Errorf("status %d, stdout:\n%s\nstderr %q", st, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	st = runProfile(context.Background(), []string{"--env", "NOVALUE", "examples/apps/bin/hello_mpi.elf"}, nil, &out, &errb)
	if st != exitUsage || !strings.Contains(errb.String(), `want NAME=VALUE, got "NOVALUE"`) {
		t.Errorf("status %d, stderr %q", st, errb.String())
	}
	errb.Reset()
	st = runProfile(context.Background(), []string{"--env", "1X=2", "examples/apps/bin/hello_mpi.elf"}, nil, &out, &errb)
	if st != exitUsage || !strings.Contains(errb.String(), `--env 1X=2: "1X" is not a variable name`) {
		t.Errorf("status %d, stderr %q", st, errb.String())
	}
}

// TestProfileFaultedRank: rank 3 of mpicrash faults and the MPI engine ends the others
// before any reaches _exit. The profile names the fault, then prints what every rank
// counted up to the end (read from its memory: two Allreduces each), and fails.
func TestProfileFaultedRank(t *testing.T) {
	var out, errb bytes.Buffer
	st := runProfile(context.Background(), withReport(t, "--nodes", "4", execCorpus+"mpicrash.elf"), nil, &out, &errb)
	if st != exitError || errb.String() != "dpclsh profile: 1 of 4 ranks faulted\n" {
		t.Errorf("status %d, stderr %q; want %d and the faulted ranks counted", st, errb.String(), exitError)
	}
	lines := strings.Split(out.String(), "\n")
	want := []string{
		"rank 3: uncaught signal 11 (Segmentation fault) at pc 0x100004f8 in deref (src/mpicrash.c:8); " +
			"called from step (src/mpicrash.c:16) <- main (src/mpicrash.c:26) <- __libc_start_call_main+0x84 <- __libc_start_main+0x414",
		"@ dpclsh limpio report: ",
	}
	if len(lines) < len(want) {
		t.Fatalf("stdout:\n%s", out.String())
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d %q, want it to begin %q", i+1, lines[i], w)
		}
	}
	for _, re := range []string{`(?m)^@ Partial +: ranks faulted`, `(?m)^MPI_Allreduce +\d+ +\* +8 `,
		`(?m)^ *\d+ +MPI_Allreduce +src/mpicrash\.c:\d+ +\w+$`} {
		if !regexp.MustCompile(re).MatchString(out.String()) {
			t.Errorf("ranks 0-3 made two MPI_Allreduce calls before the fault; no match for %s:\n%s", re, out.String())
		}
	}
}

// TestLimpioWritersReportFailures: every limpio writer raises "cannot write PATH: REASON"
// at the script's line when the file cannot take the data, instead of returning.
func TestLimpioWritersReportFailures(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full on this host")
	}
	inRoot(t)
	var out bytes.Buffer
	s, err := newSession(false, 0, &out, &out)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.DoString(`local app = dpcl.launch("examples/apps/bin/hello_mpi.elf", {nodes = 2, quiet = true})
local prof = limpio.profile(app, {per_rank = true})
local tr = limpio.trace(app)
app:start() app:wait() app:close()
ERRS = {
  select(2, pcall(function() prof:csv("/dev/full") end)),
  select(2, pcall(function() tr:csv("/dev/full") end)),
  select(2, pcall(function() tr:perfetto("/dev/full") end)),
  select(2, pcall(function() tr:svg("/dev/full") end)),
  select(2, pcall(function() limpio.trace(app, {path = "/nonexistent/dir/t.json"}) end)),
}`, "writers.lua")
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	errs := s.L.GetGlobal("ERRS").(*lua.LTable)
	for i := 1; i <= 5; i++ {
		want := "writers.lua:" + strconv.Itoa(5+i) + ": cannot write /dev/full: no space left on device"
		if i == 5 {
			want = "writers.lua:10: cannot write /nonexistent/dir/t.json: no such file or directory"
		}
		if got := lua.LVAsString(errs.RawGetInt(i)); got != want {
			t.Errorf("writer %d: error %q, want %q", i, got, want)
		}
	}
}
