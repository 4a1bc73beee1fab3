package probes

import "sort"

// FuncIndex is the index in Funcs of the function containing addr: the id probe func()
// yields at a point.
func (b *Program) FuncIndex(addr uint32) (int, bool) {
	i := sort.Search(len(b.Funcs), func(i int) bool { return b.Funcs[i].Addr > addr }) - 1
	if i >= 0 && addr-b.Funcs[i].Addr < b.Funcs[i].Size {
		return i, true
	}
	return -1, false
}
