package bgl

import (
	"github.com/dpclsh/dpclsh/bgl/abi"
)

// MPI_Allgatherv and MPI_Scatterv: per-rank counts and displacements (MPI_Gatherv is
// with MPI_Gather, mpi_gather.go).

func init() {
	collSpecs[abi.HcMPIAllgatherv] = collSpec{comm: 7, root: -1, enter: enterAllgatherv, leave: leaveAllgatherv,
		cost: func(k *mpiColl) uint64 { return treeCost(k, partBytes(k), 2) }}
	collSpecs[abi.HcMPIScatterv] = collSpec{comm: 8, root: 7, enter: enterScatterv, leave: leaveScatterv,
		cost: func(k *mpiColl) uint64 { return treeCost(k, uint64(len(k.rootBuf)), 1) }}
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
