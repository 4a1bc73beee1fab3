package probes

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// NoMatchError says that a function pattern (a glob or a regexp) matched no function of
// the program; Suggestions are the closest names.
type NoMatchError struct {
	Pattern     string
	Regexp      bool
	Suggestions []string
}

// Unprefixed is the error's text without "probes: "; Error adds it.
func (e *NoMatchError) Unprefixed() string {
	what := "function"
	if e.Regexp {
		what = "function regexp"
	}
	s := fmt.Sprintf("no function matches %s %q", what, e.Pattern)
	if len(e.Suggestions) > 0 {
		s += " (did you mean " + strings.Join(e.Suggestions, ", ") + "?)"
	}
	return s
}

func (e *NoMatchError) Error() string { return "probes: " + e.Unprefixed() }

// Package is the name the error's text starts with.
func (e *NoMatchError) Package() string { return "probes" }

// MatchSome is Match that refuses an empty result: a pattern matching nothing is a
// *NoMatchError listing the closest names.
func (b *Program) MatchSome(pattern string) ([]Func, error) {
	fns, err := b.Match(pattern)
	if err == nil && len(fns) == 0 {
		err = &NoMatchError{Pattern: pattern, Suggestions: Suggest(literal(pattern), b.Names(), 5)}
	}
	return fns, err
}

// MatchRegexp returns the functions whose preferred name or any alias matches the Go
// regular expression expr, sorted by address; matching nothing is a *NoMatchError.
func (b *Program) MatchRegexp(expr string) ([]Func, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, errorf("bad function regexp %q: %w", expr, err)
	}
	hit := map[uint32]bool{}
	for _, name := range b.img.FuncNames() {
		if re.MatchString(name) {
			s, _ := b.img.FuncNamed(name)
			hit[s.Addr] = true
		}
	}
	var out []Func
	for _, f := range b.Funcs {
		if hit[f.Addr] {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		lit, _ := re.LiteralPrefix()
		if lit == "" {
			lit = literal(strings.Trim(expr, "^$"))
		}
		return nil, &NoMatchError{Pattern: expr, Regexp: true, Suggestions: Suggest(lit, b.Names(), 5)}
	}
	return out, nil
}

// Names lists every function name of the program, aliases included, sorted.
func (b *Program) Names() []string { return b.img.FuncNames() }

// literal drops the metacharacters of a glob or regexp, leaving what to compare names to.
func literal(pattern string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(`*?[]()|+.^$\{}`, r) {
			return -1
		}
		return r
	}, pattern)
}

// Suggest returns up to n names close to word: names containing it (shortest first),
// then those within an edit distance of a third of its length, closest first; ties go
// alphabetically.
func Suggest(word string, names []string, n int) []string {
	if word == "" {
		return nil
	}
	lw := strings.ToLower(word)
	type cand struct {
		name string
		rank int
	}
	var cs []cand
	limit := max(1, len(word)/3)
	for _, name := range names {
		ln := strings.ToLower(name)
		switch {
		case ln == lw:
			cs = append(cs, cand{name, 0})
		case strings.Contains(ln, lw) && len(lw) >= 3:
			cs = append(cs, cand{name, 1000 + len(name)})
		default:
			if abs(len(ln)-len(lw)) > limit {
				continue
			}
			if d := editDistance(lw, ln); d <= limit {
				cs = append(cs, cand{name, d})
			}
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].rank != cs[j].rank {
			return cs[i].rank < cs[j].rank
		}
		return cs[i].name < cs[j].name
	})
	out := make([]string, 0, n)
	for _, c := range cs[:min(n, len(cs))] {
		out = append(out, c.name)
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// editDistance is the optimal-string-alignment distance between a and b (bytes):
// insertions, deletions, substitutions and transpositions of neighbours each cost one, so
// the commonest typo ("mian" for "main") is one edit away.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
