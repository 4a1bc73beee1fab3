package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// TestTraceCommand runs `dpclsh trace` as a user does: a one-liner, a program file, the
// probe list, and a mistake pointed at with a caret.
func TestTraceCommand(t *testing.T) {
	inRoot(t)
	bt := filepath.Join(t.TempDir(), "sends.bt")
	if err := os.WriteFile(bt, []byte("// bytes per rank\nMPI_Send:entry\n/rank > 0/\n{\n  @bytes[rank] = sum(arg1 * 4);\n}\nEND { printf(\"%d ranks\\n\", 2 + 1); }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args        []string
		status      int
		out, stderr string
	}{
		{[]string{"-e", "MPI_Init:entry, MPI_Finalize:entry { @[func] = count() }", "--nodes", "3", "examples/apps/bin/hello_mpi.elf"},
			exitOK, "@[MPI_Finalize]: 3\n@[MPI_Init]: 3\n\n", ""},
		{[]string{"--nodes", "3", bt, "examples/apps/bin/ring.elf", "4", "2"},
			exitOK, "3 ranks\n@bytes[1]: 32\n@bytes[2]: 32\n\n", ""},
		{[]string{"-l", "MPI_Ini*", "examples/apps/bin/hello_mpi.elf"},
			exitOK, "MPI_Init:entry\nMPI_Init:exit\nMPI_Init_thread:entry\nMPI_Init_thread:exit\nMPI_Initialized:entry\nMPI_Initialized:exit\n", ""},
		{[]string{"-e", "MPI_Send:entry { @[arg9x] = count() }", "examples/apps/bin/ring.elf"},
			exitError, "", "dpclsh trace: stdin:1:20: unknown builtin 'arg9x'\nMPI_Send:entry { @[arg9x] = count() }\n                   ^\n"},
		{[]string{"--nodes", "2", bt + "x", "examples/apps/bin/ring.elf"},
			exitError, "", "dpclsh trace: open " + bt + "x: no such file or directory\n"},
	} {
		var out, errb bytes.Buffer
		st := runTrace(context.Background(), tc.args, nil, &out, &errb)
		if st != tc.status || out.String() != tc.out || errb.String() != tc.stderr {
			t.Errorf("dpclsh trace %s: status %d, stdout\n%s\nstderr\n%s\nwant status %d, stdout\n%s\nstderr\n%s",
				strings.Join(tc.args, " "), st, out.String(), errb.String(), tc.status, tc.out, tc.stderr)
		}
	}
	var out, errb bytes.Buffer
	if st := runTrace(context.Background(), []string{"examples/apps/bin/ring.elf"}, nil, &out, &errb); st != exitUsage {
		t.Errorf("no program: status %d, want %d (usage)", st, exitUsage)
	}
}

// traceCountChunk counts every MPI function's calls per rank and in all with dpcl.trace.
const traceCountChunk = `
local app = dpcl.launch(EXE, {nodes = NODES, per_io = 64, args = ARGS, quiet = true})
local r = dpcl.trace(app, "MPI_*:entry { @[rank, func] = count(); @all[func] = count() }", {out = function() end})
assert(r.status.exited == NODES, "not every rank exited: " .. tostring(r.status.exited))
COUNTS, TOTALS = {}, r.maps.all
for r = 1, NODES do COUNTS[r] = {} end
for key, n in pairs(r.maps[""]) do
  local rank, name = key:match("^(%d+), (.+)$")
  COUNTS[tonumber(rank) + 1][name] = n
end
app:close()
`

// TestTraceCountsMatchPMPI: count() per MPI function, per rank (@[rank, func]) and merged
// over the ranks (@all[func]), equals what MPICH's PMPI counts for the same program run
// natively, at 1, 7 and 64 ranks.
func TestTraceCountsMatchPMPI(t *testing.T) {
	wrapper, apps, entries := pmpiOracleSetup(t)
	ran := false
	for _, e := range entries {
		if e.Name != "ring" {
			continue
		}
		for _, n := range e.Ranks {
			if !slices.Contains(oracleSizes, n) {
				continue
			}
			ran = true
			t.Run(e.Name+"/"+strconv.Itoa(n), func(t *testing.T) {
				t.Parallel()
				res := nativeCountingRun(t, apps, wrapper, e.Name, n, e.Args)
				want, _ := pmpiCounts(t, res.Lines)
				perRank, totals := traceCounts(t, filepath.Join(apps, "bin", e.Name+".elf"), n, e.Args)
				compareCounts(t, n, "counted by the trace program", perRank, want)
				sum := map[string]int{}
				for _, c := range want {
					for k, v := range c {
						sum[k] += v
					}
				}
				for k, v := range sum {
					if totals[k] != v {
						t.Errorf("%s merged over %d ranks: trace counted %d, PMPI %d", k, n, totals[k], v)
					}
				}
				if len(totals) != len(sum) {
					t.Errorf("trace counted %d functions, PMPI %d: %v vs %v", len(totals), len(sum), totals, sum)
				}
			})
		}
	}
	if !ran {
		t.Fatal("the MANIFEST has no ring runs")
	}
}

// traceCounts runs traceCountChunk: counts per rank, and merged over the ranks.
func traceCounts(t *testing.T, elf string, n int, args []string) ([]map[string]int, map[string]int) {
	t.Helper()
	var out bytes.Buffer
	s, err := newSession(false, 0, &out, &out)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	L := s.L
	L.SetGlobal("EXE", lua.LString(elf))
	L.SetGlobal("NODES", lua.LNumber(n))
	L.SetGlobal("ARGS", stringList(L, args))
	if err := s.DoString(traceCountChunk, "trace counts"); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	counts := L.GetGlobal("COUNTS").(*lua.LTable)
	perRank := make([]map[string]int, n)
	for r := 0; r < n; r++ {
		perRank[r] = map[string]int{}
		counts.RawGetInt(r + 1).(*lua.LTable).ForEach(func(k, v lua.LValue) {
			perRank[r][k.String()] = int(v.(lua.LNumber))
		})
	}
	totals := map[string]int{}
	L.GetGlobal("TOTALS").(*lua.LTable).ForEach(func(k, v lua.LValue) { totals[k.String()] = int(v.(lua.LNumber)) })
	return perRank, totals
}
