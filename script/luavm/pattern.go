package luavm

// A Lua 5.1 pattern matcher that counts its steps. gopher-lua's matcher (package pm) runs a
// whole find, match, gmatch or gsub inside one Go call that neither the instruction budget
// nor an interrupt can reach, and backtracking patterns such as ("a*"):rep(30) .. "c" take
// exponential time. This one is a backtracking matcher with Lua 5.1's semantics (the
// reference manual, section 5.4.1, and the messages of its string library), written for
// this package; every step (a pattern item tried at a position, a character examined by a
// repetition, a balance or a back reference) is counted, and every patternTick steps the
// caller's spend function charges them (to the instruction budget, or checks for an
// interrupt), which may raise a Lua error and so end the match.

const (
	// maxCaptures is Lua 5.1's LUA_MAXCAPTURES.
	maxCaptures = 32
	// maxMatchDepth bounds the recursion of one match: it grows with the number of
	// repetitions and captures of the pattern, never with the subject, so only a pattern
	// of hundreds of thousands of items reaches it.
	maxMatchDepth = 200_000
	// patternTick is how many steps run between two calls of spend.
	patternTick = 256
)

// Capture lengths that are not lengths.
const (
	capUnfinished = -1
	capPosition   = -2
)

// patternError is a malformed pattern or a bad capture, raised (as a panic) by the matcher
// and turned into a Lua error by the library functions.
type patternError string

func (e patternError) Error() string { return string(e) }

// patternState matches one pattern against one subject. It is reset before each attempt
// at a new starting position.
type patternState struct {
	src, pat string
	level    int // captures opened so far
	capStart [maxCaptures]int
	capLen   [maxCaptures]int
	depth    int
	steps    int
	// spend is called with the steps taken since its last call; nil counts nothing.
	spend func(steps int)
}

// step counts one step and hands a full tick to spend.
func (m *patternState) step() {
	m.steps++
	if m.steps >= patternTick {
		m.flush()
	}
}

// flush hands the steps not yet charged to spend.
func (m *patternState) flush() {
	if m.spend != nil && m.steps > 0 {
		n := m.steps
		m.steps = 0
		m.spend(n)
	}
	m.steps = 0
}

// classEnd returns the index just past the single-character class at p.
func (m *patternState) classEnd(p int) int {
	pat := m.pat
	c := pat[p]
	p++
	switch c {
	case '%':
		if p >= len(pat) {
			panic(patternError("malformed pattern (ends with '%')"))
		}
		return p + 1
	case '[':
		if p < len(pat) && pat[p] == '^' {
			p++
		}
		for { // look for the closing ']'; the first character never closes the set
			if p >= len(pat) {
				panic(patternError("malformed pattern (missing ']')"))
			}
			c := pat[p]
			p++
			if c == '%' && p < len(pat) {
				p++
			}
			if p < len(pat) && pat[p] == ']' {
				return p + 1
			}
		}
	}
	return p
}

// classMatch reports whether c is in the class %cl (an upper-case letter complements it;
// any other character stands for itself).
func classMatch(c, cl byte) bool {
	var in bool
	switch cl | 0x20 {
	case 'a':
		in = isAlpha(c)
	case 'c':
		in = c < 0x20 || c == 0x7f
	case 'd':
		in = '0' <= c && c <= '9'
	case 'l':
		in = 'a' <= c && c <= 'z'
	case 'p':
		in = isPunct(c)
	case 's':
		in = c == ' ' || '\t' <= c && c <= '\r'
	case 'u':
		in = 'A' <= c && c <= 'Z'
	case 'w':
		in = isAlpha(c) || '0' <= c && c <= '9'
	case 'x':
		in = '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f'
	case 'z':
		in = c == 0
	default:
		return cl == c
	}
	if 'A' <= cl && cl <= 'Z' {
		return !in
	}
	return in
}

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// isPunct is C's ispunct in the "C" locale: printable, not a letter, digit or space.
func isPunct(c byte) bool {
	return '!' <= c && c <= '~' && !isAlpha(c) && !('0' <= c && c <= '9')
}

