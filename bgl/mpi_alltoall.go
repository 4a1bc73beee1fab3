package bgl

import (
	"github.com/dpclsh/dpclsh/bgl/abi"
)

// MPI_Alltoall and MPI_Alltoallv: each rank's piece for each other rank, costed on the
// torus.

func init() {
	collSpecs[abi.HcMPIAlltoall] = collSpec{comm: 6, root: -1, enter: enterAlltoall, leave: leaveAlltoall, cost: pieceCost}
	collSpecs[abi.HcMPIAlltoallv] = collSpec{comm: 8, root: -1, enter: enterAlltoallv, leave: leaveAlltoallv, cost: pieceCost}
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
