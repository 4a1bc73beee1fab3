package probes

import (
	"math"
	"strconv"
	"strings"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// String renders the expression in C-like syntax: binary operations fully parenthesized,
// int64 constants with an LL suffix, when as ?: (or if without else), seq as a comma list.
func (e *Exp) String() string {
	var b strings.Builder
	e.format(&b)
	return b.String()
}

func formatDouble(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "INFINITY"
	case math.IsInf(f, -1):
		return "-INFINITY"
	case math.IsNaN(f):
		return "NAN"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

func (e *Exp) format(b *strings.Builder) {
	if e == nil {
		b.WriteString("<nil>")
		return
	}
	switch e.Kind {
	case KConst:
		b.WriteString(e.Val.String())
		if e.Val.T == Int64 {
			b.WriteString("LL")
		}
	case KVar:
		b.WriteString(e.Var.Name)
	case KArg:
		b.WriteString("arg(" + strconv.Itoa(e.Idx))
		if e.T != Int {
			b.WriteString(", " + e.T.String())
		}
		b.WriteString(")")
	case KRetval:
		if e.T != Int {
			b.WriteString("retval(" + e.T.String() + ")")
		} else {
			b.WriteString("retval()")
		}
	case KRank, KTimebase:
		if e.Kind == KTimebase && e.Idx == 1 {
			b.WriteString("point_timebase()")
			break
		}
		b.WriteString(e.Kind.String() + "()")
	case KCounter:
		b.WriteString("counter(" + strconv.Quote(e.Name) + ")")
	case KCall, KSend:
		name := e.Name
		if e.Kind == KSend {
			name = "send"
		}
		b.WriteString(name)
		formatList(b, e.Kids, "(", ")")
	case KNeg, KBNot, KLNot:
		b.WriteString(kinds[e.Kind].c)
		e.Kids[0].format(b)
	case KAssign:
		b.WriteString("(" + e.Var.Name + " = ")
		e.Kids[0].format(b)
		b.WriteString(")")
	case KSeq:
		formatList(b, e.Kids, "(", ")")
	case KWhen:
		e.formatWhen(b)
	case KIndex, KSetIndex, KWhole, KPush, KPop, KDepth, KPoint, KFunc, KLoad, KStore:
		e.formatData(b)
	case KReg, KUstack:
		e.formatStackData(b)
	case KSkip, KJump:
		e.formatLeave(b)
	case KSum:
		// sum(i < n: body), the index named as Sum named it.
		b.WriteString("sum(" + e.Kids[2].Name + " < ")
		e.Kids[0].format(b)
		b.WriteString(": ")
		e.Kids[1].format(b)
		b.WriteString(")")
	case KSumIndex:
		b.WriteString(e.Name)
	case KCommInfo:
		b.WriteString([...]string{abi.CommSize: "comm_size(", abi.CommRemoteSize: "comm_remote_size(", abi.CommRank: "comm_rank("}[e.Idx])
		e.Kids[0].format(b)
		b.WriteString(")")
	default:
		e.formatBinary(b)
	}
}

func formatList(b *strings.Builder, es []*Exp, open, close string) {
	b.WriteString(open)
	for i, k := range es {
		if i > 0 {
			b.WriteString(", ")
		}
		k.format(b)
	}
	b.WriteString(close)
}

func (e *Exp) formatWhen(b *strings.Builder) {
	if len(e.Kids) == 2 {
		b.WriteString("if (")
		e.Kids[0].format(b)
		b.WriteString(") ")
		e.Kids[1].format(b)
		return
	}
	b.WriteString("(")
	e.Kids[0].format(b)
	b.WriteString(" ? ")
	e.Kids[1].format(b)
	b.WriteString(" : ")
	e.Kids[2].format(b)
	b.WriteString(")")
}

func (e *Exp) formatBinary(b *strings.Builder) {
	if len(e.Kids) != 2 || e.Kind >= kindCount {
		b.WriteString("<malformed " + e.Kind.String() + ">")
		return
	}
	b.WriteString("(")
	e.Kids[0].format(b)
	b.WriteString(" " + kinds[e.Kind].c + " ")
	e.Kids[1].format(b)
	b.WriteString(")")
}
