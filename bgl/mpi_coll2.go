package bgl

import (
	"github.com/dpclsh/dpclsh/bgl/abi"
)

// The collectives beyond MPI-1's common ones: all-to-all, the v-variants, Reduce_scatter,
// the scans. Where the standard allows MPI_IN_PLACE the engine takes the caller's data
// from the receive buffer.

// mpiInPlace is MPI_IN_PLACE as mpi.h defines it, ((void *)-1).
const mpiInPlace = 0xffffffff

// collMore is the state of the collectives of this file and of communicator creation.
type collMore struct {
	pieces  [][][]byte // Alltoall(v): pieces[src][dst]; Scatterv: pieces[0][dst]
	results [][]byte   // Scan, Exscan: per rank
	colors  []int32    // Comm_split
	keys    []int32
	groups  [][]int // Comm_create: each rank's group, as world ranks
	handles []uint32
}

func (k *mpiColl) extra() *collMore {
	if k.more == nil {
		k.more = &collMore{}
	}
	return k.more
}

func init() {
	reduceCost := func(ways uint64) func(k *mpiColl) uint64 {
		return func(k *mpiColl) uint64 { return treeCost(k, uint64(len(k.result)), ways) }
	}
	for num, spec := range map[abi.Sysno]collSpec{
		abi.HcMPIAlltoall:  {comm: 6, root: -1, enter: enterAlltoall, leave: leaveAlltoall, cost: pieceCost},
		abi.HcMPIAlltoallv: {comm: 8, root: -1, enter: enterAlltoallv, leave: leaveAlltoallv, cost: pieceCost},
		abi.HcMPIAllgatherv: {comm: 7, root: -1, enter: enterAllgatherv, leave: leaveAllgatherv,
			cost: func(k *mpiColl) uint64 { return treeCost(k, partBytes(k), 2) }},
		abi.HcMPIScatterv: {comm: 8, root: 7, enter: enterScatterv, leave: leaveScatterv,
			cost: func(k *mpiColl) uint64 { return treeCost(k, uint64(len(k.rootBuf)), 1) }},
		abi.HcMPIReduceScatter: {comm: 5, root: -1, enter: enterReduceScatter, leave: leaveReduceScatter, cost: reduceCost(2)},
		abi.HcMPIScan:          {comm: 5, root: -1, enter: enterReduce, complete: completeScan, leave: leaveScan, cost: reduceCost(1)},
		abi.HcMPIExscan:        {comm: 5, root: -1, enter: enterReduce, complete: completeScan, leave: leaveScan, cost: reduceCost(1)},
	} {
		collSpecs[num] = spec
	}
}

// pieceCost is an all-to-all's cost on the torus (mpi_cost.go).
func pieceCost(k *mpiColl) uint64 {
	var total, maxOut uint64
	for src, row := range k.more.pieces {
		var out uint64
		for dst, p := range row {
			if dst != src {
				out += uint64(len(p))
			}
		}
		total += out
		maxOut = max(maxOut, out)
	}
	return alltoallCost(k.comm.size, total, maxOut)
}

// readInts reads n ints of an int array argument.
func readInts(n *node, addr uint32, count int, what string) ([]int32, error) {
	b, err := readBuf(n, addr, uint32(4*count), what)
	if err != nil {
		return nil, err
	}
	out := make([]int32, count)
	for i := range out {
		out[i] = int32(be.Uint32(b[4*i:]))
	}
	return out, nil
}

// typeExtent checks a datatype and returns its extent.
func typeExtent(h uint32) (uint32, error) {
	t, err := typeOf(h)
	return uint32(t.size), err
}

// vLayout reads a (counts, displs) pair of arrays into byte slots of a buffer.
func vLayout(n *node, counts, displs uint32, size int, typ uint32, call string) ([]collSlot, error) {
	ext, err := typeExtent(typ)
	if err != nil {
		return nil, err
	}
	cs, err := readInts(n, counts, size, call+" counts")
	if err != nil {
		return nil, err
	}
	ds, err := readInts(n, displs, size, call+" displs")
	if err != nil {
		return nil, err
	}
	out := make([]collSlot, size)
	for i := range out {
		if cs[i] < 0 || ds[i] < 0 || uint64(cs[i])*uint64(ext) > 1<<30 {
			return nil, mpiErrorf(mpiErrCount, "invalid count: %s counts[%d] = %d, displs[%d] = %d", call, i, cs[i], i, ds[i])
		}
		out[i] = collSlot{off: uint32(ds[i]) * ext, cap: uint32(cs[i]) * ext}
	}
	return out, nil
}

