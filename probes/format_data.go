package probes

import (
	"fmt"
	"strings"
)

// formatData renders the data nodes: a[i], (a[i] = x), s.push(x), s.pop(), s.depth(),
// point(), func(), a global by its name, load(addr, type) and store(addr, type, x).
func (e *Exp) formatData(b *strings.Builder) {
	switch e.Kind {
	case KPoint, KFunc:
		b.WriteString(e.Kind.String() + "()")
	case KWhole:
		b.WriteString(arrName(e))
	case KIndex, KSetIndex:
		if len(e.Kids) == 0 {
			b.WriteString("<malformed " + e.Kind.String() + ">")
			return
		}
		if e.Kind == KSetIndex {
			b.WriteString("(")
		}
		b.WriteString(arrName(e) + "[")
		e.Kids[0].format(b)
		b.WriteString("]")
		if e.Kind == KSetIndex && len(e.Kids) == 2 {
			b.WriteString(" = ")
			e.Kids[1].format(b)
			b.WriteString(")")
		}
	case KPush, KPop, KDepth:
		e.formatStack(b)
	default:
		e.formatMem(b)
	}
}

func arrName(e *Exp) string {
	if e.Arr == nil {
		return "<no array>"
	}
	return e.Arr.Name
}

func (e *Exp) formatStack(b *strings.Builder) {
	name := "<no stack>"
	if e.Stk != nil {
		name = e.Stk.Name
	}
	b.WriteString(name + "." + e.Kind.String() + "(")
	if e.Kind == KPush && len(e.Kids) == 1 {
		e.Kids[0].format(b)
	}
	b.WriteString(")")
}

// formatMem renders a load or store: by name for a program global, else with the address
// expression, its offset and the memory type.
func (e *Exp) formatMem(b *strings.Builder) {
	if len(e.Kids) == 0 {
		b.WriteString("<malformed " + e.Kind.String() + ">")
		return
	}
	if e.Name != "" {
		if e.Kind == KLoad {
			b.WriteString(e.Name)
			return
		}
		b.WriteString("(" + e.Name + " = ")
	} else {
		b.WriteString(e.Kind.String() + "(")
		e.Kids[0].format(b)
		if e.Idx != 0 {
			fmt.Fprintf(b, " + %d", e.Idx)
		}
		b.WriteString(", " + e.Mem.String())
		if e.Kind == KLoad {
			b.WriteString(")")
			return
		}
		b.WriteString(", ")
	}
	if len(e.Kids) == 2 {
		e.Kids[1].format(b)
	}
	b.WriteString(")")
}