// setMatch reports whether c is in the set [...] from p (at '[') to ec (at its ']').
func (m *patternState) setMatch(c byte, p, ec int) bool {
	pat := m.pat
	in := true
	if pat[p+1] == '^' {
		in = false
		p++
	}
	for p++; p < ec; p++ {
		switch {
		case pat[p] == '%':
			p++
			if classMatch(c, pat[p]) {
				return in
			}
		case pat[p+1] == '-' && p+2 < ec:
			p += 2
			if pat[p-2] <= c && c <= pat[p] {
				return in
			}
		case pat[p] == c:
			return in
		}
	}
	return !in
}

// singleMatch reports whether the subject's character at s matches the class from p to ep.
func (m *patternState) singleMatch(s, p, ep int) bool {
	if s >= len(m.src) {
		return false
	}
	c := m.src[s]
	switch m.pat[p] {
	case '.':
		return true
	case '%':
		return classMatch(c, m.pat[p+1])
	case '[':
		return m.setMatch(c, p, ep-1)
	}
	return m.pat[p] == c
}

// match returns the end of the match of the pattern from p against the subject from s,
// or -1.
func (m *patternState) match(s, p int) int {
	if m.depth++; m.depth > maxMatchDepth {
		panic(patternError("pattern too complex"))
	}
	r := m.doMatch(s, p)
	m.depth--
	return r
}

func (m *patternState) doMatch(s, p int) int {
	pat := m.pat
	for {
		m.step()
		if p >= len(pat) {
			return s
		}
		switch pat[p] {
		case '(':
			if p+1 < len(pat) && pat[p+1] == ')' {
				return m.startCapture(s, p+2, capPosition)
			}
			return m.startCapture(s, p+1, capUnfinished)
		case ')':
			return m.endCapture(s, p+1)
		case '$':
			if p+1 == len(pat) {
				if s == len(m.src) {
					return s
				}
				return -1
			}
		case '%':
			if p+1 < len(pat) {
				switch c := pat[p+1]; {
				case c == 'b':
					if s = m.matchBalance(s, p+2); s < 0 {
						return -1
					}
					p += 4
					continue
				case c == 'f':
					var ok bool
					if p, ok = m.frontier(s, p+2); !ok {
						return -1
					}
					continue
				case '0' <= c && c <= '9':
					if s = m.matchCapture(s, c); s < 0 {
						return -1
					}
					p += 2
					continue
				}
			}
		}
		var next bool
		if s, p, next = m.item(s, p); !next {
			return s
		}
	}
}

// item matches a single-character class at p with its repetition suffix, if any. It
// either finishes the match (s is the result, next false) or says where to continue.
func (m *patternState) item(s, p int) (int, int, bool) {
	ep := m.classEnd(p)
	ok := m.singleMatch(s, p, ep)
	suffix := byte(0)
	if ep < len(m.pat) {
		suffix = m.pat[ep]
	}
	switch suffix {
	case '?':
		if ok {
			if r := m.match(s+1, ep+1); r >= 0 {
				return r, 0, false
			}
		}
		return s, ep + 1, true
	case '*':
		return m.maxExpand(s, p, ep), 0, false
	case '+':
		if !ok {
			return -1, 0, false
		}
		return m.maxExpand(s+1, p, ep), 0, false
	case '-':
		return m.minExpand(s, p, ep), 0, false
	}
	if !ok {
		return -1, 0, false
	}
	return s + 1, ep, true
}

// maxExpand matches as many characters of the class as it can, then gives them back one by
// one until the rest of the pattern matches.
func (m *patternState) maxExpand(s, p, ep int) int {
	i := 0
	for m.singleMatch(s+i, p, ep) {
		m.step()
		i++
	}
	for ; i >= 0; i-- {
		if r := m.match(s+i, ep+1); r >= 0 {
			return r
		}
	}
	return -1
}

// minExpand matches as few characters of the class as the rest of the pattern allows.
func (m *patternState) minExpand(s, p, ep int) int {
	for {
		if r := m.match(s, ep+1); r >= 0 {
			return r
		}
		if !m.singleMatch(s, p, ep) {
			return -1
		}
		s++
	}
}

