package cobj

import "fmt"

// Error is an object that cannot be loaded: what was wrong and where (the file, and when
// it concerns one, the section and offset, the relocation and the symbol).
type Error struct {
	File    string
	Section string // "" when it concerns the whole object
	Offset  uint32 // within Section, for a relocation
	Reloc   string // the relocation type, "" when not about one
	Symbol  string // "" when not about one
	Why     string
}

func (e *Error) Error() string { return "cobj: " + e.Detail() }

// Detail is the message without the package prefix: file, place, relocation, symbol, why.
func (e *Error) Detail() string {
	s := e.File
	if e.Section != "" {
		s += ": " + e.Section
		if e.Reloc != "" {
			s += fmt.Sprintf("+0x%x", e.Offset)
		}
	}
	if e.Reloc != "" {
		s += ": " + e.Reloc
		if e.Symbol != "" {
			s += " against " + e.Symbol
		}
	} else if e.Symbol != "" {
		s += ": symbol " + e.Symbol
	}
	return s + ": " + e.Why
}
