package bgl

import "github.com/dpclsh/dpclsh/bgl/abi"

// MPI_Alltoallw {sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
// recvtypes, comm}: MPI_Alltoallv with a datatype per peer and displacements in bytes.

func init() {
	collSpecs[abi.HcMPIAlltoallw] = collSpec{comm: 8, root: -1, enter: enterAlltoallw, leave: leaveAlltoallw, cost: pieceCost}
}

// wLayout reads (counts, byte displs, types) arrays into byte slots of a buffer.
func wLayout(n *node, counts, displs, types uint32, size int, call string) ([]collSlot, error) {
	cs, err := readInts(n, counts, size, call+" counts")
	if err != nil {
		return nil, err
	}
	ds, err := readInts(n, displs, size, call+" displs")
	if err != nil {
		return nil, err
	}
	ts, err := readInts(n, types, size, call+" types")
	if err != nil {
		return nil, err
	}
	out := make([]collSlot, size)
	for i := range out {
		bytes, err := bufBytes(uint32(cs[i]), uint32(ts[i]))
		if err != nil {
			return nil, err
		}
		if ds[i] < 0 {
			return nil, mpiErrorf(mpiErrArg, "invalid displacement: %s displs[%d] = %d", call, i, ds[i])
		}
		out[i] = collSlot{off: uint32(ds[i]), cap: bytes}
	}
	return out, nil
}

func enterAlltoallw(e *mpiEngine, n *node, c *mpiCall, k *mpiColl) error {
	buf, counts, displs, types := c.w[0], c.w[1], c.w[2], c.w[3]
	if buf == mpiInPlace {
		buf, counts, displs, types = c.w[4], c.w[5], c.w[6], c.w[7]
	}
	size := k.comm.size
	layout, err := wLayout(n, counts, displs, types, size, "MPI_Alltoallw send")
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

func leaveAlltoallw(n *node, c *mpiCall, k *mpiColl) error {
	layout, err := wLayout(n, c.w[5], c.w[6], c.w[7], k.comm.size, "MPI_Alltoallw receive")
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
