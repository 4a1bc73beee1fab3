package probes

import (
	"fmt"
	"path/filepath"
	"sort"
)

// SourceLines lists the "file.c:LINE" places of the program's DWARF line table (file
// base names), sorted and each once: what a source-line point can name, for completion.
func (b *Program) SourceLines() []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range b.lines {
		if e.Line == 0 || e.File == "" {
			continue
		}
		s := fmt.Sprintf("%s:%d", filepath.Base(e.File), e.Line)
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}