// putPiece writes one rank's piece into a receive slot, refusing more data than it holds.
func putPiece(n *node, c *mpiCall, buf uint32, slot collSlot, p []byte, from int) error {
	if uint32(len(p)) > slot.cap {
		return mpiErrorf(mpiErrTruncate, "count mismatch: %s: %d bytes from rank %d into a %d-byte receive slot",
			mpiCallName(c.num), len(p), from, slot.cap)
	}
	return writeBuf(n, buf+slot.off, p, "receive buffer")
}

// Alltoall {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm}.
func enterAlltoall(e *mpiEngine, n *node, c *mpiCall, k *mpiColl) error {
	buf, count, typ := c.w[0], c.w[1], c.w[2]
	if buf == mpiInPlace {
		buf, count, typ = c.w[3], c.w[4], c.w[5]
	}
	chunk, err := bufBytes(count, typ)
	if err != nil {
		return err
	}
	size := k.comm.size
	data, err := readBuf(n, buf, chunk*uint32(size), "send buffer")
	if err != nil {
		return err
	}
	row := make([][]byte, size)
	for d := range row {
		row[d] = data[uint32(d)*chunk : uint32(d+1)*chunk]
	}
	m := k.extra()
	if m.pieces == nil {
		m.pieces = make([][][]byte, size)
	}
	m.pieces[c.me] = row
	return nil
}

func leaveAlltoall(n *node, c *mpiCall, k *mpiColl) error {
	chunk, err := bufBytes(c.w[4], c.w[5])
	if err != nil {
		return err
	}
	for src, row := range k.more.pieces {
		if err := putPiece(n, c, c.w[3], collSlot{off: uint32(src) * chunk, cap: chunk}, row[c.me], src); err != nil {
			return err
		}
	}
	return nil
}

// Alltoallv {sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm}.
func enterAlltoallv(e *mpiEngine, n *node, c *mpiCall, k *mpiColl) error {
	buf, counts, displs, typ := c.w[0], c.w[1], c.w[2], c.w[3]
	if buf == mpiInPlace {
		buf, counts, displs, typ = c.w[4], c.w[5], c.w[6], c.w[7]
	}
	size := k.comm.size
	layout, err := vLayout(n, counts, displs, size, typ, "MPI_Alltoallv send")
	if err != nil {
		return err
	}
	row := make([][]byte, size)
	for d, s := range layout {
		if row[d], err = readBuf(n, buf+s.off, s.cap, "send buffer"); err != nil {
			return err
		}
	}
	m := k.extra()
	if m.pieces == nil {
		m.pieces = make([][][]byte, size)
	}
	m.pieces[c.me] = row
	return nil
}

func leaveAlltoallv(n *node, c *mpiCall, k *mpiColl) error {
	layout, err := vLayout(n, c.w[5], c.w[6], k.comm.size, c.w[7], "MPI_Alltoallv receive")
	if err != nil {
		return err
	}
	for src, row := range k.more.pieces {
		if err := putPiece(n, c, c.w[4], layout[src], row[c.me], src); err != nil {
			return err
		}
	}
	return nil
}

// Allgatherv {sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm}.
func enterAllgatherv(e *mpiEngine, n *node, c *mpiCall, k *mpiColl) error {
	if k.parts == nil {
		k.parts = make([][]byte, k.comm.size)
	}
	if c.w[0] == mpiInPlace {
		layout, err := vLayout(n, c.w[4], c.w[5], k.comm.size, c.w[6], "MPI_Allgatherv receive")
		if err != nil {
			return err
		}
		k.parts[c.me], err = readBuf(n, c.w[3]+layout[c.me].off, layout[c.me].cap, "receive buffer")
		return err
	}
	bytes, err := bufBytes(c.w[1], c.w[2])
	if err != nil {
		return err
	}
	k.parts[c.me], err = readBuf(n, c.w[0], bytes, "send buffer")
	return err
}

