package probes

import "sort"

// FuncLines is the span of source lines a function's code comes from, in one file.
type FuncLines struct {
	Name        string
	First, Last int
}

// SourceFuncs lists the functions with code from file (as app:source shows them), each with
// the first and last line of its statement rows in that file, sorted by first line. The
// span comes from the line table, so a function whose code the optimizer interleaved with
// another's may overlap it.
func (b *Program) SourceFuncs(file string) (string, []FuncLines, error) {
	name, err := b.resolveFile(file, 0)
	if err != nil {
		return "", nil, err
	}
	spans := map[string]*FuncLines{}
	for _, l := range b.lines {
		if l.File != name || l.Line <= 0 || !l.Stmt {
			continue
		}
		f, ok := b.FuncAt(l.Addr)
		if !ok {
			continue
		}
		s := spans[f.Name]
		if s == nil {
			spans[f.Name] = &FuncLines{Name: f.Name, First: l.Line, Last: l.Line}
			continue
		}
		s.First, s.Last = min(s.First, l.Line), max(s.Last, l.Line)
	}
	out := make([]FuncLines, 0, len(spans))
	for _, s := range spans {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].First != out[j].First {
			return out[i].First < out[j].First
		}
		return out[i].Name < out[j].Name
	})
	return name, out, nil
}
