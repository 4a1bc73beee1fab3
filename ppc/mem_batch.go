package ppc

import (
	"slices"
	"sync"
)

// Poke batches. A tool installing the same probes on many processes pokes the same
// writes (a trampoline, then the branch to it, per point) into each one, and with
// hundreds of points per process the pokes themselves were most of an install: looking
// up every patched page, leaf and mid by its bytes, process after process, to arrive at
// the same shared table. A PokeBatch is that list of writes, made once; applied to a
// Memory whose table it touches is shared, it remembers the mids it started from and the
// mids it ended with, and every later Memory starting from those same mids takes the
// result in one step per mid instead of one lookup per write. Anything else (a Memory
// that wrote its own copy of one of those regions, a write landing in a data page that
// must be private) runs the writes one by one, as Poke.

// PokeBatch is a sequence of writes applied in order, as Poke applies each, by
// Memory.PokeBatch. Its writes are fixed once it is first applied; it may be applied to
// Memories on different goroutines.
type PokeBatch struct {
	writes []batchWrite
	roots  []uint32 // the root slots (16 MiB regions) the writes touch, ascending

	mu   sync.Mutex
	memo []batchResult
}

type batchWrite struct {
	addr uint32
	data []byte
}

// batchResult is what the batch made of one starting table: the mids in roots' slots
// before and after. Each before mid was shared, so every Memory holding it sees the same
// bytes, and each after mid is shared too.
type batchResult struct {
	before, after []*mid
}

// batchMemoLen bounds the starting tables a batch remembers: ranks differing in what
// they patched before start from different mids, and a batch applied to all of them
// keeps the first few outcomes.
const batchMemoLen = 8

// NewPokeBatch returns an empty batch.
func NewPokeBatch() *PokeBatch { return &PokeBatch{} }

// Add appends a write of b at addr; the batch keeps b, which must not change afterwards.
func (b *PokeBatch) Add(addr uint32, data []byte) {
	b.writes = append(b.writes, batchWrite{addr, data})
	if len(data) == 0 {
		return
	}
	first, last := addr>>midShift, (addr+uint32(len(data))-1)>>midShift
	for i := first; ; i++ {
		if k, found := slices.BinarySearch(b.roots, i); !found {
			b.roots = slices.Insert(b.roots, k, i)
		}
		if i == last {
			break
		}
	}
}

// Len is the number of writes in the batch.
func (b *PokeBatch) Len() int { return len(b.writes) }

// PokeBatch applies b's writes to m in order, with Poke's result: the first write that
// fails returns its error, the writes before it done.
func (m *Memory) PokeBatch(b *PokeBatch) error {
	if m.takeBatch(b) {
		return nil
	}
	before, sharable := m.batchRoots(b)
	for _, w := range b.writes {
		if err := m.Poke(w.addr, w.data); err != nil {
			return err
		}
	}
	if after, ok := m.batchRoots(b); sharable && ok {
		b.remember(batchResult{before, after})
	}
	return nil
}

// batchRoots returns m's mids in b's root slots and whether all of them are shared
// (then another Memory holding the same mids holds the same bytes there).
func (m *Memory) batchRoots(b *PokeBatch) ([]*mid, bool) {
	mids := make([]*mid, len(b.roots))
	ok := m.derive
	for k, i := range b.roots {
		mids[k] = m.root[i]
		ok = ok && mids[k] != nil && m.shared.has(int(i))
	}
	return mids, ok
}

// takeBatch installs a remembered outcome of b when m starts from its mids.
func (m *Memory) takeBatch(b *PokeBatch) bool {
	if !m.derive {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, r := range b.memo {
		if m.holds(b.roots, r.before) {
			for k, i := range b.roots {
				m.root[i] = r.after[k]
			}
			m.gen++
			return true
		}
	}
	return false
}

// holds reports whether m's root slots hold exactly mids, each shared.
func (m *Memory) holds(slots []uint32, mids []*mid) bool {
	for k, i := range slots {
		if m.root[i] != mids[k] || !m.shared.has(int(i)) {
			return false
		}
	}
	return true
}

func (b *PokeBatch) remember(r batchResult) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.memo) < batchMemoLen {
		b.memo = append(b.memo, r)
	}
}
