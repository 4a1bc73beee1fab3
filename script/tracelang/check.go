package tracelang

import (
	"fmt"
	"strings"
)

// MapInfo is what the program does with one map.
type MapInfo struct {
	Name  string // without @
	Agg   string // count, sum, min, max, avg, stats, hist, lhist; "" for a per-rank variable
	Keys  int    // number of key expressions
	Lhist [3]int64
	Pos   Pos // first use
	// Sampled: profile:hz:N blocks fill it (samples by function, not probe events).
	Sampled bool
	used    bool
}

// Info is what Check learned: the maps in order of first use.
type Info struct {
	Maps  []*MapInfo
	byMap map[string]*MapInfo
}

// Map returns the map named name (without @), or nil.
func (in *Info) Map(name string) *MapInfo { return in.byMap[name] }

// aggregation describes one aggregating function: its number of arguments.
type aggregation struct{ args int }

var aggregations = map[string]*aggregation{
	"count": {0}, "sum": {1}, "min": {1}, "max": {1}, "avg": {1}, "stats": {1}, "hist": {1}, "lhist": {4},
}

// Builtins lists the values a probe can read, with what they are, for help text.
var Builtins = map[string]string{
	"rank": "the rank's MPI rank", "func": "the probed function (a map key only)",
	"probe": "the probe's spec as written (a map key only)", "retval": "the return value (exit probes)",
	"nsecs": "the rank's virtual time in ns", "cycles": "CPU cycles", "instructions": "instructions executed",
	"loads": "loads", "stores": "stores", "branches": "taken branches", "fpops": "floating-point operations",
	"arg0..arg7": "argument registers r3..r10 (entry probes)",
	"ustack":     "the call stack, UstackDepth frames (ustack(N): N frames; a map key only)",
}

// UstackDepth is how many frames a bare ustack key walks; ustack(N) takes 1..MaxUstackDepth.
const (
	UstackDepth    = 8
	MaxUstackDepth = 32
)

// notYet are bpftrace's builtins this language knows but does not offer (yet).
var notYet = map[string]string{
	"kstack": "there is no kernel to walk", "node": "use rank", "ionode": "use rank",
	"tid": "a rank has one thread: use rank", "pid": "use rank", "comm": "every rank runs one program",
	"elapsed": "use nsecs",
}

// keyOnly are builtins that name the probe rather than compute a value.
var keyOnly = map[string]bool{"func": true, "probe": true, "ustack": true}

type checker struct {
	prog  *Program
	info  *Info
	block *Block
	front bool // BEGIN or END: runs at the front-end
}

func (c *checker) fail(p Pos, format string, args ...any) {
	panic(errAt(c.prog.Name, c.prog.Src, p, format, args...))
}

// Check verifies what a parsed program means: known builtins and calls, aggregations used
// the same way everywhere, maps printed that exist, front-end blocks reading no rank's
// value. Errors are *Error values with a caret.
func Check(prog *Program) (info *Info, err error) {
	c := &checker{prog: prog, info: &Info{byMap: map[string]*MapInfo{}}}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			info, err = nil, e
		}
	}()
	for _, b := range prog.Blocks {
		c.declare(b)
	}
	for _, b := range prog.Blocks {
		c.checkBlock(b)
		c.sampled(b)
	}
	for _, b := range prog.Blocks {
		if b.Probes[0].Kind == ProbeInterval {
			c.intervalMaps(b)
		}
	}
	return c.info, nil
}

// declare records every map a block assigns, so that END may print a map assigned later.
func (c *checker) declare(b *Block) {
	for _, s := range b.Body {
		switch s.Kind {
		case StmtAggregate:
			c.declareMap(s, s.Agg.Name)
		case StmtMapStore:
			if len(s.Keys) > 0 {
				c.fail(s.Pos, "@%s[...] = value: a keyed map takes an aggregation (count(), sum(x), ...); only @name without keys holds a value", s.Map)
			}
			c.declareMap(s, "")
		}
	}
}

func (c *checker) declareMap(s *Stmt, agg string) {
	m := c.info.byMap[s.Map]
	if m == nil {
		m = &MapInfo{Name: s.Map, Agg: agg, Keys: len(s.Keys), Pos: s.Pos}
		c.info.byMap[s.Map] = m
		c.info.Maps = append(c.info.Maps, m)
		return
	}
	if m.Agg != agg {
		c.fail(s.Pos, "@%s is %s at %d:%d and %s here: a map keeps one kind of value", s.Map, aggName(m.Agg), m.Pos.Line, m.Pos.Col, aggName(agg))
	}
	if m.Keys != len(s.Keys) {
		c.fail(s.Pos, "@%s has %d keys at %d:%d and %d here", s.Map, m.Keys, m.Pos.Line, m.Pos.Col, len(s.Keys))
	}
}

