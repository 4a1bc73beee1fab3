package dpcl_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/script/scripttest"
)

// TestAddresses: functions, points, p:pc() and backtraces give one address type, printed
// as 0x%08x and still usable as a number.
func TestAddresses(t *testing.T) {
	s, out := scripttest.New(t)
	err := s.DoString(`app = dpcl.launch("../../examples/apps/bin/ring.elf", {nodes = 8, per_io = 8, quiet = true})
f = app:functions("MPI_Send")[1]
p = app:points("MPI_Send", "entry")[1]
print(f.addr, p.addr == f.addr, rawequal(p.addr, f.addr), tostring(p):find(tostring(f.addr):sub(3), 1, true) ~= nil)
print(f.addr + 4, (f.addr + 4) - f.addr, f.addr - 0 == f.addr, f.addr < f.addr + 1, f.addr % 4)
print(string.format("%x|%d|%s", f.addr, f.addr, f.addr), tonumber(f.addr) == f.addr:num(), "at " .. f.addr)
seen = {[f.addr] = true}
print(seen[app:functions("MPI_Send")[1].addr], f.addr == f.addr:num(), ppc.disasm(0x60000000, f.addr))
pc = app:process(0):pc()
print(tostring(pc):match("^0x%x%x%x%x%x%x%x%x$") ~= nil, #app:process(0):read(pc, 4))
pp(app:process(0):backtrace()[1].addr == pc, app:functions("MPI_Send"))`, "t")
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	lines := strings.Split(out.String(), "\n")
	addr := strings.Fields(lines[0])[0]
	if len(addr) != 10 || !strings.HasPrefix(addr, "0x") || lines[0] != addr+"\ttrue\ttrue\ttrue" {
		t.Fatalf("line 1: %q", lines[0])
	}
	var n uint64
	fmt.Sscanf(addr, "0x%x", &n)
	want := []string{
		fmt.Sprintf("0x%08x\t4\ttrue\ttrue\t0", n+4),
		fmt.Sprintf("%x|%d|%s\ttrue\tat %s", n, n, addr, addr),
		"true\tfalse\tnop",
		"true\t4",
	}
	for i, w := range want {
		if lines[i+1] != w {
			t.Errorf("line %d: %q, want %q", i+2, lines[i+1], w)
		}
	}
	if !strings.Contains(out.String(), "addr = "+addr) {
		t.Errorf("pp shows the address as %s:\n%s", addr, out.String())
	}
}