func (m *patternState) startCapture(s, p, what int) int {
	if m.level >= maxCaptures {
		panic(patternError("too many captures"))
	}
	m.capStart[m.level], m.capLen[m.level] = s, what
	m.level++
	r := m.match(s, p)
	if r < 0 {
		m.level--
	}
	return r
}

func (m *patternState) endCapture(s, p int) int {
	l := -1
	for i := m.level - 1; i >= 0; i-- {
		if m.capLen[i] == capUnfinished {
			l = i
			break
		}
	}
	if l < 0 {
		panic(patternError("invalid pattern capture"))
	}
	m.capLen[l] = s - m.capStart[l]
	r := m.match(s, p)
	if r < 0 {
		m.capLen[l] = capUnfinished
	}
	return r
}

// matchBalance matches %bxy at p (the x): from an x to its balancing y.
func (m *patternState) matchBalance(s, p int) int {
	if p+1 >= len(m.pat) {
		panic(patternError("unbalanced pattern"))
	}
	open, closing := m.pat[p], m.pat[p+1]
	if s >= len(m.src) || m.src[s] != open {
		return -1
	}
	depth := 1
	for s++; s < len(m.src); s++ {
		m.step()
		switch m.src[s] {
		case closing:
			if depth--; depth == 0 {
				return s + 1
			}
		case open:
			depth++
		}
	}
	return -1
}

// frontier matches %f[set] at p (the '['): the position where the previous character
// (or "\0" at the start) is not in the set and the next (or "\0" at the end) is. It
// returns the index after the set.
func (m *patternState) frontier(s, p int) (int, bool) {
	if p >= len(m.pat) || m.pat[p] != '[' {
		panic(patternError("missing '[' after '%f' in pattern"))
	}
	ep := m.classEnd(p)
	prev, cur := byte(0), byte(0)
	if s > 0 {
		prev = m.src[s-1]
	}
	if s < len(m.src) {
		cur = m.src[s]
	}
	return ep, !m.setMatch(prev, p, ep-1) && m.setMatch(cur, p, ep-1)
}

// matchCapture matches a back reference %1-%9 to what capture c matched.
func (m *patternState) matchCapture(s int, c byte) int {
	l := int(c) - '1'
	if l < 0 || l >= m.level || m.capLen[l] == capUnfinished {
		panic(patternError("invalid capture index"))
	}
	n := m.capLen[l]
	if n < 0 || len(m.src)-s < n {
		return -1
	}
	m.steps += n
	if m.src[m.capStart[l]:m.capStart[l]+n] != m.src[s:s+n] {
		return -1
	}
	return s + n
}

// patternSpecials are the characters that make string.find match a pattern rather than
// search for the plain string.
const patternSpecials = "^$*+?.([%-"

// capture is one value a match hands back: a substring, or a position (pos > 0).
type capture struct {
	s   string
	pos int
}

// captures returns the captures of the match [s, e), or the whole match when the
// pattern has none and whole is set (find hands back no captures then).
func (m *patternState) captures(s, e int, whole bool) []capture {
	if m.level == 0 {
		if whole {
			return []capture{{s: m.src[s:e]}}
		}
		return nil
	}
	out := make([]capture, m.level)
	for i := range out {
		out[i] = m.capture(i, s, e)
	}
	return out
}

// capture returns capture i of the match [s, e); capture 0 of a pattern without captures
// is the whole match.
func (m *patternState) capture(i, s, e int) capture {
	if i >= m.level {
		if i == 0 {
			return capture{s: m.src[s:e]}
		}
		panic(patternError("invalid capture index"))
	}
	switch n := m.capLen[i]; n {
	case capUnfinished:
		panic(patternError("unfinished capture"))
	case capPosition:
		return capture{pos: m.capStart[i] + 1}
	default:
		return capture{s: m.src[m.capStart[i] : m.capStart[i]+n]}
	}
}

// matchAt tries the pattern from p at subject position s, with no captures open.
func (m *patternState) matchAt(s, p int) int {
	m.level = 0
	return m.match(s, p)
}
