package tracelang

import (
	"strconv"
	"strings"
)

// Parse reads a trace program; name is what error positions call it ("stdin" for a
// program given with -e). Errors are *Error values. Parse checks the syntax only; Check
// checks the meaning.
func Parse(name, src string) (prog *Program, err error) {
	p := &parser{lx: newLexer(name, src)}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			prog, err = nil, e
		}
	}()
	prog = &Program{Name: name, Src: src}
	for {
		b := p.block()
		if b == nil {
			break
		}
		prog.Blocks = append(prog.Blocks, b)
	}
	if len(prog.Blocks) == 0 {
		p.lx.fail(p.lx.pos(), "no probes: a program is PROBE[, PROBE...] [/PREDICATE/] { STATEMENTS }")
	}
	return prog, nil
}

type parser struct {
	lx   *lexer
	tok  token
	have bool // tok holds a token not yet consumed
}

func (p *parser) peek() token {
	if !p.have {
		p.tok, p.have = p.lx.next(), true
	}
	return p.tok
}

func (p *parser) take() token {
	t := p.peek()
	p.have = false
	return t
}

func (p *parser) is(text string) bool {
	t := p.peek()
	return t.kind == tPunct && t.text == text
}

func (p *parser) expect(text, what string) token {
	if !p.is(text) {
		p.fail(p.peek(), "expected '%s' %s, found %s", text, what, describe(p.peek()))
	}
	return p.take()
}

func (p *parser) fail(t token, format string, args ...any) { p.lx.fail(t.pos, format, args...) }

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "the end of the program"
	case tString:
		return strconv.Quote(t.text)
	case tMap:
		return "'@" + t.text + "'"
	case tLocal:
		return "'$" + t.text + "'"
	}
	return "'" + t.text + "'"
}

// block parses one probe block; nil at the end of the input.
func (p *parser) block() *Block {
	text, pos := p.lx.spec()
	if text == "" {
		if t := p.peek(); t.kind != tEOF {
			p.fail(t, "expected a probe (FUNC:entry, FUNC:exit, file.c:LINE, BEGIN, END, interval:ms:N, profile:hz:N), found %s", describe(t))
		}
		return nil
	}
	b := &Block{Pos: pos}
	for {
		b.Probes = append(b.Probes, p.probe(text, pos))
		p.lx.skipSpace()
		if !strings.HasPrefix(p.lx.src[p.lx.off:], ",") {
			break
		}
		p.lx.advance(1)
		if text, pos = p.lx.spec(); text == "" {
			p.fail(p.peek(), "expected a probe after ',', found %s", describe(p.peek()))
		}
	}
	if p.is("/") {
		p.take()
		b.Pred = p.expr(0, true)
		p.expect("/", "to end the predicate")
	}
	p.expect("{", "to open the probe's statements")
	unclosed := func() {
		if p.peek().kind == tEOF {
			p.fail(p.peek(), "expected '}' to close the block opened at %d:%d, found the end of the program", b.Pos.Line, b.Pos.Col)
		}
	}
	for !p.is("}") {
		unclosed()
		b.Body = append(b.Body, p.stmt())
		unclosed()
		if !p.is("}") {
			p.expect(";", "between statements")
		}
		for p.is(";") {
			p.take()
		}
	}
	p.take()
	return b
}

// probe interprets one spec's text.
func (p *parser) probe(text string, pos Pos) *Probe {
	pr := &Probe{Pos: pos, Text: text}
	parts := strings.Split(text, ":")
	bad := func(format string, args ...any) { p.lx.fail(pos, format, args...) }
	switch {
	case text == "BEGIN" || text == "END":
		pr.Kind = ProbeKind(text)
	case parts[0] == "interval" || parts[0] == "profile":
		pr.Kind = ProbeKind(parts[0])
		if len(parts) != 3 {
			bad("%s probe wants %s:UNIT:N, got '%s'", parts[0], parts[0], text)
		}
		n, err := strconv.ParseInt(parts[2], 10, 64)
		if err != nil || n < 1 {
			bad("%s probe: '%s' is not a positive integer", parts[0], parts[2])
		}
		pr.Unit, pr.N = parts[1], n
	case len(parts) == 2 && (parts[1] == "entry" || parts[1] == "exit"):
		pr.Kind, pr.Func = ProbeKind(parts[1]), parts[0]
	case len(parts) == 2 && parts[1] != "" && parts[1][0] >= '0' && parts[1][0] <= '9':
		n, err := strconv.Atoi(parts[1])
		if err != nil || n < 1 {
			bad("line probe: '%s' is not a line number", parts[1])
		}
		pr.Kind, pr.Func, pr.Line = ProbeLine, parts[0], n
	default:
		bad("unknown probe '%s': want FUNC:entry, FUNC:exit, file.c:LINE, BEGIN, END, interval:ms:N or profile:hz:N", text)
	}
	if (pr.Kind == ProbeEntry || pr.Kind == ProbeExit || pr.Kind == ProbeLine) && pr.Func == "" {
		bad("probe '%s' names no function or file", text)
	}
	return pr
}

