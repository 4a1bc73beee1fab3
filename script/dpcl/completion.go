package dpcl

import (
	"strings"

	"github.com/dpclsh/dpclsh/ppc"
)

// CompletionNames implements script.NameCompleter: the function names and file.c:LINE
// places app:points and app:functions take, or for app:global the data symbols.
func (a *luaApp) CompletionNames(method, partial string) ([]string, bool) {
	if a.closed() {
		return nil, false
	}
	var names []string
	if method == "global" {
		for _, sym := range a.app.Image().Symbols {
			if sym.Kind == ppc.SymObject {
				names = append(names, sym.Name)
			}
		}
		return names, true
	}
	for _, f := range a.app.Prog.Funcs {
		names = append(names, f.Name)
	}
	// file:LINE places only once a file name is being typed: the function names come
	// first, and a program has thousands of lines.
	if strings.Contains(partial, ".") || strings.Contains(partial, ":") {
		names = append(names, a.app.Prog.SourceLines()...)
	}
	return names, true
}
