package dpcl

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/script"

	"github.com/dpclsh/dpclsh/probes"
	lua "github.com/yuin/gopher-lua"
)

// probeSession is a session with probe variables n (int), w (int64) and d (double) set as
// globals the way app:var returns them.
func probeSession(t *testing.T) (*script.Session, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	s, err := script.NewSessionWith(script.Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	slots := probes.NewSlots(0x0f000000, 0x100)
	for _, v := range []struct {
		name string
		t    probes.Type
	}{{"n", probes.Int}, {"w", probes.Int64}, {"d", probes.Double}} {
		pv, err := slots.Alloc(v.name, v.t)
		if err != nil {
			t.Fatal(err)
		}
		s.L.SetGlobal(v.name, PushProbeVar(s.L, pv))
	}
	return s, &out
}

func TestProbeVariables(t *testing.T) {
	tests := []struct{ src, want string }{
		{`print(n:assign(n + 1))`, "(n = (n + 1))"},
		{`print(w:assign(n * 2), w:assign(n):type())`, "(w = (n * 2))\tint64"},
		{`print(d:assign(d + n))`, "(d = (d + n))"},
		{`print(probe.when(n:gt(10), probe.seq{probe.send(n, d), n:assign(0)}))`,
			"if ((n > 10)) (send(n, d), (n = 0))"},
		{`print(pcall(function() return n:assign(0.5) end))`,
			"false\tt.lua:1: assign: cannot assign double to int variable n in (n = 0.5)"},
		{`print(pcall(function() return n:assign(w) end))`,
			"false\tt.lua:1: assign: cannot assign int64 to int variable n in (n = w)"},
		{`print(pcall(function() return n:assign(probe.send(1)) end))`,
			"false\tt.lua:1: assign: cannot assign void to int variable n in (n = send(1))"},
		{`print(pcall(function() return n + true end))`,
			"false\tt.lua:1: the + operator of a probe expression: its right side is a Lua boolean, not a probe expression: use e:eq(x) (or e:ne, e:lt, e:le, e:gt, e:ge) to compare"},
		{`print(pcall(function() return probe.arg(1) + 'x' end))`,
			"false\tt.lua:1: the + operator of a probe expression needs a probe expression or a number on each side; its right side is string \"x\""},
		{`print(pcall(function() return {} % n end))`,
			"false\tt.lua:1: the % operator of a probe expression needs a probe expression or a number on each side; its left side is table"},
	}
	for _, tt := range tests {
		s, out := probeSession(t)
		if err := s.DoString(tt.src, "t.lua"); err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if got := strings.TrimSuffix(out.String(), "\n"); got != tt.want {
			t.Errorf("%s printed\n%q, want\n%q", tt.src, got, tt.want)
		}
	}
}

func TestProbeDisasmUsesTheSessionsTarget(t *testing.T) {
	s, out := probeSession(t)
	SetProbeTarget(s, func() *probes.Target {
		return &probes.Target{Resolve: func(name string) (uint32, bool) { return 0x10001230, name == "f" }}
	})
	if err := s.DoString(`io.write(n:assign(probe.call("f", n)):disasm(0x1000))`, "t.lua"); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"    1000:", "lis     r0,4096", "ori     r0,r0,4656", "mtctr   r0", "bctrl"} {
		if !strings.Contains(text, want) {
			t.Errorf("disassembly lacks %q:\n%s", want, text)
		}
	}
}

func TestProbeExpOf(t *testing.T) {
	s, _ := probeSession(t)
	L := s.L
	L.Push(lua.LNumber(2.5))
	if e := ProbeExpOf(L, L.GetTop()); e.String() != "2.5" {
		t.Errorf("2.5 became %v", e)
	}
	L.Push(lua.LNumber(7))
	if e := ProbeExpOf(L, L.GetTop()); e.Val != probes.IntValue(7) {
		t.Errorf("7 became %v", e)
	}
}
