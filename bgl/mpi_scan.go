package bgl

import (
	"github.com/dpclsh/dpclsh/bgl/abi"
)

// MPI_Reduce_scatter(_block), MPI_Scan and MPI_Exscan: reductions whose result differs
// per rank.

func init() {
	reduceCost := func(ways uint64) func(k *mpiColl) uint64 {
		return func(k *mpiColl) uint64 { return treeCost(k, uint64(len(k.result)), ways) }
	}
	collSpecs[abi.HcMPIReduceScatter] = collSpec{comm: 5, root: -1, enter: enterReduceScatter, leave: leaveReduceScatter, cost: reduceCost(2)}
	collSpecs[abi.HcMPIReduceScatterBlock] = collSpec{comm: 5, root: -1, enter: enterReduceScatterBlock,
		leave: leaveReduceScatterBlock, cost: reduceCost(2)}
	collSpecs[abi.HcMPIScan] = collSpec{comm: 5, root: -1, enter: enterReduce, complete: completeScan, leave: leaveScan, cost: reduceCost(1)}
	collSpecs[abi.HcMPIExscan] = collSpec{comm: 5, root: -1, enter: enterReduce, complete: completeScan, leave: leaveScan, cost: reduceCost(1)}
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

// Reduce_scatter_block {sendbuf, recvbuf, recvcount, type, op, comm}: the reduction of
// recvcount elements per rank, block i to rank i.
func enterReduceScatterBlock(e *mpiEngine, n *node, c *mpiCall, k *mpiColl) error {
	if int32(c.w[2]) < 0 {
		return mpiErrorf(mpiErrCount, "invalid count: MPI_Reduce_scatter_block recvcount %d", int32(c.w[2]))
	}
	sub := &mpiCall{num: c.num, me: c.me, w: []uint32{c.w[0], c.w[1], c.w[2] * uint32(k.comm.size), c.w[3], c.w[4]}}
	return enterReduce(e, n, sub, k)
}

func leaveReduceScatterBlock(n *node, c *mpiCall, k *mpiColl) error {
	block := c.w[2] * uint32(k.typ.size)
	off := uint32(c.me) * block
	if off+block > uint32(len(k.result)) {
		return mpiErrorf(mpiErrCount, "count mismatch: MPI_Reduce_scatter_block recvcount differs between ranks")
	}
	return writeBuf(n, c.w[1], k.result[off:off+block], "receive buffer")
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
