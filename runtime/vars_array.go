package runtime

import (
	"github.com/dpclsh/dpclsh/probes"
)

// Array allocates a probe array of n elements of type t: slots in the instrumentation
// region, the same address on every node, with its overflow counter. name may be "".
func (a *App) Array(t probes.Type, n int, name string) (*probes.Array, error) {
	arr, err := a.slots.AllocArray(name, t, n)
	if err != nil {
		return nil, errorf("array: %w", err)
	}
	return arr, nil
}

// Stack allocates a probe stack of up to depth elements of type t.
func (a *App) Stack(t probes.Type, depth int, name string) (*probes.Stack, error) {
	s, err := a.slots.AllocStack(name, t, depth)
	if err != nil {
		return nil, errorf("stack: %w", err)
	}
	return s, nil
}

// ReadValues reads n consecutive values of memory type m at addr in rank's memory
// (after the rank ended too).
func (a *App) ReadValues(rank int, addr uint32, m probes.MemType, n int) ([]probes.Value, error) {
	p, err := a.Process(rank)
	if err != nil {
		return nil, err
	}
	size := m.Size()
	b, err := p.Read(addr, size*uint32(n))
	if err != nil {
		return nil, errorf("read rank %d at 0x%x: %w", rank, addr, err)
	}
	out := make([]probes.Value, n)
	for i := range out {
		out[i] = probes.DecodeMem(m, b[uint32(i)*size:])
	}
	return out, nil
}

// SumCounter sums the int at addr over the ranks in (all ranks when in is nil).
func (a *App) SumCounter(addr uint32, in func(rank int) bool) (int64, error) {
	var sum int64
	for r := range a.Size() {
		if in != nil && !in(r) {
			continue
		}
		v, err := a.ReadValues(r, addr, probes.MemI32, 1)
		if err != nil {
			return sum, err
		}
		sum += v[0].I
	}
	return sum, nil
}

// FuncName is the name of the function probe func() calls id (its index in the
// program's functions).
func (a *App) FuncName(id int) (string, error) {
	if id < 0 || id >= len(a.Prog.Funcs) {
		return "", errorf("func_name: %d is not a function id (0..%d)", id, len(a.Prog.Funcs)-1)
	}
	return a.Prog.Funcs[id].Name, nil
}
