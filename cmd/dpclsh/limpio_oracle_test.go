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

	"github.com/dpclsh/dpclsh/internal/mpioracle"
	"github.com/dpclsh/dpclsh/internal/oracletest"
	lua "github.com/yuin/gopher-lua"
)

// pmpiOracleSetup returns the PMPI counting wrapper, the example apps' directory and
// their manifest's entries, and makes the repository root the working directory: what
// every test comparing the machine's counts with MPICH's PMPI needs first.
func pmpiOracleSetup(t *testing.T) (wrapper, apps string, entries []mpioracle.Entry) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if wrapper, err = filepath.Abs(filepath.Join("testdata", "limpio", "pmpi_count.h")); err != nil {
		t.Fatal(err)
	}
	apps = filepath.Join(root, "examples", "apps")
	if entries, err = mpioracle.LoadManifest(filepath.Join(apps, "MANIFEST")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	return wrapper, apps, entries
}

// oracleSizes are the rank counts at which limpio's counts are checked against MPICH;
// those above longSize only with DPCL_TEST_LONG=1 or DPCL_TEST_INTERP=1 (skipUnlessLong).
var oracleSizes = []int{1, 7, 64}

// longSize is the largest oracle size of the default run.
const longSize = 8

// TestLimpioCountsMatchPMPI checks limpio.profile's call counts, per MPI function per rank,
// on every example program against the same program built natively with MPICH and a PMPI
// counting wrapper (testdata/limpio/pmpi_count.h) and run under MPICH; and the same counts
// summed over the function's callsites (every call of the program is filed under one of
// its own callsites, none under "other"), and the bytes the calls move (count x type
// size, MPICH's PMPI_Type_size), per function per rank; and, for C and C++ programs, the
// calls per callsite per rank, each callsite named by its function and the file:line that
// addr2line gives for it (the native wrapper's return address in the native build, limpio's
// in the PowerPC ELF, through powerpc-linux-gnu-addr2line, which must also be the
// file:line limpio resolved itself). The subtests run in parallel; the counting builds and
// native runs are made once per run and shared with TestTraceCountsMatchPMPI (fixtures_test.go).
func TestLimpioCountsMatchPMPI(t *testing.T) {
	wrapper, apps, entries := pmpiOracleSetup(t)
	for _, e := range entries {
		for _, n := range e.Ranks {
			if !slices.Contains(oracleSizes, n) {
				continue
			}
			t.Run(e.Name+"/"+strconv.Itoa(n), func(t *testing.T) {
				if n > longSize {
					skipUnlessLong(t, n)
				}
				t.Parallel()
				res := nativeCountingRun(t, apps, wrapper, e.Name, n, e.Args)
				want, wantBytes := pmpiCounts(t, res.Lines)
				elf := filepath.Join(apps, "bin", e.Name+".elf")
				got, sites, bytes, at := limpioCounts(t, elf, n, e.Args)
				if !isFortran(e.Name, apps) {
					bin := countingBinary(t, apps, wrapper, e.Name)
					compareCallsites(t, n, e.Name, pmpiCallsites(t, bin, res.Lines), limpioCallsites(t, elf, at))
				}
				if free := timingDependent[e.Name]; free != nil {
					compareFree(t, got, want, free)
					compareSums(t, "callsite calls", sites, want, free)
					got, want = without(got, free), without(want, free)
					sites = without(sites, free)
				}
				if free := append(timingDependent[e.Name], timingDependentBytes[e.Name]...); len(free) > 0 {
					compareSums(t, "bytes", bytes, wantBytes, free)
					bytes, wantBytes = without(bytes, free), without(wantBytes, free)
				}
				if len(want[0]) == 0 {
					t.Fatal("the PMPI wrapper counted nothing on rank 0")
				}
				compareCounts(t, n, "counted", got, want)
				compareCounts(t, n, "counted at its callsites", sites, want)
				compareCounts(t, n, "measured bytes", bytes, wantBytes)
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

// timingDependentBytes lists the functions whose calls are fixed but whose bytes per rank
// follow the timing: master_worker's workers gather the results of the units they happened
// to get. Their bytes are compared on rank 0 and summed over the other ranks.
var timingDependentBytes = map[string][]string{"master_worker": {"MPI_Gatherv"}}

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

// compareSums compares, for the timing-dependent functions, rank 0 and the sum over the
// other ranks.
func compareSums(t *testing.T, what string, got, want []map[string]int, free []string) {
	t.Helper()
	for _, name := range free {
		if got[0][name] != want[0][name] {
			t.Errorf("rank 0 %s %s: limpio %d, PMPI %d", name, what, got[0][name], want[0][name])
		}
		g, w := 0, 0
		for r := 1; r < len(got); r++ {
			g, w = g+got[r][name], w+want[r][name]
		}
		if g != w {
			t.Errorf("ranks 1-%d %s %s: limpio %d in all, PMPI %d", len(got)-1, name, what, g, w)
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
func buildCounting(t testing.TB, src, wrapper string, include string) string {
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

// pmpiCounts reads the wrapper's "pmpi NAME COUNT BYTES" lines of each rank: counts and
// bytes (functions that move none are left out of the bytes).
func pmpiCounts(t *testing.T, lines [][]string) (counts, bytes []map[string]int) {
	counts, bytes = make([]map[string]int, len(lines)), make([]map[string]int, len(lines))
	for r, ls := range lines {
		counts[r], bytes[r] = map[string]int{}, map[string]int{}
		for _, l := range ls {
			f := strings.Fields(l)
			if len(f) != 4 || f[0] != "pmpi" {
				continue
			}
			n, err := strconv.Atoi(f[2])
			b, err2 := strconv.Atoi(f[3])
			if err != nil || err2 != nil {
				t.Fatalf("rank %d: bad wrapper line %q", r, l)
			}
			counts[r][f[1]] = n
			if b > 0 {
				bytes[r][f[1]] = b
			}
		}
	}
	return counts, bytes
}

const limpioCountChunk = `
local app = dpcl.launch(EXE, {nodes = NODES, per_io = 64, args = ARGS, quiet = true})
local prof = limpio.profile(app)
app:start()
local st = app:wait()
assert(st.exited == NODES, "not every rank exited: " .. tostring(st.exited))
local rows = prof:snapshot()
prof:callsites()
COUNTS, SITES, BYTES, AT = {}, {}, {}, {}
for r = 0, NODES - 1 do
  local c = {}
  for name, n in pairs(rows[r].calls) do if n > 0 then c[name] = n end end
  COUNTS[r + 1] = c
  local s, b = {}, {}
  local sr = prof.site_rank_rows[r]
  for i, site in ipairs(prof.site_table.sites) do
    local v = sr.sites[i]
    if v and v.count > 0 then
      s[site.name] = (s[site.name] or 0) + v.count
      if v.bytes > 0 then b[site.name] = (b[site.name] or 0) + v.bytes end
    end
  end
  local other = sr.sites[#prof.site_table.sites + 1]
  if other and other.count > 0 then s["(other)"] = other.count end
  SITES[r + 1], BYTES[r + 1] = s, b
  local at = {}
  for i, site in ipairs(prof.site_table.sites) do
    local v = sr.sites[i]
    if v and v.count > 0 then
      at[#at + 1] = {name = site.name, ret = site.ret, file = site.file, line = site.line, count = v.count}
    end
  end
  AT[r + 1] = at
end
app:close()
`

// limpioCounts profiles the program's ELF on the simulated machine: per rank the calls
// per function, the calls summed over each function's callsites, the bytes, and the calls
// at each callsite.
func limpioCounts(t *testing.T, elf string, n int, args []string) (counts, sites, moved []map[string]int, at [][]limpioSite) {
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
	read := func(global string) []map[string]int {
		tbl := L.GetGlobal(global).(*lua.LTable)
		res := make([]map[string]int, n)
		for r := 0; r < n; r++ {
			res[r] = map[string]int{}
			tbl.RawGetInt(r + 1).(*lua.LTable).ForEach(func(k, v lua.LValue) {
				res[r][k.String()] = int(v.(lua.LNumber))
			})
		}
		return res
	}
	at = make([][]limpioSite, n)
	tbl := L.GetGlobal("AT").(*lua.LTable)
	for r := 0; r < n; r++ {
		tbl.RawGetInt(r + 1).(*lua.LTable).ForEach(func(_, v lua.LValue) {
			st := v.(*lua.LTable)
			num := func(k string) int { return int(st.RawGetString(k).(lua.LNumber)) }
			at[r] = append(at[r], limpioSite{name: st.RawGetString("name").String(), ret: uint32(num("ret")),
				file: st.RawGetString("file").String(), line: num("line"), count: num("count")})
		})
	}
	return read("COUNTS"), read("SITES"), read("BYTES"), at
}

func compareCounts(t *testing.T, n int, what string, got, want []map[string]int) {
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
				t.Errorf("rank %d %s: limpio %s %d, PMPI %d", r, k, what, got[r][k], want[r][k])
				bad++
			}
		}
	}
}
