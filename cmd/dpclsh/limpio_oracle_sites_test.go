package main

import (
	"debug/elf"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/internal/mpioracle"
	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// limpioSite is one callsite's calls on one rank as limpio counted them: the MPI function,
// the return address and the file:line limpio resolved.
type limpioSite struct {
	name  string
	ret   uint32
	file  string
	line  int
	count int
}

// isFortran reports whether the example is Fortran: its MPI calls reach the wrapper through
// MPICH's Fortran bindings, so the wrapper's return address is inside those, not the program.
func isFortran(name, apps string) bool {
	src, err := mpioracle.SourceOf(apps, name)
	if err != nil {
		return false
	}
	lang, _ := mpioracle.LangOf(src)
	return lang.Name == "Fortran"
}

// addr2line resolves addrs in bin to "file:line" (the file's base name; discriminators
// and column left out) with the given addr2line.
func addr2line(t *testing.T, tool, bin string, addrs []uint64) map[uint64]string {
	t.Helper()
	args := []string{"-e", bin}
	for _, a := range addrs {
		args = append(args, fmt.Sprintf("0x%x", a))
	}
	out, err := exec.Command(tool, args...).Output()
	if err != nil {
		t.Fatalf("%s %s: %v", tool, bin, err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(addrs) {
		t.Fatalf("%s %s: %d lines for %d addresses", tool, bin, len(lines), len(addrs))
	}
	res := map[uint64]string{}
	for i, l := range lines {
		l, _, _ = strings.Cut(l, " ")
		file, line, _ := strings.Cut(l, ":")
		res[addrs[i]] = filepath.Base(file) + ":" + line
	}
	return res
}

// pmpiCallsites reads the wrapper's "pmpisite NAME 0xOFFSET COUNT" lines of each rank and
// names each callsite "NAME file:line" through the host's addr2line on the native build
// (at the call, one byte before the return address: x86 calls end there).
func pmpiCallsites(t *testing.T, bin string, lines [][]string) []map[string]int {
	t.Helper()
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	var start uint64
	for _, s := range syms {
		if s.Name == "__executable_start" {
			start = s.Value
		}
	}
	type site struct {
		name string
		addr uint64
		n    int
	}
	per := make([][]site, len(lines))
	var addrs []uint64
	for r, ls := range lines {
		for _, l := range ls {
			fs := strings.Fields(l)
			if len(fs) != 4 || fs[0] != "pmpisite" {
				continue
			}
			off, err := strconv.ParseUint(fs[2], 0, 64)
			n, err2 := strconv.Atoi(fs[3])
			if err != nil || err2 != nil {
				t.Fatalf("rank %d: bad wrapper line %q", r, l)
			}
			a := start + off - 1
			per[r] = append(per[r], site{fs[1], a, n})
			if !slices.Contains(addrs, a) {
				addrs = append(addrs, a)
			}
		}
	}
	if len(addrs) == 0 {
		t.Fatal("the PMPI wrapper counted no callsite")
	}
	where := addr2line(t, oracletest.Require(t, "addr2line"), bin, addrs)
	out := make([]map[string]int, len(lines))
	for r, ss := range per {
		out[r] = map[string]int{}
		for _, s := range ss {
			out[r][s.name+" "+where[s.addr]] += s.n
		}
	}
	return out
}

// limpioCallsites names limpio's callsites by powerpc-linux-gnu-addr2line at the call (the
// instruction before the return address), failing where that is not limpio's own
// file:line.
func limpioCallsites(t *testing.T, elfPath string, at [][]limpioSite) []map[string]int {
	t.Helper()
	tool := oracletest.Require(t, "powerpc-linux-gnu-addr2line")
	var addrs []uint64
	for _, ss := range at {
		for _, s := range ss {
			if a := uint64(s.ret - 4); !slices.Contains(addrs, a) {
				addrs = append(addrs, a)
			}
		}
	}
	where := addr2line(t, tool, elfPath, addrs)
	out := make([]map[string]int, len(at))
	bad := map[uint32]bool{}
	for r, ss := range at {
		out[r] = map[string]int{}
		for _, s := range ss {
			w := where[uint64(s.ret-4)]
			if own := filepath.Base(s.file) + ":" + strconv.Itoa(s.line); own != w && !bad[s.ret] {
				bad[s.ret] = true
				t.Errorf("callsite %s returning to 0x%x: limpio says %s, addr2line %s", s.name, s.ret, own, w)
			}
			out[r][s.name+" "+w] += s.count
		}
	}
	return out
}

// compareCallsites compares calls per callsite per rank; for master_worker's
// timing-dependent functions, rank 0 and the sum over the other ranks per callsite.
func compareCallsites(t *testing.T, n int, prog string, want, got []map[string]int) {
	t.Helper()
	if free := timingDependent[prog]; free != nil {
		var keys []string
		for _, m := range append(slices.Clone(got), want...) {
			for k := range m {
				name, _, _ := strings.Cut(k, " ")
				if slices.Contains(free, name) && !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
			}
		}
		compareSums(t, "callsite calls", got, want, keys)
		got, want = without(got, keys), without(want, keys)
	}
	compareCounts(t, n, "calls at the callsite", got, want)
}
