package ctx

import (
	"bytes"
	"github.com/dpclsh/dpclsh/script"
	"os"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/contexts"
	lua "github.com/yuin/gopher-lua"
)

// fakeApp stands in for an application: 10 ranks, I/O node of rank r is r % 3 (a map no
// consecutive grouping could express, so the test sees the application's own map used).
type fakeApp struct{ size int }

func (a fakeApp) Size() int             { return a.size }
func (a fakeApp) IONodeOf(rank int) int { return rank % 3 }

// sizedOnly is an object that knows its size but has no I/O node map.
type sizedOnly struct{}

func (sizedOnly) Size() int { return 12 }

func ctxSession(t *testing.T) (*script.Session, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	s, err := script.NewSessionWith(script.Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	for name, v := range map[string]any{"app": fakeApp{10}, "sized": sizedOnly{}} {
		ud := s.L.NewUserData()
		ud.Value = v
		s.L.SetGlobal(name, ud)
	}
	return s, &out
}

func TestCtxWithApplication(t *testing.T) {
	tests := []struct{ src, want string }{
		{`print(ctx.all(app))`, "ctx{0-9} (10 of 10)"},
		{`print(ctx.ranks(app, "2-4") + ctx.single(app, 9))`, "ctx{2-4,9} (4 of 10)"},
		{`print(ctx.where(app, function(r) return r > 6 end))`, "ctx{7-9} (3 of 10)"},
		{`print(ctx.ionode(app, 1))`, "ctx{1,4,7} (3 of 10)"},
		{`print(ctx.box(app, {2, 5, 1}, {1, 0, 0}, {1, 4, 0}))`, "ctx{1,3,5,7,9} (5 of 10)"},
		{`print(ctx.all(sized))`, "ctx{0-11} (12 of 12)"},
		{`print(pcall(function() return ctx.all(app) + ctx.all(sized) end))`,
			"false\tapp.lua:1: ctx: +: cannot combine contexts of different sizes: 10 and 12"},
		{`print(pcall(function() return ctx.ionode(app, 3) end))`,
			"false\tapp.lua:1: ctx.ionode: I/O node 3 serves no rank of this application"},
		{`print(pcall(function() return ctx.ionode(app, 0, 8) end))`,
			"false\tapp.lua:1: bad argument #3 to ionode (per_io applies to a plain size only; an application has its own I/O node map)"},
		{`print(pcall(function() return ctx.ionode(sized, 0) end))`,
			"false\tapp.lua:1: bad argument #1 to ionode (this object has no I/O node map; pass a plain size and per_io instead)"},
		{`print(pcall(function() return ctx.all(io.stdout) end))`,
			"false\tapp.lua:1: bad argument #1 to all (application or size expected, got userdata)"},
	}
	for _, tt := range tests {
		s, out := ctxSession(t)
		if err := s.DoString(tt.src, "app.lua"); err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if got := strings.TrimSuffix(out.String(), "\n"); got != tt.want {
			t.Errorf("%s printed\n%q, want\n%q", tt.src, got, tt.want)
		}
	}
}

// TestCtxGoValues checks what other bindings (install) get from a Context object: the Go
// context, with the aggregation as plain data and a filter object as its handle.
func TestCtxGoValues(t *testing.T) {
	s, _ := ctxSession(t)
	src := `
		filt = app -- any object stands for a loaded filter here
		c = ctx.ranks(8, "1-3"):aggregate{filter = filt, sync = "timeout", timeout_ms = 2.5,
			params = {bins = 4, labels = {"a", "b"}, opts = {log = true}}}
		d = ctx.all(8):aggregate("sum")`
	if err := s.DoString(src, "go.lua"); err != nil {
		t.Fatal(err)
	}
	c := s.L.GetGlobal("c").(*lua.LUserData).Value.(*contexts.Context)
	if c.Set.String() != "1-3" || c.Agg.Sync != contexts.SyncTimeout || c.Agg.Timeout.String() != "2.5ms" {
		t.Errorf("context = %v", c)
	}
	if c.Agg.Handle != s.L.GetGlobal("filt") || c.Agg.Filter != "" {
		t.Errorf("handle = %v, filter = %q", c.Agg.Handle, c.Agg.Filter)
	}
	p := c.Agg.Params
	if p["bins"] != 4.0 || p["labels"].([]any)[1] != "b" || p["opts"].(map[string]any)["log"] != true {
		t.Errorf("params = %#v", p)
	}
	d := s.L.GetGlobal("d").(*lua.LUserData).Value.(*contexts.Context)
	if d.Agg.Filter != "sum" || d.Agg.SyncMode() != contexts.SyncWaitForAll || d.Set.Count() != 8 {
		t.Errorf("d = %v", d)
	}
	if err := s.DoString(`assert(c:aggregation().filter == filt)`, "back.lua"); err != nil {
		t.Error(err)
	}
}

// TestCtxAlgebraExample runs examples/ctx_algebra.lua and compares its output with
// testdata/ctx_algebra.golden.
func TestCtxAlgebraExample(t *testing.T) {
	s, out := ctxSession(t)
	if err := s.DoFile("../../examples/ctx_algebra.lua", nil); err != nil {
		t.Fatal(script.FormatError(err, false))
	}
	want, err := os.ReadFile("testdata/ctx_algebra.golden")
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Errorf("examples/ctx_algebra.lua printed\n%s\nwant (testdata/ctx_algebra.golden)\n%s", out, want)
	}
}

func TestCtxInterruptStopsWhere(t *testing.T) {
	s, _ := ctxSession(t)
	s.L.SetGlobal("stop", s.L.NewFunction(func(L *lua.LState) int {
		s.Interrupt()
		return 0
	}))
	err := s.DoString(`ctx.where(1000000, function(r) if r == 10 then stop() end return true end)`, "stop.lua")
	if err == nil || !strings.Contains(err.Error(), "interrupt") {
		t.Errorf("interrupted ctx.where returned %v", err)
	}
}
