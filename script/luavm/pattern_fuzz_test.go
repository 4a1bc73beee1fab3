package luavm

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/gopher-lua/pm"
)

// gopherDiffers matches the patterns on which gopher-lua's matcher departs from Lua 5.1
// (testdata/patterns.golden shows each): %f (a literal f there), a class as the end of a
// range ([%a-z]), a back reference to a position capture, and ')' with no open capture
// (an error there; never reached by Lua 5.1 when nothing before it fails).
var gopherDiffers = regexp.MustCompile(`%f|\[[^\]]*%.-|\(\).*%[1-9]|\)`)

// patternStepCap is where the fuzz target gives up on an input: gopher-lua's matcher,
// which cannot be stopped, would take about as long.
const patternStepCap = 200_000

type tooManySteps struct{}

// FuzzPatternMatchesGopherLua compares the first match of the counting matcher with
// gopher-lua's on patterns where both follow Lua 5.1 and the match ends within the cap:
// whether it matches, where, and the captures.
func FuzzPatternMatchesGopherLua(f *testing.F) {
	for _, c := range [][2]string{
		{"hello world", "(%w+) (%w+)"}, {"aaab", "a-b"}, {"f(a(b)c)", "%b()"}, {"  x = 1", "^%s*(%a+)%s*=%s*(%d+)$"},
		{"abcabc", "(abc)%1"}, {"x]y", "[^]]+"}, {"a.b", "[%.]"}, {"abc", "()b()"}, {"aaa", "^(a-)(a*)$"},
		{"\x00a", "%z."}, {"<a><b>", "<.->"}, {"ab", "a?b?c?"}, {"a$", "a$"}, {"$a", "$a"},
	} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, src, pat string) {
		if len(src) > 64 || len(pat) > 24 || gopherDiffers.MatchString(pat) {
			return
		}
		mine, ok := firstMatch(src, pat)
		if !ok {
			return
		}
		mds, err := pm.Find(pat, []byte(src), 0, 1)
		if err != nil {
			return
		}
		theirs := "no match"
		if len(mds) > 0 {
			theirs = describeGopherMatch(src, mds[0])
		}
		if mine != theirs {
			t.Errorf("find(%q, %q): %s; gopher-lua: %s", src, pat, mine, theirs)
		}
	})
}

// firstMatch describes the first match of pat in src, or says it could not tell (an
// error, or more steps than the cap).
func firstMatch(src, pat string) (desc string, ok bool) {
	steps := 0
	m := &patternState{src: src, pat: pat, spend: func(n int) {
		if steps += n; steps > patternStepCap {
			panic(tooManySteps{})
		}
	}}
	defer func() {
		if r := recover(); r != nil {
			switch r.(type) {
			case patternError, tooManySteps:
				desc, ok = "", false
			default:
				panic(r)
			}
		}
	}()
	p, anchor := 0, strings.HasPrefix(pat, "^")
	if anchor {
		p = 1
	}
	for s := 0; s <= len(src); s++ {
		if e := m.matchAt(s, p); e >= 0 {
			return describeMatch(s, e, m.captures(s, e, false)), true
		}
		if anchor {
			break
		}
	}
	return "no match", true
}

func describeMatch(s, e int, caps []capture) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%d,%d)", s, e)
	for _, c := range caps {
		if c.pos > 0 {
			fmt.Fprintf(&b, " @%d", c.pos)
		} else {
			fmt.Fprintf(&b, " %q", c.s)
		}
	}
	return b.String()
}

func describeGopherMatch(src string, md *pm.MatchData) string {
	caps := make([]capture, 0, md.CaptureLength()/2)
	for i := 2; i < md.CaptureLength(); i += 2 {
		if md.IsPosCapture(i) {
			caps = append(caps, capture{pos: md.Capture(i)})
		} else {
			caps = append(caps, capture{s: src[md.Capture(i):md.Capture(i+1)]})
		}
	}
	return describeMatch(md.Capture(0), md.Capture(1), caps)
}
