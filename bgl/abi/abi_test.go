package abi

import (
	"bufio"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

var update = flag.Bool("update", false, "rewrite bgl/target/dpcl_bgl.h from CHeader")

const headerFile = "../target/dpcl_bgl.h"

func TestHeaderUpToDate(t *testing.T) {
	want := CHeader()
	if *update {
		if err := os.WriteFile(headerFile, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(headerFile)
	if err != nil {
		t.Fatalf("reading %s: %v", headerFile, err)
	}
	if string(got) != want {
		t.Fatalf("%s is stale: run go test ./bgl/abi -run TestHeaderUpToDate -update", HeaderPath)
	}
}

// TestHeaderCompiles builds a program calling every hypercall with the cross compiler.
func TestHeaderCompiles(t *testing.T) {
	gcc := oracletest.Require(t, oracletest.GCC)
	dir := t.TempDir()
	var src strings.Builder
	src.WriteString("#include \"dpcl_bgl.h\"\nint main(void) {\n\tchar b[4] = {0};\n\tlong long s = 0;\n")
	for _, h := range Hypercalls {
		switch h.Args {
		case 0:
			src.WriteString("\ts += " + h.Name + "();\n")
		case 1:
			src.WriteString("\ts += " + h.Name + "(DPCL_COUNTER_CYCLES);\n")
		case 2:
			src.WriteString("\ts += " + h.Name + "(b, 4);\n")
		}
	}
	src.WriteString("\treturn (int)s;\n}\n")
	c := filepath.Join(dir, "h.c")
	if err := os.WriteFile(c, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	inc, _ := filepath.Abs("../target")
	out, err := exec.Command(gcc, "-mcpu=440fp", "-static", "-O2", "-Wall", "-Werror", "-I", inc, "-o", filepath.Join(dir, "h.elf"), c).CombinedOutput()
	if err != nil {
		t.Fatalf("compiling with dpcl_bgl.h: %v\n%s", err, out)
	}
}

// TestSyscallNumbersMatchKernelHeader checks the generated table against the cross
// toolchain's kernel header, when it is installed.
func TestSyscallNumbersMatchKernelHeader(t *testing.T) {
	oracletest.Require(t, oracletest.GCC)
	f, err := os.Open("/usr/powerpc-linux-gnu/include/asm/unistd_32.h")
	if err != nil {
		t.Skipf("kernel header not found: %v", err)
	}
	defer f.Close()
	re := regexp.MustCompile(`^#define __NR_(\w+)\s+(\d+)`)
	sc := bufio.NewScanner(f)
	seen := 0
	for sc.Scan() {
		m := re.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		if got := Sysno(n).Name(); got != m[1] {
			t.Errorf("syscall %d: table says %q, header says %q", n, got, m[1])
		}
		seen++
	}
	if seen != len(sysnames) {
		t.Errorf("header has %d calls, table %d", seen, len(sysnames))
	}
}

func TestNumbers(t *testing.T) {
	tests := []struct {
		n    Sysno
		name string
	}{
		{SysRead, "read"}, {SysWrite, "write"}, {SysBrk, "brk"}, {SysLlseek, "_llseek"},
		{SysStatx, "statx"}, {SysExitGroup, "exit_group"}, {SysClockGettime64, "clock_gettime64"},
		{HcRank, "dpcl_rank"}, {HcAisSend, "dpcl_ais_send"}, {0x7fff, "sys_32767"},
	}
	for _, tt := range tests {
		if got := tt.n.Name(); got != tt.name {
			t.Errorf("Sysno(%d).Name() = %q, want %q", tt.n, got, tt.name)
		}
	}
	last := LinuxSyscalls()
	if max := last[len(last)-1]; max >= HypercallFirst {
		t.Fatalf("Linux call %d reaches the hypercall range", max)
	}
	for _, h := range Hypercalls {
		inTool := h.Num >= ToolFirst && h.Num <= ToolLast
		inMPI := h.Num >= MPIFirst && h.Num <= MPILast
		if !inTool && !inMPI {
			t.Errorf("%s (0x%x) is outside the tool and MPI ranges", h.Name, uint32(h.Num))
		}
		if !h.Num.IsHypercall() || h.Num.IsLinux() {
			t.Errorf("%s: classification wrong", h.Name)
		}
	}
	if MPIFirst <= ToolLast || MPILast > HypercallLast {
		t.Fatal("MPI range overlaps the tool range or leaves the hypercall range")
	}
}

func TestCounterNames(t *testing.T) {
	for c := Counter(0); c < NumCounters; c++ {
		got, ok := CounterByName(c.Name())
		if !ok || got != c {
			t.Errorf("CounterByName(%q) = %d, %v", c.Name(), got, ok)
		}
	}
	if _, ok := CounterByName("nope"); ok {
		t.Error("unknown counter accepted")
	}
}

func TestErrnoNames(t *testing.T) {
	if EACCES.Error() != "EACCES" || Errno(999).Error() != "errno 999" {
		t.Fatalf("got %q, %q", EACCES.Error(), Errno(999).Error())
	}
}