func aggName(a string) string {
	if a == "" {
		return "a plain value"
	}
	return a + "()"
}

func (c *checker) checkBlock(b *Block) {
	c.block = b
	c.front = false
	for _, pr := range b.Probes {
		isFront := pr.Kind == ProbeBegin || pr.Kind == ProbeEnd || pr.Kind == ProbeInterval
		if isFront && len(b.Probes) > 1 {
			c.fail(pr.Pos, "%s cannot share a block with other probes", pr.Text)
		}
		c.front = isFront
		switch pr.Kind {
		case ProbeInterval:
			if IntervalSeconds(pr) == 0 {
				c.fail(pr.Pos, "interval probes are interval:s:N, interval:ms:N or interval:us:N, not interval:%s", pr.Unit)
			}
		case ProbeProfile:
			c.profile(b, pr)
		}
	}
	if b.Pred != nil {
		if c.front {
			c.fail(b.Pred.Pos, "%s takes no predicate", b.Probes[0].Text)
		}
		c.value(b.Pred)
	}
	for _, s := range b.Body {
		c.stmt(s)
	}
}

// IntervalSeconds is an interval probe's period in virtual seconds (0 for another unit).
func IntervalSeconds(pr *Probe) float64 {
	per := map[string]float64{"s": 1, "ms": 1e-3, "us": 1e-6}[pr.Unit]
	return float64(pr.N) * per
}

// intervalMaps checks what an interval block prints and clears: its maps are the ranks'
// as each interval ends, so the machine's samples (read once the job ends) cannot be
// printed there, and min and max, which the ranks keep over the whole run, cannot be
// cleared there.
func (c *checker) intervalMaps(b *Block) {
	for _, s := range b.Body {
		e := s.X
		if e.Name == "exit" {
			c.fail(e.Pos, "exit() in %s is not offered: the job runs to its end (Ctrl-C stops it and prints the maps)", b.Probes[0].Text)
		}
		if e.Name != "print" && e.Name != "clear" {
			continue
		}
		m := c.info.byMap[e.Args[0].Name]
		if m.Sampled {
			c.fail(e.Args[0].Pos, "@%s counts profile samples, read when the job ends: print it in END", m.Name)
		}
		if e.Name == "clear" && (m.Agg == "min" || m.Agg == "max") {
			c.fail(e.Args[0].Pos, "@%s is %s(), which the ranks keep over the whole run: an interval cannot clear it", m.Name, m.Agg)
		}
	}
}

// profile checks a profile:hz:N block: the samples are the machine's timer interrupts
// (app:sample), not a probe's code, so all it can do is count them by function.
func (c *checker) profile(b *Block, pr *Probe) {
	if pr.Unit != "hz" {
		c.fail(pr.Pos, "profile probes are profile:hz:N, not profile:%s", pr.Unit)
	}
	if len(b.Probes) > 1 {
		c.fail(pr.Pos, "%s cannot share a block with other probes", pr.Text)
	}
	if b.Pred != nil {
		c.fail(b.Pred.Pos, "%s takes no predicate: it samples every rank", pr.Text)
	}
	for _, s := range b.Body {
		ok := s.Kind == StmtAggregate && s.Agg.Name == "count" && len(s.Keys) <= 1
		if ok && len(s.Keys) == 1 {
			ok = s.Keys[0].Kind == ExprBuiltin && s.Keys[0].Name == "func"
		}
		if !ok {
			c.fail(s.Pos, "%s counts samples only: @name = count() or @name[func] = count()", pr.Text)
		}
	}
}

// sampled records which maps profile blocks fill: such a map is the machine's samples,
// and no probe may add to it.
func (c *checker) sampled(b *Block) {
	for _, s := range b.Body {
		if s.Kind != StmtAggregate {
			continue
		}
		isProfile := b.Probes[0].Kind == ProbeProfile
		m := c.info.byMap[s.Map]
		if m.used && m.Sampled != isProfile {
			c.fail(s.Pos, "@%s counts profile samples elsewhere and probe events here: give each its own map", s.Map)
		}
		m.used, m.Sampled = true, isProfile
	}
}

