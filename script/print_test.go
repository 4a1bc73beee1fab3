package script

import (
	"bytes"
	"strings"
	"testing"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		src  string
		opts FormatOptions
		want string
	}{
		{`nil`, DefaultFormat, `nil`},
		{`true`, DefaultFormat, `true`},
		{`42`, DefaultFormat, `42`},
		{`-0.25`, DefaultFormat, `-0.25`},
		{`2^53`, DefaultFormat, `9007199254740992`},
		{`1e20`, DefaultFormat, `1e+20`},
		{`1/3`, DefaultFormat, `0.33333333333333`},
		{`0/0`, DefaultFormat, `0/0`},
		{`"a\"b\\c\n\t\0\200"`, DefaultFormat, `"a\"b\\c\n\t\0\200"`},
		{`"héllo"`, DefaultFormat, `"héllo"`},
		{`{}`, DefaultFormat, `{}`},
		{`{1, 2, 3}`, DefaultFormat, `{1, 2, 3}`},
		{`{1, nil, 3}`, DefaultFormat, `{1, [3] = 3}`},
		{`{b = 1, a = 2, [2.5] = 0, [-1] = 0, ["x y"] = 1, ["end"] = 1, [true] = 1}`, DefaultFormat,
			`{[-1] = 0, [2.5] = 0, a = 2, b = 1, ["end"] = 1, ["x y"] = 1, [true] = 1}`},
		{`{a = {b = {c = {d = 1}}}}`, FormatOptions{MaxDepth: 2, MaxItems: 10, Width: 80}, `{a = {b = {...}}}`},
		{`{1, 2, 3, 4, 5}`, FormatOptions{MaxDepth: 2, MaxItems: 3, Width: 80}, `{1, 2, 3, ... 2 more}`},
		{`(function() local t = {1}; t.self = t; t[2] = {up = t}; return t end)()`, DefaultFormat, `{1, {up = <cycle>}, self = <cycle>}`},
		{`(function() local s = {}; return {s, s} end)()`, DefaultFormat, `{{}, {}}`},
		{`print`, DefaultFormat, `function: builtin`},
		{`function() end`, DefaultFormat, `function: fmt.lua:1`},
		{`testmod.thing(7)`, DefaultFormat, `thing#7`},
		{`{aaaa = "bbbbbbbbbb", cccc = "dddddddddd"}`, FormatOptions{MaxDepth: 4, MaxItems: 10, Width: 20},
			"{\n  aaaa = \"bbbbbbbbbb\",\n  cccc = \"dddddddddd\",\n}"},
		{`{x = {aaaa = "bbbbbbbbbb", cccc = "dddddddddd"}}`, FormatOptions{MaxDepth: 4, MaxItems: 10, Width: 30},
			"{\n  x = {\n    aaaa = \"bbbbbbbbbb\",\n    cccc = \"dddddddddd\",\n  },\n}"},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			s, _ := newTestSession(t)
			fn, err := s.Load("return "+tc.src, "fmt.lua")
			if err != nil {
				t.Fatal(err)
			}
			vals, err := s.Call(fn)
			if err != nil {
				t.Fatal(err)
			}
			if got := Format(s.L, vals[0], tc.opts); got != tc.want {
				t.Errorf("Format = %s\nwant     %s", got, tc.want)
			}
		})
	}
}

func TestFormatUserdataWithoutState(t *testing.T) {
	s, _ := newTestSession(t)
	v := eval(t, s, "return testmod.thing(1)")[0]
	if got := Format(nil, v, DefaultFormat); got != "<testmod.Thing>" {
		t.Errorf("Format(nil, thing) = %s", got)
	}
}

func TestComplete(t *testing.T) {
	s, _ := newTestSession(t)
	s.L.SetGlobal("lazy", NewObject(s.L, "testmod.Lazy", 0))
	eval(t, s, "obj = testmod.thing(1); cfg = {alpha = 1, alps = 2, [3] = 0, nested = {deep = 1}}; str = 'x'")
	tests := []struct {
		text, partial string
		want          []string
	}{
		{"string.fo", "fo", []string{"format"}},
		{"x = string.fo", "fo", []string{"format"}},
		{"cfg.al", "al", []string{"alpha", "alps"}},
		{"cfg.nested.d", "d", []string{"deep"}},
		{"obj:si", "si", []string{"size"}},
		{"obj:", "", []string{"size"}},
		{"lazy:pe", "pe", []string{"peek"}},
		{"testmod.", "", []string{"answer", "each", "panic", "thing", "wait"}},
		{"str:up", "up", []string{"upper"}},
		{"whil", "whil", []string{"while"}},
		{"testm", "testm", []string{"testmod"}},
		{"nosuch.x", "x", nil},
		{"cfg.alpha.x", "x", nil},
		{"1.5", "", nil},
	}
	for _, tc := range tests {
		partial, words := s.Complete(tc.text)
		if partial != tc.partial || strings.Join(words, ",") != strings.Join(tc.want, ",") {
			t.Errorf("Complete(%q) = %q, %q; want %q, %q", tc.text, partial, words, tc.partial, tc.want)
		}
	}
}

func TestCompleteCallsNothing(t *testing.T) {
	s, _ := newTestSession(t)
	eval(t, s, "called = false; lazy = setmetatable({}, {__index = function() called = true; return {} end})")
	s.Complete("lazy.anything.x")
	if got := eval(t, s, "return called")[0].String(); got != "false" {
		t.Error("completion called an __index function")
	}
}

func TestHelp(t *testing.T) {
	s, _ := newTestSession(t)
	thing := eval(t, s, "return testmod.thing(1)")[0]
	tests := []struct {
		value string // Lua expression
		want  []string
	}{
		{"nil", []string{"testmod", "a module for the script package's tests", "help(x)"}},
		{"testmod", []string{"testmod: a module", "functions:", "testmod.thing(n) -> Thing", "testmod.each(n, f)"}},
		{"testmod.thing", []string{"testmod.thing(n) -> Thing\nMakes a thing."}},
		{"'testmod.each'", []string{"Calls f(i)"}},
		{"'testmod.Thing'", []string{"Thing: a test object", "methods:", "thing:size() -> n"}},
		{"pp", []string{"pp(...)"}},
		{"os.exit", []string{"pcall cannot catch it"}},
		{"pairs", []string{"pairs is in Lua 5.1's standard library"}},
		{"function() end", []string{"no help for function: test.lua:1"}},
	}
	for _, tc := range tests {
		v := eval(t, s, "return "+tc.value)
		var b bytes.Buffer
		s.Help(&b, v[0])
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("help(%s) lacks %q:\n%s", tc.value, w, b.String())
			}
		}
	}
	var b bytes.Buffer
	s.Help(&b, thing)
	if !strings.Contains(b.String(), "thing:size() -> n") {
		t.Errorf("help(object):\n%s", b.String())
	}
}

func TestDump(t *testing.T) {
	s, out := newTestSession(t)
	eval(t, s, "dump(testmod.thing(5)); dump({1})")
	if got := out.String(); !strings.Contains(got, "testThing{N:5}") || !strings.Contains(got, "{1}") {
		t.Errorf("dump output %q", got)
	}
}
