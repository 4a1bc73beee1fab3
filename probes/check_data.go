package probes

// sendCount is the number of values a send carries: one per scalar operand, N per array.
func sendCount(e *Exp) int {
	n := 0
	for _, k := range e.Kids {
		if k != nil && k.Kind == KWhole && k.Arr != nil {
			n += k.Arr.N
		} else if k != nil && k.Kind == KUstack && k.Idx > 0 {
			n += k.Idx
		} else {
			n++
		}
	}
	return n
}

// checkData checks the array, stack, memory and point-identity nodes.
func (c *checker) checkData(e *Exp) (Type, error) {
	switch e.Kind {
	case KPoint, KFunc:
		return Int, nil
	case KIndex, KSetIndex, KWhole:
		return c.checkIndex(e)
	case KPush, KPop, KDepth:
		return c.checkStack(e)
	}
	return c.checkMem(e)
}

func (c *checker) checkIndex(e *Exp) (Type, error) {
	a := e.Arr
	if a == nil || a.T == Void || a.N < 1 {
		return Void, typeErr(e, "malformed %s node: no array", e.Kind)
	}
	want := map[Kind]int{KIndex: 1, KSetIndex: 2, KWhole: 0}[e.Kind]
	if len(e.Kids) != want {
		return Void, typeErr(e, "malformed %s node", e.Kind)
	}
	if e.Kind == KWhole {
		return Void, typeErr(e, "array %s is not a value: index it (%s[i]) or send it whole (probe.send(%s))", a.Name, a.Name, a.Name)
	}
	it, err := c.operand(e, e.Kids[0])
	if err != nil {
		return Void, err
	}
	if it != Int {
		return Void, typeErr(e, "index of array %s must be an int, not %s", a.Name, it)
	}
	if e.Kind == KSetIndex {
		t, err := c.check(e.Kids[1])
		if err != nil {
			return Void, err
		}
		if !assignable(a.T, t) {
			return Void, typeErr(e, "cannot assign %s to an element of %s array %s", t, a.T, a.Name)
		}
	}
	return a.T, nil
}

func (c *checker) checkStack(e *Exp) (Type, error) {
	s := e.Stk
	if s == nil || s.T == Void || s.Depth < 1 {
		return Void, typeErr(e, "malformed %s node: no stack", e.Kind)
	}
	switch e.Kind {
	case KDepth:
		return Int, nil
	case KPop:
		return s.T, nil
	}
	if len(e.Kids) != 1 {
		return Void, typeErr(e, "malformed push node")
	}
	t, err := c.check(e.Kids[0])
	if err != nil {
		return Void, err
	}
	if !assignable(s.T, t) {
		return Void, typeErr(e, "cannot push %s on %s stack %s", t, s.T, s.Name)
	}
	return Void, nil
}

func (c *checker) checkMem(e *Exp) (Type, error) {
	if e.Mem == MemNone && e.Shape != nil {
		what := map[CKind]string{CStruct: "a struct: take a field (.name)", CArray: "an array: take an element ([i])"}[e.Shape.Kind]
		return Void, typeErr(e, "%s (%s) is %s", e.Name, e.Shape, what)
	}
	if e.Mem == MemNone || e.Mem >= memTypeCount {
		return Void, typeErr(e, "%s needs a memory type", e.Kind)
	}
	if (e.Kind == KLoad && len(e.Kids) != 1) || (e.Kind == KStore && len(e.Kids) != 2) {
		return Void, typeErr(e, "malformed %s node", e.Kind)
	}
	at, err := c.operand(e, e.Kids[0])
	if err != nil {
		return Void, err
	}
	if at != Int {
		return Void, typeErr(e, "address of %s must be an int (32-bit), not %s", e.Kind, at)
	}
	vt := e.Mem.ValueType()
	if e.Kind == KStore {
		t, err := c.check(e.Kids[1])
		if err != nil {
			return Void, err
		}
		if !assignable(vt, t) {
			return Void, typeErr(e, "cannot store %s into %s memory (a %s value)", t, e.Mem, vt)
		}
	}
	return vt, nil
}