func (c *checker) stmt(s *Stmt) {
	if c.front && s.Kind != StmtCall {
		c.fail(s.Pos, "%s runs at the front-end, where no rank's values exist: only printf, print, clear and exit", c.block.Probes[0].Text)
	}
	switch s.Kind {
	case StmtAggregate:
		stacks := 0
		for _, k := range s.Keys {
			if IsUstack(k) {
				if stacks++; stacks > 1 {
					c.fail(k.Pos, "@%s: one call stack per key", s.Map)
				}
			}
			c.key(k)
		}
		c.aggregate(s)
	case StmtMapStore, StmtLocal:
		c.value(s.X)
	case StmtCall:
		c.callStmt(s.X)
	}
}

func (c *checker) key(k *Expr) {
	if k.Kind == ExprBuiltin && keyOnly[k.Name] {
		return
	}
	if k.Kind == ExprCall && k.Name == "ustack" {
		if len(k.Args) != 1 || k.Args[0].Kind != ExprInt || k.Args[0].Int < 1 || k.Args[0].Int > MaxUstackDepth {
			c.fail(k.Pos, "ustack(N) takes the number of frames, an integer from 1 to %d", MaxUstackDepth)
		}
		return
	}
	c.value(k)
}

// IsUstack says whether a key expression is the call stack: ustack or ustack(N).
func IsUstack(k *Expr) bool {
	return (k.Kind == ExprBuiltin || k.Kind == ExprCall) && k.Name == "ustack"
}

// UstackFrames is how many frames a ustack key walks.
func UstackFrames(k *Expr) int {
	if k.Kind == ExprCall && len(k.Args) == 1 {
		return int(k.Args[0].Int)
	}
	return UstackDepth
}

func (c *checker) aggregate(s *Stmt) {
	a, m := s.Agg, c.info.byMap[s.Map]
	if len(a.Args) != aggregations[a.Name].args {
		c.fail(a.Pos, "%s() takes %d argument(s), got %d", a.Name, aggregations[a.Name].args, len(a.Args))
	}
	for i, x := range a.Args {
		if i == 0 {
			c.value(x)
			continue
		}
		if x.Kind != ExprInt {
			c.fail(x.Pos, "lhist()'s bounds and step are integer constants")
		}
	}
	if a.Name != "lhist" {
		return
	}
	lo, hi, step := a.Args[1].Int, a.Args[2].Int, a.Args[3].Int
	if step < 1 || hi <= lo || (hi-lo)/step > 1000 || (hi-lo)%step != 0 {
		c.fail(a.Pos, "lhist(x, %d, %d, %d): want min < max, step > 0 dividing max - min, at most 1000 buckets", lo, hi, step)
	}
	if m.Lhist != ([3]int64{}) && m.Lhist != [3]int64{lo, hi, step} {
		c.fail(a.Pos, "@%s is lhist(x, %d, %d, %d) elsewhere: one map keeps one bucket layout", s.Map, m.Lhist[0], m.Lhist[1], m.Lhist[2])
	}
	m.Lhist = [3]int64{lo, hi, step}
}

// value checks an expression that computes an integer at a rank.
func (c *checker) value(e *Expr) {
	switch e.Kind {
	case ExprInt:
	case ExprString:
		c.fail(e.Pos, "a string is only printf's format here")
	case ExprBuiltin:
		c.builtin(e)
	case ExprLocal:
	case ExprMap:
		m := c.info.byMap[e.Name]
		if m == nil || m.Agg != "" {
			c.fail(e.Pos, "@%s is read here but never assigned a plain value (@%s = x)", e.Name, e.Name)
		}
	case ExprCall:
		if aggregations[e.Name] != nil {
			c.fail(e.Pos, "%s() is an aggregation: assign it to a map, @name[keys] = %s(...)", e.Name, e.Name)
		}
		if e.Name == "ustack" {
			c.fail(e.Pos, "'ustack' is the call stack: it can only be a map key")
		}
		c.fail(e.Pos, "unknown function '%s'", e.Name)
	case ExprUnary:
		c.value(e.X)
	case ExprBinary:
		c.value(e.X)
		c.value(e.Y)
	}
}

