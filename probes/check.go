package probes

import (
	"fmt"
)

// TypeError is a type error in an expression: the offending node and why.
type TypeError struct {
	Node *Exp
	Why  string
}

// Unprefixed is the error's text without "probes: "; Error adds it.
func (e *TypeError) Unprefixed() string {
	return fmt.Sprintf("%s in %s", e.Why, e.Node)
}

func (e *TypeError) Error() string { return "probes: " + e.Unprefixed() }

// Package is the name the error's text starts with.
func (e *TypeError) Package() string { return "probes" }

func typeErr(n *Exp, format string, args ...any) error {
	return &TypeError{Node: n, Why: fmt.Sprintf(format, args...)}
}

// Limits of the calling convention the code generator follows.
const (
	maxIntArgs    = 8 // r3..r10
	maxDoubleArgs = 8 // f1..f8
	// MaxSendValues is the most values one send carries (arrays count every element).
	MaxSendValues = 256
)

// Check type-checks the tree and returns the type of its value. A node that checked once
// keeps its type (nodes are immutable), so checking a new node over checked subtrees costs
// only the new node: building a tree of n nodes one constructor at a time, each checked, is
// O(n), not O(n^2).
func Check(e *Exp) (Type, error) {
	return (&checker{}).check(e)
}

// checker type-checks a tree; the types it finds stay on the nodes (Exp.checked).
type checker struct {
	visited int // nodes checked from scratch (the linear-building test counts them)
}

func (c *checker) check(e *Exp) (Type, error) {
	if e == nil {
		return Void, errorf("nil expression")
	}
	if t, ok := e.checkedType(); ok {
		return t, nil
	}
	c.visited++
	t, err := c.checkNode(e)
	if err == nil {
		e.setChecked(t)
	}
	return t, err
}

func (c *checker) checkNode(e *Exp) (Type, error) {
	if e == nil {
		return Void, errorf("nil expression")
	}
	switch e.Kind {
	case KConst, KRetval:
		return e.T, nil
	case KVar:
		return e.Var.T, nil
	case KArg:
		return c.checkArg(e)
	case KRank:
		return Int, nil
	case KTimebase:
		return Int64, nil
	case KCounter:
		if counterID(e.Name) < 0 {
			return Void, typeErr(e, "unknown counter %q (known: %v)", e.Name, CounterNames)
		}
		return Int64, nil
	case KCall:
		return c.checkCall(e)
	case KSend:
		return c.checkSend(e)
	case KNeg, KBNot, KLNot:
		return c.checkUnary(e)
	case KAssign:
		return c.checkAssign(e)
	case KSeq:
		return c.checkSeq(e)
	case KWhen:
		return c.checkWhen(e)
	case KIndex, KSetIndex, KWhole, KPush, KPop, KDepth, KPoint, KFunc, KLoad, KStore:
		return c.checkData(e)
	case KReg, KUstack:
		return checkStackData(e)
	case KSkip, KJump:
		return c.checkLeave(e)
	case KSum:
		return c.checkSum(e)
	case KSumIndex:
		return Int, nil
	case KCommInfo:
		return c.checkCommInfo(e)
	}
	if e.Kind < kindCount && len(e.Kids) == 2 {
		return c.checkBinary(e)
	}
	return Void, typeErr(e, "malformed %s node", e.Kind)
}

func (c *checker) checkArg(e *Exp) (Type, error) {
	if e.T == Void {
		return Void, typeErr(e, "argument type must be int, int64 or double")
	}
	if e.Idx < 0 || e.Idx >= maxIntArgs || (e.T == Int64 && e.Idx%2 != 0) {
		if e.T == Int64 {
			return Void, typeErr(e, "int64 arguments live in the pairs r3:r4, r5:r6, r7:r8, r9:r10: index must be 0, 2, 4 or 6, not %d", e.Idx)
		}
		return Void, typeErr(e, "argument index %d out of range 0..7", e.Idx)
	}
	return e.T, nil
}

func (c *checker) checkCall(e *Exp) (Type, error) {
	if e.Name == "" {
		return Void, typeErr(e, "call needs a function name")
	}
	ni, nd := 0, 0
	for i, k := range e.Kids {
		t, err := c.check(k)
		if err != nil {
			return Void, err
		}
		switch t {
		case Void:
			return Void, typeErr(e, "argument %d of call %s has no value", i+1, e.Name)
		case Double:
			nd++
		case Int64:
			ni += ni % 2
			ni += 2
		default:
			ni++
		}
	}
	if ni > maxIntArgs || nd > maxDoubleArgs {
		return Void, typeErr(e, "call %s passes more arguments than fit in r3..r10 and f1..f8", e.Name)
	}
	return Int, nil
}

