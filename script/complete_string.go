package script

import (
	"regexp"
	"strings"

	"github.com/dpclsh/dpclsh/ppc"
	lua "github.com/yuin/gopher-lua"
)

// stringArgCall matches a line that ends inside the first string argument of an
// application method that takes program names: `app:points("MPI_A`, `a.b:global('cou`.
var stringArgCall = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_.]*):(points|functions|global)\s*\(\s*["']([^"']*)$`)

// completeStringArg completes the program's function names and file.c:LINE places (or,
// for app:global, its data symbols) inside the string argument of app:points,
// app:functions and app:global. ok is false when text does not end inside such a string.
func (s *Session) completeStringArg(text string) (partial string, words []string, ok bool) {
	m := stringArgCall.FindStringSubmatch(text)
	if m == nil {
		return "", nil, false
	}
	ud, isUD := s.lookupChain(m[1]).(*lua.LUserData)
	if !isUD {
		return "", nil, false
	}
	a, isApp := ud.Value.(*luaApp)
	if !isApp || a.closed() {
		return "", nil, false
	}
	partial = m[3]
	var names []string
	if m[2] == "global" {
		for _, sym := range a.app.Job.Image().Symbols {
			if sym.Kind == ppc.SymObject {
				names = append(names, sym.Name)
			}
		}
		return partial, matching(names, partial), true
	}
	for _, f := range a.app.Prog.Funcs {
		names = append(names, f.Name)
	}
	// file:LINE places only once a file name is being typed: the function names come
	// first, and a program has thousands of lines.
	if strings.Contains(partial, ".") || strings.Contains(partial, ":") {
		names = append(names, a.app.Prog.SourceLines()...)
	}
	return partial, matching(names, partial), true
}