func leaveAllgatherv(n *node, c *mpiCall, k *mpiColl) error {
	layout, err := vLayout(n, c.w[4], c.w[5], k.comm.size, c.w[6], "MPI_Allgatherv receive")
	if err != nil {
		return err
	}
	for src, p := range k.parts {
		if err := putPiece(n, c, c.w[3], layout[src], p, src); err != nil {
			return err
		}
	}
	return nil
}

// Scatterv {sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm}.
func enterScatterv(e *mpiEngine, n *node, c *mpiCall, k *mpiColl) error {
	if c.me != k.root {
		return nil
	}
	layout, err := vLayout(n, c.w[1], c.w[2], k.comm.size, c.w[3], "MPI_Scatterv send")
	if err != nil {
		return err
	}
	row := make([][]byte, k.comm.size)
	for d, s := range layout {
		if row[d], err = readBuf(n, c.w[0]+s.off, s.cap, "scatter send buffer"); err != nil {
			return err
		}
		k.rootBuf = append(k.rootBuf, row[d]...) // for the cost
	}
	k.extra().pieces = [][][]byte{row}
	return nil
}

func leaveScatterv(n *node, c *mpiCall, k *mpiColl) error {
	if c.me == k.root && c.w[4] == mpiInPlace {
		return nil
	}
	bytes, err := bufBytes(c.w[5], c.w[6])
	if err != nil {
		return err
	}
	return putPiece(n, c, c.w[4], collSlot{cap: bytes}, k.more.pieces[0][c.me], k.root)
}

// Reduce_scatter {sendbuf, recvbuf, recvcounts, type, op, comm}: the reduction of
// sum(recvcounts) elements, block i to rank i.
func enterReduceScatter(e *mpiEngine, n *node, c *mpiCall, k *mpiColl) error {
	counts, err := readInts(n, c.w[2], k.comm.size, "MPI_Reduce_scatter recvcounts")
	if err != nil {
		return err
	}
	var total uint32
	for i, v := range counts {
		if v < 0 {
			return mpiErrorf(mpiErrCount, "invalid count: MPI_Reduce_scatter recvcounts[%d] = %d", i, v)
		}
		total += uint32(v)
	}
	// Reuse the reduction's entry on a block {sendbuf, recvbuf, total, type, op}.
	sub := &mpiCall{num: c.num, me: c.me, w: []uint32{c.w[0], c.w[1], total, c.w[3], c.w[4]}}
	return enterReduce(e, n, sub, k)
}

func leaveReduceScatter(n *node, c *mpiCall, k *mpiColl) error {
	counts, err := readInts(n, c.w[2], k.comm.size, "MPI_Reduce_scatter recvcounts")
	if err != nil {
		return err
	}
	ext := uint32(k.typ.size)
	var off uint32
	for _, v := range counts[:c.me] {
		off += uint32(v) * ext
	}
	end := off + uint32(counts[c.me])*ext
	if end > uint32(len(k.result)) {
		return mpiErrorf(mpiErrCount, "count mismatch: MPI_Reduce_scatter recvcounts differ between ranks")
	}
	return writeBuf(n, c.w[1], k.result[off:end], "receive buffer")
}

// completeScan computes every rank's prefix: Scan includes the rank's own part, Exscan
// stops before it (rank 0's receive buffer is left alone, as the standard allows).
func completeScan(e *mpiEngine, k *mpiColl) error {
	m := k.extra()
	m.results = make([][]byte, len(k.parts))
	acc := append([]byte(nil), k.parts[0]...)
	for r := range k.parts {
		if r > 0 {
			if k.num == abi.HcMPIExscan {
				m.results[r] = append([]byte(nil), acc...)
			}
			reduceInto(acc, k.parts[r], k.typ, k.op)
		}
		if k.num == abi.HcMPIScan {
			m.results[r] = append([]byte(nil), acc...)
		}
	}
	k.result = acc
	return nil
}

func leaveScan(n *node, c *mpiCall, k *mpiColl) error {
	if p := k.more.results[c.me]; p != nil {
		return writeBuf(n, c.w[1], p, "receive buffer")
	}
	return nil
}
