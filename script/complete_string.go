package script

import (
	"regexp"

	lua "github.com/yuin/gopher-lua"
)

// stringArgCall matches a line that ends inside the first string argument of an
// application method that takes program names: `app:points("MPI_A`, `a.b:global('cou`.
var stringArgCall = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_.]*):(points|functions|global)\s*\(\s*["']([^"']*)$`)

// NameCompleter is an object whose methods take the program's names in a string
// argument (a dpcl application): CompletionNames returns the names method's argument
// may take given what is typed so far, and false when the object cannot tell (closed).
type NameCompleter interface {
	CompletionNames(method, partial string) (names []string, ok bool)
}

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
	c, isCompleter := ud.Value.(NameCompleter)
	if !isCompleter {
		return "", nil, false
	}
	partial = m[3]
	names, ok := c.CompletionNames(m[2], partial)
	if !ok {
		return "", nil, false
	}
	return partial, matching(names, partial), true
}
