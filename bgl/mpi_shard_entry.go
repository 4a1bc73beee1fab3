package bgl

import (
	"fmt"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// A member's entry into a collective, as it travels between shards: everything the
// call's enter function put into the collective's state for that member, field by field,
// so one encoding serves every collective (its enter function runs on the member's own
// shard, the only one that can read the member's memory). Nil and empty stay apart: a
// nil part is a member that brought none (Gatherv's MPI_IN_PLACE root), and the engine
// tells them apart.
//
//	flags  byte   entryParts, entryRoot, entryPieces, entrySplit, entryGroup
//	parts  opt    k.parts[me]                        (entryParts)
//	root   opt,u32 k.rootBuf, k.chunk                (entryRoot: me is the root; Scatterv's
//	                                                 buffer is its pieces end to end)
//	pieces u32 rows, u32 row, u32 n, n × opt          (entryPieces: k.more.pieces[row])
//	split  i32 color, i32 key                        (entrySplit)
//	group  u32 n, n × u32 world rank                 (entryGroup)
//
// where opt is a u32 length plus one (0 for nil) and the bytes.
const (
	entryParts = 1 << iota
	entryRoot
	entryPieces
	entrySplit
	entryGroup
)

// reductionCalls are the collectives whose block is {sendbuf, recvbuf, count, type, op,
// ...}: their entries carry the type and operation, which every member must agree on.
var reductionCalls = map[abi.Sysno]bool{
	abi.HcMPIReduce: true, abi.HcMPIAllreduce: true, abi.HcMPIScan: true, abi.HcMPIExscan: true,
	abi.HcMPIReduceScatter: true, abi.HcMPIReduceScatterBlock: true,
}

// constructorCalls make communicators: their entries go to every process, so that each
// completes every one of them in the same order and numbers the communicators as one
// process does, whether or not it holds a member.
var constructorCalls = map[abi.Sysno]bool{
	abi.HcMPICommSplit: true, abi.HcMPICommDup: true, abi.HcMPICommCreate: true,
	abi.HcMPIIntercommMake: true, abi.HcMPIIntercommMerge: true,
}

func appendOpt(b, p []byte) []byte {
	if p == nil {
		return be.AppendUint32(b, 0)
	}
	return append(be.AppendUint32(b, uint32(len(p))+1), p...)
}

// encodeEntry is member me's entry into k.
func encodeEntry(k *mpiColl, me int) []byte {
	var flags byte
	var b []byte
	if k.parts != nil {
		flags |= entryParts
		b = appendOpt(b, k.parts[me])
	}
	if me == k.root && k.num != abi.HcMPIScatterv && (k.rootBuf != nil || k.chunk != 0) {
		flags |= entryRoot
		b = be.AppendUint32(appendOpt(b, k.rootBuf), k.chunk)
	}
	if m := k.more; m != nil {
		row, own := me, true
		if k.num == abi.HcMPIScatterv {
			row, own = 0, me == k.root // the root's pieces, one per destination
		}
		if own && row < len(m.pieces) && m.pieces[row] != nil {
			flags |= entryPieces
			b = be.AppendUint32(be.AppendUint32(b, uint32(len(m.pieces))), uint32(row))
			b = be.AppendUint32(b, uint32(len(m.pieces[row])))
			for _, p := range m.pieces[row] {
				b = appendOpt(b, p)
			}
		}
		if m.colors != nil {
			flags |= entrySplit
			b = be.AppendUint32(be.AppendUint32(b, uint32(m.colors[me])), uint32(m.keys[me]))
		}
		if m.groups != nil && m.groups[me] != nil {
			flags |= entryGroup
			b = be.AppendUint32(b, uint32(len(m.groups[me])))
			for _, w := range m.groups[me] {
				b = be.AppendUint32(b, uint32(w))
			}
		}
	}
	return append([]byte{flags}, b...)
}

// entryReader takes an entry's fields in order; the first short read sticks as err.
type entryReader struct {
	b   []byte
	err error
}

func (r *entryReader) u32(what string) uint32 {
	if r.err != nil {
		return 0
	}
	if len(r.b) < 4 {
		r.err = fmt.Errorf("the entry ends inside %s", what)
		return 0
	}
	v := be.Uint32(r.b)
	r.b = r.b[4:]
	return v
}

func (r *entryReader) opt(what string) []byte {
	n := r.u32(what)
	if r.err != nil || n == 0 {
		return nil
	}
	if uint64(n-1) > uint64(len(r.b)) {
		r.err = fmt.Errorf("%s of %d bytes runs past the entry's end (%d bytes left)", what, n-1, len(r.b))
		return nil
	}
	p := r.b[: n-1 : n-1]
	r.b = r.b[n-1:]
	return p
}

// count reads a count of items of at least min bytes each, no more than the entry holds.
func (r *entryReader) count(what string, min int) int {
	n := r.u32(what)
	if r.err == nil && uint64(n)*uint64(min) > uint64(len(r.b)) {
		r.err = fmt.Errorf("%s of %d items runs past the entry's end", what, n)
		return 0
	}
	return int(n)
}

// decodeEntry puts member me's entry b (which k keeps: the caller hands it a copy) into
// k's state as the member's enter function put it on its own shard.
func decodeEntry(k *mpiColl, me int, b []byte) error {
	if len(b) == 0 {
		return fmt.Errorf("an empty entry")
	}
	size := k.comm.size
	flags, r := b[0], &entryReader{b: b[1:]}
	if flags&entryParts != 0 {
		p := r.opt("the member's part")
		if k.parts == nil {
			k.parts = make([][]byte, size)
		}
		k.parts[me] = p
	}
	if flags&entryRoot != 0 {
		k.rootBuf, k.chunk = r.opt("the root's buffer"), r.u32("the root's chunk")
	}
	if flags&entryPieces != 0 {
		rows, row := r.count("the pieces' rows", 0), int(r.u32("the pieces' row"))
		n := r.count("the pieces", 4)
		if r.err == nil && (row >= rows || rows > size || n > size) {
			return fmt.Errorf("pieces row %d of %d with %d pieces, for %d members", row, rows, n, size)
		}
		pieces := make([][]byte, n)
		for i := range pieces {
			pieces[i] = r.opt("a piece")
		}
		m := k.extra()
		if m.pieces == nil && r.err == nil {
			m.pieces = make([][][]byte, rows)
		}
		if r.err == nil {
			m.pieces[row] = pieces
		}
		if k.num == abi.HcMPIScatterv { // the root's buffer is its pieces end to end, for the cost
			for _, p := range pieces {
				k.rootBuf = append(k.rootBuf, p...)
			}
		}
	}
	if flags&entrySplit != 0 {
		color, key := int32(r.u32("the color")), int32(r.u32("the key"))
		m := k.extra()
		if m.colors == nil {
			m.colors, m.keys = make([]int32, size), make([]int32, size)
		}
		m.colors[me], m.keys[me] = color, key
	}
	if flags&entryGroup != 0 {
		g := make([]int, r.count("the group", 4))
		for i := range g {
			g[i] = int(r.u32("a group member"))
		}
		m := k.extra()
		if m.groups == nil {
			m.groups = make([][]int, size)
		}
		m.groups[me] = g
	}
	if r.err == nil && len(r.b) != 0 {
		return fmt.Errorf("%d stray bytes after the entry's fields", len(r.b))
	}
	return r.err
}
