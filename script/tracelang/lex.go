package tracelang

import (
	"strconv"
	"strings"
)

// tokKind is a token's class; punctuation is its own text.
type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tString
	tMap   // @name (name may be empty)
	tLocal // $name
	tPunct
)

type token struct {
	kind tokKind
	text string // identifier, map or local name, punctuation, or the string's value
	val  int64
	pos  Pos
}

// lexer scans src on demand: the parser asks for a probe spec where one may start, and
// for ordinary tokens elsewhere.
type lexer struct {
	name, src string
	off       int
	line, col int
}

func newLexer(name, src string) *lexer { return &lexer{name: name, src: src, line: 1, col: 1} }

func (l *lexer) pos() Pos { return Pos{l.line, l.col} }

func (l *lexer) advance(n int) {
	for i := 0; i < n && l.off < len(l.src); i++ {
		if l.src[l.off] == '\n' {
			l.line++
			l.col = 1
		} else {
			l.col++
		}
		l.off++
	}
}

func (l *lexer) fail(p Pos, format string, args ...any) {
	panic(errAt(l.name, l.src, p, format, args...))
}

// skipSpace passes white space and // and /* */ comments.
func (l *lexer) skipSpace() {
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			l.advance(1)
		case strings.HasPrefix(l.src[l.off:], "//"):
			for l.off < len(l.src) && l.src[l.off] != '\n' {
				l.advance(1)
			}
		case strings.HasPrefix(l.src[l.off:], "/*"):
			p := l.pos()
			end := strings.Index(l.src[l.off+2:], "*/")
			if end < 0 {
				l.fail(p, "comment not closed")
			}
			l.advance(end + 4)
		default:
			return
		}
	}
}

func isIdentByte(c byte, first bool) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || !first && c >= '0' && c <= '9'
}

// isSpecByte is what a probe spec may hold: names, wildcards, file names, the colons.
func isSpecByte(c byte) bool {
	return isIdentByte(c, false) || strings.IndexByte("*?.:-+[]", c) >= 0
}

// spec reads a probe spec such as "MPI_*:entry" or "ring.c:42"; "" at end of input or
// where none starts.
func (l *lexer) spec() (string, Pos) {
	l.skipSpace()
	p, start := l.pos(), l.off
	for l.off < len(l.src) && isSpecByte(l.src[l.off]) {
		l.advance(1)
	}
	return l.src[start:l.off], p
}

// twoByte lists the punctuation of two characters, checked before single ones.
var twoByte = []string{"==", "!=", "<=", ">=", "<<", ">>", "&&", "||", "++"}

func (l *lexer) next() token {
	l.skipSpace()
	p := l.pos()
	if l.off >= len(l.src) {
		return token{kind: tEOF, pos: p}
	}
	c := l.src[l.off]
	switch {
	case isIdentByte(c, true):
		n := l.run(l.off, false)
		t := token{kind: tIdent, text: l.src[l.off:n], pos: p}
		l.advance(n - l.off)
		return t
	case c >= '0' && c <= '9':
		return l.number(p)
	case c == '@' || c == '$':
		n := l.run(l.off+1, true)
		t := token{kind: tMap, text: l.src[l.off+1 : n], pos: p}
		if c == '$' {
			t.kind = tLocal
			if t.text == "" {
				l.fail(p, "'$' must be followed by a variable name")
			}
		}
		l.advance(n - l.off)
		return t
	case c == '"':
		return l.str(p)
	}
	for _, op := range twoByte {
		if strings.HasPrefix(l.src[l.off:], op) {
			l.advance(2)
			return token{kind: tPunct, text: op, pos: p}
		}
	}
	if strings.IndexByte("{}()[],;/=<>+-*%&|^!~?:", c) >= 0 {
		l.advance(1)
		return token{kind: tPunct, text: string(c), pos: p}
	}
	l.fail(p, "unexpected character %q", c)
	return token{}
}

// run is the end of the identifier characters from i on.
func (l *lexer) run(i int, allowDigitFirst bool) int {
	for i < len(l.src) && isIdentByte(l.src[i], !allowDigitFirst && i == l.off) {
		i++
	}
	return i
}

func (l *lexer) number(p Pos) token {
	n := l.off
	for n < len(l.src) && (isIdentByte(l.src[n], false)) {
		n++
	}
	text := l.src[l.off:n]
	v, err := strconv.ParseInt(text, 0, 64)
	if err != nil {
		l.fail(p, "bad integer %q", text)
	}
	l.advance(n - l.off)
	return token{kind: tInt, text: text, val: v, pos: p}
}

var escapes = map[byte]byte{'n': '\n', 't': '\t', '"': '"', '\\': '\\', 'r': '\r'}

func (l *lexer) str(p Pos) token {
	var b strings.Builder
	i := l.off + 1
	for {
		if i >= len(l.src) || l.src[i] == '\n' {
			l.fail(p, "string not closed")
		}
		c := l.src[i]
		if c == '"' {
			break
		}
		if c == '\\' {
			e, ok := escapes[l.src[min(i+1, len(l.src)-1)]]
			if !ok || i+1 >= len(l.src) {
				l.fail(Pos{p.Line, p.Col + i - l.off}, "unknown escape in string")
			}
			b.WriteByte(e)
			i += 2
			continue
		}
		b.WriteByte(c)
		i++
	}
	l.advance(i + 1 - l.off)
	return token{kind: tString, text: b.String(), pos: p}
}
