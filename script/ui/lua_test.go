package ui

import "testing"

func TestLuaQuote(t *testing.T) {
	tests := map[string]string{
		`cg.c`:          `"cg.c"`,
		`a"b`:           `"a\"b"`,
		`a\b`:           `"a\\b"`,
		"x\ny":          `"x\ny"`,
		"nul\x00\x1b":   `"nul\000\027"`,
		`]] .. os.exit`: `"]] .. os.exit"`,
	}
	for in, want := range tests {
		if got := luaQuote(in); got != want {
			t.Errorf("luaQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestOpLines(t *testing.T) {
	tests := []struct {
		op   Op
		want string // the echoed line; "" when the op is refused
	}{
		{Op{Op: "start"}, `app:start()`},
		{Op{Op: "load", Modules: []string{"counter", `t"x`}}, `dpcl.load_modules{"counter", "t\"x"}`},
		{Op{Op: "act", Action: "timer.start", File: "cg.c", Line: 57, Ctx: "sample:10:42"},
			`app:act("timer.start", app:points("cg.c:57"), {context = ctx.all(app):sample(10, 42)})`},
		{Op{Op: "act", Action: "counter.count", File: "cg.c", Line: 57, Ctx: "ranks:0-7,12"},
			`app:act("counter.count", app:points("cg.c:57"), {context = ctx.ranks(app, "0-7,12")})`},
		{Op{Op: "remove", Action: "counter.count", File: "cg.c", Line: 57},
			`for _, a in ipairs(app:acts()) do if a.name == "counter.count" and a.file == "cg.c" and a.line == 57 then a:remove() end end`},
		{Op{Op: "bulk", Action: "counter.count", Regex: `^MPI_(Send|Recv)$`, Kind: "entry", Ctx: "ionode:1"},
			`app:act("counter.count", app:points{regex = "^MPI_(Send|Recv)$", kind = "entry"}, {context = ctx.ionode(app, 1)})`},
		{Op{Op: "load"}, ""},
		{Op{Op: "act", Action: "count()", File: "cg.c", Line: 1}, ""},
		{Op{Op: "act", Action: "counter.count", File: "", Line: 1}, ""},
		{Op{Op: "act", Action: "counter.count", File: "cg.c", Line: 1, Ctx: "ionode:-1"}, ""},
		{Op{Op: "act", Action: "counter.count", File: "cg.c", Line: 1, Ctx: "ranks:"}, ""},
		{Op{Op: "act", Action: "counter.count", File: "cg.c", Line: 1, Ctx: "where:1"}, ""},
		{Op{Op: "bulk", Action: "counter.count", Regex: "x", Kind: "middle"}, ""},
		{Op{Op: "terminate"}, ""},
	}
	for _, tc := range tests {
		c, err := tc.op.Lua()
		switch {
		case tc.want == "" && err == nil:
			t.Errorf("%+v: accepted as %s", tc.op, c.Echo)
		case tc.want != "" && (err != nil || c.Echo != tc.want):
			t.Errorf("%+v: got %q, %v; want %s", tc.op, c.Echo, err, tc.want)
		}
	}
}
