package probes

// Constructors of the data nodes: arrays, stacks, program memory and point identity.

// Index reads a[i] (i an int expression); an index outside 0..N-1 reads 0 and counts an
// overflow.
func Index(a *Array, i *Exp) *Exp { return &Exp{Kind: KIndex, Arr: a, Kids: []*Exp{i}} }

// SetIndex stores x into a[i] (widening only); its value is the stored value. An index
// outside 0..N-1 stores nothing and counts an overflow.
func SetIndex(a *Array, i, x *Exp) *Exp {
	return &Exp{Kind: KSetIndex, Arr: a, Kids: []*Exp{i, x}}
}

// Whole stands for every element of a, in order: only as an operand of Send.
func Whole(a *Array) *Exp { return &Exp{Kind: KWhole, Arr: a} }

// Push pushes x on s (widening only); no value. A full stack refuses it and counts an
// overflow.
func Push(s *Stack, x *Exp) *Exp { return &Exp{Kind: KPush, Stk: s, Kids: []*Exp{x}} }

// Pop removes and yields the top of s; an empty stack yields 0 and counts an underflow.
func Pop(s *Stack) *Exp { return &Exp{Kind: KPop, Stk: s} }

// Depth is the number of elements on s (int).
func Depth(s *Stack) *Exp { return &Exp{Kind: KDepth, Stk: s} }

// PointIndex is the index of the point the probe runs at in the list it was installed on
// (int; -1 in code not placed at a point, such as a one-shot execute).
func PointIndex() *Exp { return &Exp{Kind: KPoint} }

// FuncIndex is the index in Program.Funcs of the function containing the point (int; -1
// when not placed at a point).
func FuncIndex() *Exp { return &Exp{Kind: KFunc} }

// Load reads a value of memory type m at addr + off (addr an int expression). A load
// from memory the node cannot read yields 0 and counts a fault.
func Load(addr *Exp, m MemType, off int32) *Exp {
	return &Exp{Kind: KLoad, Kids: []*Exp{addr}, Mem: m, Idx: int(off)}
}

// Store writes x, converted to memory type m, at addr + off; its value is x as m reads
// back. A store to memory the node cannot write does nothing and counts a fault.
func Store(addr *Exp, m MemType, off int32, x *Exp) *Exp {
	return &Exp{Kind: KStore, Kids: []*Exp{addr, x}, Mem: m, Idx: int(off)}
}

// IsLvalue reports whether e can be assigned (AssignTo): a probe variable, an array
// element or a load from program memory.
func IsLvalue(e *Exp) bool {
	return e != nil && (e.Kind == KVar || e.Kind == KIndex || (e.Kind == KLoad && e.Mem != MemNone))
}

// AssignTo builds the store of x into the lvalue dst (see IsLvalue); nil when dst is not
// an lvalue.
func AssignTo(dst, x *Exp) *Exp {
	switch {
	case dst == nil:
		return nil
	case dst.Kind == KVar:
		return Assign(dst.Var, x)
	case dst.Kind == KIndex:
		return SetIndex(dst.Arr, dst.Kids[0], x)
	case dst.Kind == KLoad:
		s := Store(dst.Kids[0], dst.Mem, int32(dst.Idx), x)
		s.Name = dst.Name
		return s
	}
	return nil
}