func (p *parser) stmt() *Stmt {
	t := p.take()
	s := &Stmt{Pos: t.pos}
	switch t.kind {
	case tMap:
		s.Map = t.text
		if p.is("[") {
			p.take()
			s.Keys = p.list("]")
			if len(s.Keys) == 0 {
				p.fail(p.peek(), "a map key needs at least one expression")
			}
		}
		p.expect("=", "after the map")
		s.X = p.expr(0, false)
		if s.X.Kind == ExprCall && aggregations[s.X.Name] != nil {
			s.Kind, s.Agg, s.X = StmtAggregate, s.X, nil
		} else {
			s.Kind = StmtMapStore
		}
	case tLocal:
		p.expect("=", "after the variable")
		s.Kind, s.Var, s.X = StmtLocal, t.text, p.expr(0, false)
	case tIdent:
		if !p.is("(") {
			p.fail(t, "a statement is a map assignment, a $variable assignment or a call; '%s' is none", t.text)
		}
		s.Kind, s.X = StmtCall, p.call(t)
	default:
		p.fail(t, "expected a statement, found %s", describe(t))
	}
	return s
}

// list parses expressions separated by commas up to the closing punctuation, consumed.
func (p *parser) list(closer string) []*Expr {
	var out []*Expr
	for !p.is(closer) {
		out = append(out, p.expr(0, false))
		if !p.is(closer) {
			p.expect(",", "between arguments")
		}
	}
	p.take()
	return out
}

func (p *parser) call(name token) *Expr {
	p.expect("(", "after the function's name")
	return &Expr{Pos: name.pos, Kind: ExprCall, Name: name.text, Args: p.list(")")}
}

// binaryPrec is each binary operator's precedence (C's order); higher binds tighter.
var binaryPrec = map[string]int{
	"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
	"<": 7, "<=": 7, ">": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}

// expr parses by precedence climbing; inPred leaves '/' to end a predicate.
func (p *parser) expr(minPrec int, inPred bool) *Expr {
	x := p.unary(inPred)
	for {
		t := p.peek()
		prec, ok := binaryPrec[t.text]
		if t.kind != tPunct || !ok || prec <= minPrec || inPred && t.text == "/" {
			return x
		}
		p.take()
		y := p.expr(prec, inPred)
		x = &Expr{Pos: t.pos, Kind: ExprBinary, Op: t.text, X: x, Y: y}
	}
}

func (p *parser) unary(inPred bool) *Expr {
	t := p.take()
	switch t.kind {
	case tInt:
		return &Expr{Pos: t.pos, Kind: ExprInt, Int: t.val}
	case tString:
		return &Expr{Pos: t.pos, Kind: ExprString, Str: t.text}
	case tLocal:
		return &Expr{Pos: t.pos, Kind: ExprLocal, Name: t.text}
	case tMap:
		if p.is("[") {
			p.fail(p.peek(), "reading a keyed map inside a probe is not supported: only @name without keys is a per-rank variable")
		}
		return &Expr{Pos: t.pos, Kind: ExprMap, Name: t.text}
	case tIdent:
		if p.is("(") {
			return p.call(t)
		}
		return &Expr{Pos: t.pos, Kind: ExprBuiltin, Name: t.text}
	case tPunct:
		switch t.text {
		case "(":
			x := p.expr(0, false)
			p.expect(")", "to close '(' at "+strconv.Itoa(t.pos.Line)+":"+strconv.Itoa(t.pos.Col))
			return x
		case "-", "!", "~":
			return &Expr{Pos: t.pos, Kind: ExprUnary, Op: t.text, X: p.unary(inPred)}
		}
	}
	p.fail(t, "expected an expression, found %s", describe(t))
	return nil
}
