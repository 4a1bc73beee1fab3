package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/internal/mpioracle"
	"github.com/dpclsh/dpclsh/internal/oracletest"
	lua "github.com/yuin/gopher-lua"
)

// oracleSizes are the rank counts at which limpio's counts are checked against MPICH.
var oracleSizes = []int{1, 7, 64}

// TestLimpioCountsMatchPMPI checks limpio.profile's call counts, per MPI function per rank,
// on every example program against the same program built natively with MPICH and a PMPI
// counting wrapper (testdata/limpio/pmpi_count.h) and run under MPICH.
func TestLimpioCountsMatchPMPI(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	wrapper, err := filepath.Abs(filepath.Join("testdata", "limpio", "pmpi_count.h"))
	if err != nil {
		t.Fatal(err)
	}
	apps := filepath.Join(root, "examples", "apps")
	entries, err := mpioracle.LoadManifest(filepath.Join(apps, "MANIFEST"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	bins := map[string]string{}
	for _, e := range entries {
		if bins[e.Name] == "" {
			src, err := mpioracle.SourceOf(apps, e.Name)
			if err != nil {
				t.Fatal(err)
			}
			bins[e.Name] = buildCounting(t, src, wrapper, apps)
		}
		for _, n := range e.Ranks {
			if !slices.Contains(oracleSizes, n) {
				continue
			}
			t.Run(e.Name+"/"+strconv.Itoa(n), func(t *testing.T) {
				res := mpioracle.Run(t, bins[e.Name], n, e.Args, 5*time.Minute)
				if res.TimedOut || res.Status != 0 {
					t.Fatalf("native run: status %d timed out %v\n%s", res.Status, res.TimedOut, res.Stderr)
				}
				want := pmpiCounts(t, res.Lines)
				got := limpioCounts(t, filepath.Join(apps, "bin", e.Name+".elf"), n, e.Args)
				if free := timingDependent[e.Name]; free != nil {
					compareFree(t, got, want, free)
					got, want = without(got, free), without(want, free)
				}
				compareCounts(t, n, got, want)
			})
		}
	}
}

// timingDependent lists, per program, the functions whose split among ranks 1..n-1 depends
// on timing and so differs between any two runs, native or simulated: master_worker hands
// the next unit to whichever worker answers first (MPI_ANY_SOURCE). Their counts are
// compared on rank 0 and summed over the other ranks; every other rank's own counts of them
// are compared by what the program guarantees: a worker receives one stop message per
// round more than it sends results.
var timingDependent = map[string][]string{"master_worker": {"MPI_Send", "MPI_Recv"}}

func compareFree(t *testing.T, got, want []map[string]int, free []string) {
	t.Helper()
	for _, name := range free {
		if got[0][name] != want[0][name] {
			t.Errorf("rank 0 %s: limpio counted %d, PMPI %d", name, got[0][name], want[0][name])
		}
		g, w := 0, 0
		for r := 1; r < len(got); r++ {
			g, w = g+got[r][name], w+want[r][name]
		}
		if g != w {
			t.Errorf("ranks 1-%d %s: limpio counted %d in all, PMPI %d", len(got)-1, name, g, w)
		}
	}
	for r := 1; r < len(got); r++ {
		g := got[r]["MPI_Recv"] - got[r]["MPI_Send"]
		w := want[r]["MPI_Recv"] - want[r]["MPI_Send"]
		if g != w {
			t.Errorf("rank %d: limpio counted %d more MPI_Recv than MPI_Send, PMPI %d", r, g, w)
		}
	}
}

// without copies counts leaving out names on every rank but 0.
func without(counts []map[string]int, names []string) []map[string]int {
	out := make([]map[string]int, len(counts))
	for r, c := range counts {
		out[r] = map[string]int{}
		for k, v := range c {
			if r == 0 || !slices.Contains(names, k) {
				out[r][k] = v
			}
		}
	}
	return out
}

// buildCounting compiles src and the PMPI wrapper as one translation unit (C or C++: the
// wrapper's definitions take the C linkage of mpi.h's extern "C" declarations); a Fortran
// program is linked with the wrapper compiled alone, since MPICH's Fortran bindings call
// the C entries the wrapper defines.
func buildCounting(t *testing.T, src, wrapper string, include string) string {
	t.Helper()
	ext := filepath.Ext(src)
	if lang, _ := mpioracle.LangOf(src); lang.Name == "Fortran" {
		mpicc := oracletest.Require(t, oracletest.MPICC)
		dir := t.TempDir()
		unit, obj := filepath.Join(dir, "pmpi_count.c"), filepath.Join(dir, "pmpi_count.o")
		if err := os.WriteFile(unit, []byte(fmt.Sprintf("#include <mpi.h>\n#include %q\n", wrapper)), 0o644); err != nil {
			t.Fatal(err)
		}
		if msg, err := exec.Command(mpicc, "-c", "-o", obj, unit).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", unit, err, msg)
		}
		return mpioracle.BuildLinking(t, src, []string{obj}, include)
	}
	unit := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(src), ext)+"_pmpi"+ext)
	body := fmt.Sprintf("#include %q\n#include %q\n", src, wrapper)
	if err := os.WriteFile(unit, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return mpioracle.Build(t, unit, include)
}

