package probes

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
	"github.com/dpclsh/dpclsh/ppc"
)

func openProgram(t testing.TB, name string) *Program {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := loadProgram(data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// loadProgram is the program of an executable's bytes, loaded as the machine loads it.
func loadProgram(data []byte) (*Program, error) {
	img, err := ppc.LoadELF(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return NewProgram(img), nil
}

func mustFunc(t testing.TB, p *Program, name string) Func {
	t.Helper()
	f, ok := p.Lookup(name)
	if !ok {
		t.Fatalf("no function %s", name)
	}
	return f
}

func points(t testing.TB, p *Program, fn string, k PointKind) []Point {
	t.Helper()
	ps, err := p.Points(mustFunc(t, p, fn), k)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// mnemonic is the first word of the instruction's disassembly at p.
func mnemonic(pt Point) string {
	text := disasmWords([]uint32{pt.Word}, pt.Addr)
	f := bytes.Fields([]byte(text))
	return string(f[2])
}

func TestPointsO2(t *testing.T) {
	p := openProgram(t, "points-O2.elf")
	tests := []struct {
		fn    string
		kind  PointKind
		want  []string // mnemonics in address order
		calls []string // callees, when checked
	}{
		{"gcd", PointExit, []string{"beqlr-", "beqlr-", "blr"}, nil},
		{"tail", PointExit, []string{"b"}, []string{"twice"}},
		{"clamp_pos", PointExit, []string{"blr"}, nil},
		{"classify", PointCall, []string{"bl", "bl"}, []string{"clamp_pos", "twice"}},
		{"apply", PointExit, []string{"bctr"}, []string{""}},
		{"spin", PointEntry, []string{"mulli"}, nil},
		{"bump", PointExit, []string{"blr"}, nil},
		{"dispatch", PointExit, []string{"bctr"}, []string{""}},
	}
	for _, tt := range tests {
		ps := points(t, p, tt.fn, tt.kind)
		var got, callees []string
		for _, pt := range ps {
			got = append(got, mnemonic(pt))
			callees = append(callees, pt.Callee)
		}
		if !equalStrings(got, tt.want) {
			t.Errorf("%s %s points: %q, want %q", tt.fn, tt.kind, got, tt.want)
		}
		if tt.calls != nil && !equalStrings(callees, tt.calls) {
			t.Errorf("%s %s callees: %q, want %q", tt.fn, tt.kind, callees, tt.calls)
		}
	}
	// classify's switch is dispatched by bctr: it stays inside, so every exit is a blr.
	for _, pt := range points(t, p, "classify", PointExit) {
		if m := mnemonic(pt); m != "blr" {
			t.Errorf("classify exit %v is %s", pt, m)
		}
	}
	if e := points(t, p, "spin", PointEntry)[0]; !e.BranchTarget {
		t.Errorf("spin's entry is a loop head but BranchTarget is false")
	}
	if e := points(t, p, "gcd", PointEntry)[0]; e.BranchTarget {
		t.Errorf("gcd's entry is not a branch target")
	}
}

// TestLinesMatchAddr2line compares the file:line of every instruction of points.c's
// functions with addr2line's.
func TestLinesMatchAddr2line(t *testing.T) {
	oracletest.Require(t, oracletest.Objdump)
	addr2line, err := exec.LookPath("powerpc-linux-gnu-addr2line")
	if err != nil {
		t.Skip("powerpc-linux-gnu-addr2line not installed")
	}
	for _, name := range []string{"points-O0.elf", "points-O2.elf"} {
		p := openProgram(t, name)
		var addrs []string
		var want []uint32
		for _, fn := range p.Funcs {
			if fn.File != "points.c" {
				continue
			}
			for a := fn.Addr; a < fn.Addr+fn.Size; a += 4 {
				addrs = append(addrs, strconv.FormatUint(uint64(a), 16))
				want = append(want, a)
			}
		}
		if len(addrs) < 100 {
			t.Fatalf("%s: only %d instructions in points.c functions", name, len(addrs))
		}
		out, err := exec.Command(addr2line, append([]string{"-e", "testdata/" + name}, addrs...)...).Output()
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		for i, a := range want {
			ref, _, _ := strings.Cut(lines[i], " ")
			file, line := p.LineOf(a)
			if !strings.HasPrefix(file, "/") {
				file = "./" + file // the compilation directory is "." (-ffile-prefix-map)
			}
			if got := fmt.Sprintf("%s:%d", file, line); got != ref {
				t.Errorf("%s 0x%x: %s, addr2line says %s", name, a, got, ref)
			}
		}
	}
}

func TestPointsO0Recursion(t *testing.T) {
	p := openProgram(t, "points-O0.elf")
	calls := points(t, p, "fact", PointCall)
	if len(calls) != 1 || calls[0].Callee != "fact" {
		t.Fatalf("fact's call sites: %v, want one recursive call", calls)
	}
	if calls := points(t, p, "apply", PointCall); len(calls) != 1 || mnemonic(calls[0]) != "bctrl" {
		t.Errorf("apply's call sites: %v, want one bctrl", calls)
	}
	// The bcl 20,31,.+4 idiom is not a call site.
	for _, pt := range points(t, p, "clamp_pos", PointCall) {
		t.Errorf("clamp_pos has no calls, got %v", pt)
	}
}

func TestPointsRefuseAtomicWindow(t *testing.T) {
	p := openProgram(t, "points-O2.elf")
	fn := mustFunc(t, p, "bump")
	var lwarx uint32
	for a := fn.Addr; a < fn.Addr+fn.Size; a += 4 {
		if w, _ := p.Word(a); isLwarx(w) {
			lwarx = a
		}
	}
	if lwarx == 0 {
		t.Fatal("bump has no lwarx")
	}
	if _, err := p.PointAt(lwarx); err != nil {
		t.Errorf("the lwarx itself is a valid point: %v", err)
	}
	for _, a := range []uint32{lwarx + 4, lwarx + 8} {
		_, err := p.PointAt(a)
		var pe *PointError
		if !errors.As(err, &pe) || pe.Addr != a || pe.Func != "bump" {
			t.Errorf("PointAt(0x%x) = %v, want a PointError inside the window", a, err)
		}
	}
	if _, err := p.PointAt(lwarx + 12); err != nil {
		t.Errorf("the branch after stwcx. is a valid point: %v", err)
	}
	if _, err := p.PointAt(lwarx + 2); err == nil {
		t.Error("a misaligned address was accepted")
	}
}

// TestCallSitesMatchObjdump checks, over every function of a static glibc program, that
// each "bl <function>" objdump prints is a call point with that callee.
func TestCallSitesMatchObjdump(t *testing.T) {
	objdump := oracletest.Require(t, oracletest.Objdump)
	p := openProgram(t, "points-O2.elf")
	out, err := exec.Command(objdump, "-d", "-M440", "testdata/points-O2.elf").Output()
	if err != nil {
		t.Fatal(err)
	}
	calls := map[uint32]Point{}
	for _, fn := range p.Funcs {
		ps, err := p.Points(fn, PointCall)
		if err != nil {
			continue // functions with calls inside an atomic window are refused whole
		}
		for _, pt := range ps {
			calls[pt.Addr] = pt
		}
	}
	re := regexp.MustCompile(`^ *([0-9a-f]+):\s+(?:[0-9a-f]{2} ){4}\s*bl\s+([0-9a-f]+) <([^+>]+)>$`)
	sc := bufio.NewScanner(bytes.NewReader(out))
	checked := 0
	for sc.Scan() {
		m := re.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		addr, _ := strconv.ParseUint(m[1], 16, 32)
		target, _ := strconv.ParseUint(m[2], 16, 32)
		if _, in := p.FuncAt(uint32(addr)); !in {
			continue
		}
		checked++
		pt, ok := calls[uint32(addr)]
		switch {
		case !ok:
			t.Errorf("bl at 0x%x (to %s) is not a call point", addr, m[3])
		case pt.Target != uint32(target):
			t.Errorf("bl at 0x%x: target 0x%x, objdump says 0x%x", addr, pt.Target, target)
		case pt.Callee != "":
			if f, ok := p.Lookup(m[3]); ok && f.Name != pt.Callee {
				t.Errorf("bl at 0x%x: callee %q, objdump says %q (%q)", addr, pt.Callee, m[3], f.Name)
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d bl instructions checked", checked)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