func (c *checker) builtin(e *Expr) {
	if c.front {
		c.fail(e.Pos, "'%s' is a rank's value: %s runs at the front-end", e.Name, c.block.Probes[0].Text)
	}
	if n, ok := argIndex(e.Name); ok {
		if n > 7 {
			c.fail(e.Pos, "'%s': only arg0..arg7 (registers r3..r10) hold arguments", e.Name)
		}
		c.onlyAt(e, ProbeEntry, "entry")
		return
	}
	switch {
	case e.Name == "ustack":
		c.fail(e.Pos, "'ustack' is the call stack: it can only be a map key")
	case keyOnly[e.Name]:
		c.fail(e.Pos, "'%s' names the probe: it can only be a map key", e.Name)
	case e.Name == "retval":
		c.onlyAt(e, ProbeExit, "exit")
	case notYet[e.Name] != "":
		c.fail(e.Pos, "builtin '%s' is not supported: %s", e.Name, notYet[e.Name])
	case Builtins[e.Name] == "":
		c.fail(e.Pos, "unknown builtin '%s'", e.Name)
	}
}

// onlyAt refuses a builtin in a block with a probe of another kind.
func (c *checker) onlyAt(e *Expr, kind ProbeKind, what string) {
	for _, pr := range c.block.Probes {
		if pr.Kind != kind {
			c.fail(e.Pos, "'%s' is only defined at %s probes, and %s is not one", e.Name, what, pr.Text)
		}
	}
}

// argIndex reads "argN".
func argIndex(name string) (int, bool) {
	if !strings.HasPrefix(name, "arg") || len(name) < 4 {
		return 0, false
	}
	n := 0
	for _, ch := range name[3:] {
		if ch < '0' || ch > '9' {
			return 0, false
		}
		n = n*10 + int(ch-'0')
		if n > 1000 {
			return n, true
		}
	}
	return n, true
}

// callStmt checks printf, print, clear and exit.
func (c *checker) callStmt(e *Expr) {
	switch e.Name {
	case "printf":
		c.printf(e)
	case "print", "clear":
		if !c.front {
			c.fail(e.Pos, "%s() runs in BEGIN, END and interval blocks only: maps are collected from the ranks there", e.Name)
		}
		if len(e.Args) != 1 || e.Args[0].Kind != ExprMap {
			c.fail(e.Pos, "%s() takes one map: %s(@name)", e.Name, e.Name)
		}
		if m := c.info.byMap[e.Args[0].Name]; m == nil || m.Agg == "" {
			c.fail(e.Args[0].Pos, "@%s is not an aggregated map of this program", e.Args[0].Name)
		}
	case "exit":
		if !c.front {
			c.fail(e.Pos, "exit() runs in BEGIN and END only: the job runs to its end")
		}
		if len(e.Args) != 0 {
			c.fail(e.Pos, "exit() takes no arguments")
		}
	default:
		if aggregations[e.Name] != nil {
			c.fail(e.Pos, "%s() is an aggregation: assign it to a map, @name[keys] = %s(...)", e.Name, e.Name)
		}
		c.fail(e.Pos, "unknown function '%s'", e.Name)
	}
}

func (c *checker) printf(e *Expr) {
	if len(e.Args) == 0 || e.Args[0].Kind != ExprString {
		c.fail(e.Pos, "printf() takes a format string first")
	}
	verbs, err := FormatVerbs(e.Args[0].Str)
	if err != nil {
		c.fail(e.Args[0].Pos, "printf: %v", err)
	}
	if len(verbs) != len(e.Args)-1 {
		c.fail(e.Pos, "printf: the format has %d verb(s) and %d argument(s) follow it", len(verbs), len(e.Args)-1)
	}
	for _, a := range e.Args[1:] {
		c.value(a)
	}
	if len(e.Args) > 1 && !c.front && len(e.Args)-1 > 255 {
		c.fail(e.Pos, "printf: at most 255 values")
	}
}

// FormatVerbs lists the conversions of a printf format: d i u x X c, with optional l
// or ll (values are 64-bit anyway), flags and width; %% is a percent sign.
func FormatVerbs(f string) ([]byte, error) {
	var out []byte
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		for i < len(f) && strings.IndexByte("-+ #0123456789.l", f[i]) >= 0 {
			i++
		}
		if i >= len(f) {
			return nil, fmt.Errorf("the format ends inside a conversion")
		}
		switch f[i] {
		case '%':
		case 'd', 'i', 'u', 'x', 'X', 'c':
			out = append(out, f[i])
		default:
			return nil, fmt.Errorf("%%%c is not a conversion printf offers here (d i u x X c)", f[i])
		}
	}
	return out, nil
}