// pmpiCounts reads the wrapper's "pmpi NAME COUNT" lines of each rank.
func pmpiCounts(t *testing.T, lines [][]string) []map[string]int {
	out := make([]map[string]int, len(lines))
	for r, ls := range lines {
		out[r] = map[string]int{}
		for _, l := range ls {
			f := strings.Fields(l)
			if len(f) != 3 || f[0] != "pmpi" {
				continue
			}
			n, err := strconv.Atoi(f[2])
			if err != nil {
				t.Fatalf("rank %d: bad wrapper line %q", r, l)
			}
			out[r][f[1]] = n
		}
	}
	return out
}

const limpioCountChunk = `
local app = dpcl.launch(EXE, {nodes = NODES, per_io = 64, args = ARGS, quiet = true})
local prof = limpio.profile(app)
app:start()
local st = app:wait()
assert(st.exited == NODES, "not every rank exited: " .. tostring(st.exited))
local rows = prof:snapshot()
COUNTS = {}
for r = 0, NODES - 1 do
  local c = {}
  for name, n in pairs(rows[r].calls) do if n > 0 then c[name] = n end end
  COUNTS[r + 1] = c
end
app:close()
`

// limpioCounts profiles the program's ELF on the simulated machine.
func limpioCounts(t *testing.T, elf string, n int, args []string) []map[string]int {
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
	if err := s.DoString(limpioCountChunk, "limpio counts"); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	counts := L.GetGlobal("COUNTS").(*lua.LTable)
	res := make([]map[string]int, n)
	for r := 0; r < n; r++ {
		res[r] = map[string]int{}
		counts.RawGetInt(r + 1).(*lua.LTable).ForEach(func(k, v lua.LValue) {
			res[r][k.String()] = int(v.(lua.LNumber))
		})
	}
	return res
}

func compareCounts(t *testing.T, n int, got, want []map[string]int) {
	t.Helper()
	if len(want) != n {
		t.Fatalf("native run has %d ranks of output, want %d", len(want), n)
	}
	bad := 0
	for r := 0; r < n && bad < 10; r++ {
		names := map[string]bool{}
		for k := range got[r] {
			names[k] = true
		}
		for k := range want[r] {
			names[k] = true
		}
		for k := range names {
			if got[r][k] != want[r][k] {
				t.Errorf("rank %d %s: limpio counted %d, PMPI %d", r, k, got[r][k], want[r][k])
				bad++
			}
		}
	}
	if len(want[0]) == 0 {
		t.Fatal("the PMPI wrapper counted nothing on rank 0")
	}
}
