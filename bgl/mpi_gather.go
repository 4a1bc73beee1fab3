package bgl

import "github.com/dpclsh/dpclsh/bgl/abi"

// Gather and Allgather {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, ...};
// Gatherv {sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm};
// Scatter {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm}.

func enterGather(e *mpiEngine, n *node, c *mpiCall, k *mpiColl) error {
	if k.parts == nil {
		k.parts = make([][]byte, len(k.in))
	}
	if c.w[0] == mpiInPlace {
		return enterGatherInPlace(n, c, k)
	}
	bytes, err := bufBytes(c.w[1], c.w[2])
	if err != nil {
		return err
	}
	k.parts[c.me], err = readBuf(n, c.w[0], bytes, "send buffer")
	return err
}

// enterGatherInPlace takes the caller's part from its slot of the receive buffer
// (MPI_IN_PLACE: Allgather on every rank, Gather at the root; Gatherv reads its layout
// later, at the root, so it takes the slot there).
func enterGatherInPlace(n *node, c *mpiCall, k *mpiColl) error {
	if c.num != abi.HcMPIAllgather && c.me != k.root {
		return mpiErrorf(mpiErrBuffer, "invalid buffer: MPI_IN_PLACE as the send buffer of a non-root rank")
	}
	if c.num == abi.HcMPIGatherv {
		k.parts[c.me] = nil
		return nil
	}
	slot, err := bufBytes(c.w[4], c.w[5])
	if err != nil {
		return err
	}
	k.parts[c.me], err = readBuf(n, c.w[3]+uint32(c.me)*slot, slot, "receive buffer")
	return err
}

// enterGatherv also reads the root's recvcounts and displs into the collective's layout.
func enterGatherv(e *mpiEngine, n *node, c *mpiCall, k *mpiColl) error {
	if err := enterGather(e, n, c, k); err != nil || c.me != k.root {
		return err
	}
	t, err := typeOf(c.w[6])
	if err != nil {
		return err
	}
	size := uint32(len(k.in))
	counts, err := readBuf(n, c.w[4], 4*size, "recvcounts")
	if err != nil {
		return err
	}
	displs, err := readBuf(n, c.w[5], 4*size, "displs")
	if err != nil {
		return err
	}
	k.layout = make([]collSlot, size)
	for i := range k.layout {
		cnt, d := int32(be.Uint32(counts[4*i:])), int32(be.Uint32(displs[4*i:]))
		if cnt < 0 || d < 0 {
			return mpiErrorf(mpiErrCount, "Gatherv: recvcounts[%d] = %d, displs[%d] = %d", i, cnt, i, d)
		}
		k.layout[i] = collSlot{off: uint32(d) * uint32(t.size), cap: uint32(cnt) * uint32(t.size)}
	}
	return nil
}

// gatherLayout is where each rank's part goes in this rank's receive buffer.
func gatherLayout(c *mpiCall, k *mpiColl) ([]collSlot, error) {
	if c.num == abi.HcMPIGatherv {
		return k.layout, nil
	}
	slot, err := bufBytes(c.w[4], c.w[5])
	if err != nil {
		return nil, err
	}
	out := make([]collSlot, len(k.in))
	for i := range out {
		out[i] = collSlot{off: uint32(i) * slot, cap: slot}
	}
	return out, nil
}

func leaveGather(n *node, c *mpiCall, k *mpiColl) error {
	if c.num != abi.HcMPIAllgather && c.me != k.root {
		return nil
	}
	layout, err := gatherLayout(c, k)
	if err != nil {
		return err
	}
	for i, p := range k.parts {
		if i == c.me && c.w[0] == mpiInPlace {
			continue
		}
		if uint32(len(p)) > layout[i].cap {
			return mpiErrorf(mpiErrTruncate, "count mismatch: %s: %d bytes from rank %d into a %d-byte slot",
				mpiCallName(c.num), len(p), i, layout[i].cap)
		}
		if err := writeBuf(n, c.w[3]+layout[i].off, p, "receive buffer"); err != nil {
			return err
		}
	}
	return nil
}

func enterScatter(e *mpiEngine, n *node, c *mpiCall, k *mpiColl) error {
	if c.me != k.root {
		return nil
	}
	chunk, err := bufBytes(c.w[1], c.w[2])
	if err != nil {
		return err
	}
	k.chunk = chunk
	k.rootBuf, err = readBuf(n, c.w[0], chunk*uint32(len(k.in)), "scatter send buffer")
	return err
}

func leaveScatter(n *node, c *mpiCall, k *mpiColl) error {
	if c.me == k.root && c.w[3] == mpiInPlace {
		return nil
	}
	bytes, err := bufBytes(c.w[4], c.w[5])
	if err != nil {
		return err
	}
	if k.chunk > bytes {
		return mpiErrorf(mpiErrTruncate, "count mismatch: MPI_Scatter: %d bytes from root %d into a %d-byte buffer", k.chunk, k.root, bytes)
	}
	part := k.rootBuf[uint32(c.me)*k.chunk : uint32(c.me+1)*k.chunk]
	return writeBuf(n, c.w[3], part, "receive buffer")
}
