package luavm

import (
	"math"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// string.find, string.match, string.gmatch and string.gsub on the counting matcher of
// pattern.go, with Lua 5.1's argument handling. gsub also bounds its result by the
// string size limit and charges what it builds to the memory budget.

// installPatternFunctions replaces the pattern functions of L's string library (string
// methods use the same table).
func installPatternFunctions(L *lua.LState) {
	lib, ok := L.GetGlobal(lua.StringLibName).(*lua.LTable)
	if !ok {
		return
	}
	lib.RawSetString("find", L.NewFunction(func(L *lua.LState) int { return strFindAux(L, true) }))
	lib.RawSetString("match", L.NewFunction(func(L *lua.LState) int { return strFindAux(L, false) }))
	gmatch := L.NewFunction(strGmatch)
	lib.RawSetString("gmatch", gmatch)
	lib.RawSetString("gfind", gmatch)
	lib.RawSetString("gsub", L.NewFunction(strGsub))
}

// recoverPattern turns a malformed pattern into a Lua error of L; other panics (Lua errors
// raised by the budget) go on.
func recoverPattern(L *lua.LState) {
	if r := recover(); r != nil {
		if e, ok := r.(patternError); ok {
			L.RaiseError("%s", string(e))
		}
		panic(r)
	}
}

// optInteger is luaL_optinteger: a number or numeric string, truncated; def when absent.
func optInteger(L *lua.LState, n, def int) int {
	v := L.Get(n)
	if v == lua.LNil {
		return def
	}
	f, ok := luaNumber(v)
	if !ok {
		L.TypeError(n, lua.LTNumber)
	}
	const most = 1 << 53
	return int(math.Max(-most, math.Min(most, float64(f))))
}

// startIndex is the 0-based start of a search from the Lua position init (negative counts
// from the end), clamped to the subject.
func startIndex(init, n int) int {
	if init < 0 {
		init += n + 1
	}
	return min(max(init-1, 0), n)
}

func newMatcher(L *lua.LState, src, pat string) *patternState {
	return &patternState{src: src, pat: pat, spend: stepSpender(L)}
}

// strFindAux is string.find (find) and string.match.
func strFindAux(L *lua.LState, find bool) int {
	src, pat := L.CheckString(1), L.CheckString(2)
	init := startIndex(optInteger(L, 3, 1), len(src))
	if find && (lua.LVAsBool(L.Get(4)) || !strings.ContainsAny(pat, patternSpecials)) {
		i := strings.Index(src[init:], pat)
		if i < 0 {
			L.Push(lua.LNil)
			return 1
		}
		L.Push(lua.LNumber(init + i + 1))
		L.Push(lua.LNumber(init + i + len(pat)))
		return 2
	}
	defer recoverPattern(L)
	m := newMatcher(L, src, pat)
	p, anchor := 0, strings.HasPrefix(pat, "^")
	if anchor {
		p = 1
	}
	for s := init; ; s++ {
		if e := m.matchAt(s, p); e >= 0 {
			m.flush()
			if !find {
				return pushCaptures(L, m.captures(s, e, true))
			}
			L.Push(lua.LNumber(s + 1))
			L.Push(lua.LNumber(e))
			return 2 + pushCaptures(L, m.captures(s, e, false))
		}
		if s >= len(src) || anchor {
			break
		}
	}
	m.flush()
	L.Push(lua.LNil)
	return 1
}

func pushCaptures(L *lua.LState, caps []capture) int {
	for _, c := range caps {
		L.Push(c.value())
	}
	return len(caps)
}

func (c capture) value() lua.LValue {
	if c.pos > 0 {
		return lua.LNumber(c.pos)
	}
	return lua.LString(c.s)
}

// strGmatch is string.gmatch: each call of the iterator finds the next match, as in Lua
// 5.1 ('^' is an ordinary character here).
func strGmatch(L *lua.LState) int {
	src, pat := L.CheckString(1), L.CheckString(2)
	pos := 0
	L.Push(L.NewFunction(func(L *lua.LState) int {
		defer recoverPattern(L)
		m := newMatcher(L, src, pat)
		for s := pos; s <= len(src); s++ {
			if e := m.matchAt(s, 0); e >= 0 {
				m.flush()
				pos = e
				if e == s {
					pos++
				}
				return pushCaptures(L, m.captures(s, e, true))
			}
		}
		m.flush()
		return 0
	}))
	return 1
}

// gsubBuffer builds gsub's result within the string size limit, charging its growth to
// the memory budget as a doubling buffer would allocate it.
type gsubBuffer struct {
	L       *lua.LState
	b       strings.Builder
	limit   int64
	charged int64
}

func (g *gsubBuffer) grow(n int) {
	need := int64(g.b.Len()) + int64(n)
	if need > g.limit {
		g.L.RaiseError("string.gsub: the result would exceed the limit of %s", ByteSize(float64(g.limit)))
	}
	if need > g.charged {
		add := max(need-g.charged, g.charged)
		chargeBytes(g.L, "string.gsub", add)
		g.charged += add
	}
}

func (g *gsubBuffer) add(s string) {
	g.grow(len(s))
	g.b.WriteString(s)
}

func (g *gsubBuffer) addByte(c byte) {
	g.grow(1)
	g.b.WriteByte(c)
}

// strGsub is string.gsub.
func strGsub(L *lua.LState) int {
	src, pat := L.CheckString(1), L.CheckString(2)
	repl := L.Get(3)
	switch repl.(type) {
	case lua.LNumber, lua.LString, *lua.LFunction, *lua.LTable:
	default:
		L.RaiseError("bad argument #3 to 'gsub' (string/function/table expected)")
	}
	maxN := optInteger(L, 4, len(src)+1)
	out := &gsubBuffer{L: L, limit: memoryLimitOf(L)}
	checkGsubBound(L, src, repl, maxN, out.limit)
	defer recoverPattern(L)
	m := newMatcher(L, src, pat)
	p, anchor := 0, strings.HasPrefix(pat, "^")
	if anchor {
		p = 1
	}
	s, n := 0, 0
	for n < maxN {
		e := m.matchAt(s, p)
		if e >= 0 {
			n++
			m.addValue(out, repl, s, e)
		}
		if e > s {
			s = e
		} else if s < len(src) {
			out.addByte(src[s])
			s++
		} else {
			break
		}
		if anchor {
			break
		}
	}
	out.add(src[s:])
	m.flush()
	L.Push(lua.LString(out.b.String()))
	L.Push(lua.LNumber(n))
	return 2
}

// checkGsubBound refuses a string replacement whose worst case is over the limit before
// any work: each match adds the replacement, and each capture it repeats adds at most the
// subject once over all matches.
func checkGsubBound(L *lua.LState, src string, repl lua.LValue, maxN int, limit int64) {
	r, ok := repl.(lua.LString)
	if !ok {
		return
	}
	subject := float64(len(src))
	matches := math.Max(math.Min(float64(maxN), subject+1), 0)
	pct := float64(strings.Count(string(r), "%"))
	if n := subject + matches*float64(len(r)) + pct*subject; n > float64(limit) {
		L.RaiseError("string.gsub: the result could reach %s, over the limit of %s", ByteSize(n), ByteSize(float64(limit)))
	}
}

// addValue adds the replacement of the match [s, e) to out.
func (m *patternState) addValue(out *gsubBuffer, repl lua.LValue, s, e int) {
	L := out.L
	var v lua.LValue
	switch r := repl.(type) {
	case lua.LString, lua.LNumber:
		m.addString(out, lua.LVAsString(r), s, e)
		return
	case *lua.LTable:
		v = L.GetTable(r, m.capture(0, s, e).value())
	case *lua.LFunction:
		m.flush()
		caps := m.captures(s, e, true)
		L.Push(r)
		pushCaptures(L, caps)
		L.Call(len(caps), 1)
		v = L.Get(-1)
		L.Pop(1)
	}
	switch x := v.(type) {
	case lua.LString, lua.LNumber:
		out.add(lua.LVAsString(x))
	default:
		if lua.LVAsBool(v) {
			L.RaiseError("invalid replacement value (a %s)", v.Type().String())
		}
		out.add(m.src[s:e]) // nil or false keep the match
	}
}

// addString adds a string replacement: %0 is the match, %1-%9 its captures, and % before
// any other character (even the end, as in Lua 5.1) stands for that character.
func (m *patternState) addString(out *gsubBuffer, r string, s, e int) {
	for i := 0; i < len(r); i++ {
		if j := strings.IndexByte(r[i:], '%'); j != 0 {
			if j < 0 {
				j = len(r) - i
			}
			out.add(r[i : i+j])
			i += j - 1
			continue
		}
		i++
		d := byte(0)
		if i < len(r) {
			d = r[i]
		}
		switch {
		case d < '0' || d > '9':
			out.addByte(d)
		case d == '0':
			out.add(m.src[s:e])
		default:
			out.add(lua.LVAsString(m.capture(int(d-'1'), s, e).value()))
		}
	}
}