func (c *checker) checkSend(e *Exp) (Type, error) {
	if n := sendCount(e); n == 0 || n > MaxSendValues {
		return Void, typeErr(e, "send takes 1 to %d values (an array counts its elements), not %d", MaxSendValues, n)
	}
	for i, k := range e.Kids {
		if k != nil && k.Kind == KWhole && k.Arr != nil {
			continue
		}
		if k != nil && k.Kind == KUstack {
			if err := checkUstackDepth(k); err != nil {
				return Void, err
			}
			continue
		}
		t, err := c.check(k)
		if err != nil {
			return Void, err
		}
		if t == Void {
			return Void, typeErr(e, "value %d of send has no value", i+1)
		}
	}
	return Void, nil
}

func (c *checker) checkUnary(e *Exp) (Type, error) {
	if len(e.Kids) != 1 {
		return Void, typeErr(e, "malformed %s node", e.Kind)
	}
	t, err := c.operand(e, e.Kids[0])
	if err != nil {
		return Void, err
	}
	switch e.Kind {
	case KLNot:
		return Int, nil
	case KBNot:
		if t == Double {
			return Void, typeErr(e, "cannot apply ~ to a double")
		}
	}
	return t, nil
}

// operand checks a child that must produce a value.
func (c *checker) operand(parent, kid *Exp) (Type, error) {
	t, err := c.check(kid)
	if err != nil {
		return Void, err
	}
	if t == Void {
		return Void, typeErr(parent, "operand %s of %s has no value", kid, parent.Kind)
	}
	return t, nil
}

// promote is C's usual arithmetic conversion over our three types.
func promote(a, b Type) Type { return max(a, b) }

func (c *checker) checkBinary(e *Exp) (Type, error) {
	a, err := c.operand(e, e.Kids[0])
	if err != nil {
		return Void, err
	}
	b, err := c.operand(e, e.Kids[1])
	if err != nil {
		return Void, err
	}
	switch e.Kind {
	case KAdd, KSub, KMul, KDiv:
		return promote(a, b), nil
	case KMod, KBAnd, KBOr, KBXor:
		if a == Double || b == Double {
			return Void, typeErr(e, "cannot apply %s to a double", kinds[e.Kind].c)
		}
		return promote(a, b), nil
	case KShl, KShr:
		if a == Double || b == Double {
			return Void, typeErr(e, "cannot shift a double or by a double")
		}
		return a, nil
	case KEq, KNe, KLt, KLe, KGt, KGe, KLAnd, KLOr:
		return Int, nil
	}
	return Void, typeErr(e, "malformed %s node", e.Kind)
}

// assignable reports whether a value of type from may be stored in a variable of type to:
// only widening conversions are implicit.
func assignable(to, from Type) bool { return from != Void && from <= to }

func (c *checker) checkAssign(e *Exp) (Type, error) {
	if e.Var == nil || len(e.Kids) != 1 {
		return Void, typeErr(e, "malformed assign node")
	}
	t, err := c.check(e.Kids[0])
	if err != nil {
		return Void, err
	}
	if !assignable(e.Var.T, t) {
		return Void, typeErr(e, "cannot assign %s to %s variable %s", t, e.Var.T, e.Var.Name)
	}
	return e.Var.T, nil
}

func (c *checker) checkSeq(e *Exp) (Type, error) {
	if len(e.Kids) == 0 {
		return Void, typeErr(e, "empty sequence")
	}
	var t Type
	for _, k := range e.Kids {
		var err error
		if t, err = c.check(k); err != nil {
			return Void, err
		}
	}
	return t, nil
}

func (c *checker) checkWhen(e *Exp) (Type, error) {
	if len(e.Kids) < 2 || len(e.Kids) > 3 {
		return Void, typeErr(e, "malformed when node")
	}
	if _, err := c.operand(e, e.Kids[0]); err != nil {
		return Void, err
	}
	a, err := c.check(e.Kids[1])
	if err != nil {
		return Void, err
	}
	if len(e.Kids) == 2 {
		return Void, nil
	}
	b, err := c.check(e.Kids[2])
	if err != nil {
		return Void, err
	}
	if a == Void || b == Void {
		return Void, nil
	}
	return promote(a, b), nil
}
