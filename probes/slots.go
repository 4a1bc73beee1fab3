package probes

import "fmt"

// Slots allocates probe variables in a window of the instrumentation region. The runtime
// uses one allocator per job, so a variable has the same address on every node.
type Slots struct {
	base, limit, next uint32
	names             map[string]bool
}

// NewSlots manages [base, base+size).
func NewSlots(base, size uint32) *Slots {
	return &Slots{base: base, limit: base + size, next: base, names: map[string]bool{}}
}

// Alloc reserves a slot for a variable of type t, aligned to its size. An empty name gets
// one made from the address ("v_10000010").
func (s *Slots) Alloc(name string, t Type) (*Var, error) {
	if t == Void {
		return nil, errorf("allocate variable %q: a variable needs a type", name)
	}
	sz := t.size()
	addr := (s.next + sz - 1) &^ (sz - 1)
	if addr+sz > s.limit || addr < s.next {
		return nil, errorf("allocate %s variable %q: region [0x%x,0x%x) is full", t, name, s.base, s.limit)
	}
	if name == "" {
		name = fmt.Sprintf("v_%x", addr)
	}
	if s.names[name] {
		return nil, errorf("allocate variable %q: name already used", name)
	}
	s.names[name] = true
	s.next = addr + sz
	return &Var{Name: name, T: t, Addr: addr}, nil
}

// Used is the number of bytes handed out so far (alignment included).
func (s *Slots) Used() uint32 { return s.next - s.base }
