package bgl

import (
	"github.com/dpclsh/dpclsh/bgl/abi"
)

// The neighbourhood collectives' exchange {sendbuf, nsend, sends, recvbuf, nrecv, recvs,
// comm} (abi.HcMPINeighborXchg): libmpi lists, from the communicator's topology, the
// byte blocks this rank sends (to whom, with which key, where in sendbuf) and the ones it
// receives (from whom, with which key, where in recvbuf). The i-th receive from a peer
// with a key takes the i-th block that peer sends to this rank with that key, as
// MPICH's receives posted in list order match its sends (libmpi lists
// MPI_Neighbor_alltoall's receives last slot first, as MPICH posts them, and gives every
// block key 0; a key is a separate stream, as a tag would be). Every rank of the
// communicator enters, as for any collective; the blocks travel the torus to the
// neighbours, so the cost is the torus latency across the communicator plus the busiest
// rank's injection (neighbour traffic does not load the bisection).

// nbrBlock is one entry of a send or receive list: peer is a communicator rank or
// MPI_PROC_NULL, data the block sent (sends) and off/cap where it lands (receives).
type nbrBlock struct {
	peer, key int32
	off, cap  uint32
	data      []byte
}

func init() {
	collSpecs[abi.HcMPINeighborXchg] = collSpec{comm: 6, root: -1, enter: enterNeighbor, leave: leaveNeighbor, cost: neighborCost}
	mpiOps[abi.HcMPINeighborXchg] = mpiOpSpec{"MPI_Neighbor_alltoallw", startColl, pollColl}
	mpiOps[abi.HcMPIIneighborXchg] = mpiOpSpec{"MPI_Ineighbor_alltoallw", startIcoll, nil}
}

// readNbrList reads count {peer, key, offset, bytes} records at addr, checking each peer.
func readNbrList(n *node, addr, count uint32, size int, what string) ([]nbrBlock, error) {
	if int32(count) < 0 || count > 1<<20 {
		return nil, mpiErrorf(mpiErrArg, "invalid %s count %d", what, int32(count))
	}
	w, err := readInts(n, addr, int(4*count), what)
	if err != nil {
		return nil, err
	}
	out := make([]nbrBlock, count)
	for i := range out {
		b := nbrBlock{peer: w[4*i], key: w[4*i+1], off: uint32(w[4*i+2]), cap: uint32(w[4*i+3])}
		if b.peer != mpiProcNull && (b.peer < 0 || int(b.peer) >= size) {
			return nil, mpiErrorf(mpiErrRank, "invalid rank %d: %s %d names no rank of a communicator of %d", b.peer, what, i, size)
		}
		if w[4*i+3] < 0 {
			return nil, mpiErrorf(mpiErrCount, "invalid count: %s %d has %d bytes", what, i, w[4*i+3])
		}
		out[i] = b
	}
	return out, nil
}

func enterNeighbor(e *mpiEngine, n *node, c *mpiCall, k *mpiColl) error {
	size := k.comm.size
	sends, err := readNbrList(n, c.w[2], c.w[1], size, "neighbour send")
	if err != nil {
		return err
	}
	recvs, err := readNbrList(n, c.w[5], c.w[4], size, "neighbour receive")
	if err != nil {
		return err
	}
	for i := range sends {
		if sends[i].peer == mpiProcNull {
			continue
		}
		if sends[i].data, err = readBuf(n, c.w[0]+sends[i].off, sends[i].cap, "send buffer"); err != nil {
			return err
		}
	}
	m := k.extra()
	if m.nbrSends == nil {
		m.nbrSends, m.nbrRecvs = make([][]nbrBlock, size), make([][]nbrBlock, size)
	}
	m.nbrSends[c.me], m.nbrRecvs[c.me] = sends, recvs
	return nil
}

// leaveNeighbor writes each of the rank's receives from the block its peer sent it.
func leaveNeighbor(n *node, c *mpiCall, k *mpiColl) error {
	type from struct{ peer, key int32 }
	taken := map[from]int{}
	for i, r := range k.more.nbrRecvs[c.me] {
		if r.peer == mpiProcNull {
			continue
		}
		f := from{r.peer, r.key}
		skip := taken[f]
		taken[f]++
		var block []byte
		found := false
		for _, s := range k.more.nbrSends[r.peer] {
			if s.peer == int32(c.me) && s.key == r.key {
				if skip == 0 {
					block, found = s.data, true
					break
				}
				skip--
			}
		}
		if !found {
			return mpiErrorf(mpiErrOther, "%s: rank %d expects a block from rank %d (receive %d) that rank %d does not send: the ranks' topologies disagree",
				mpiCallName(c.num), c.me, r.peer, i, r.peer)
		}
		if err := putPiece(n, c, c.w[3], collSlot{off: r.off, cap: r.cap}, block, int(r.peer)); err != nil {
			return err
		}
	}
	return nil
}

// neighborCost: the torus latency across the communicator plus the busiest rank's
// injection of the bytes it sends to other ranks.
func neighborCost(k *mpiColl) uint64 {
	var maxOut uint64
	for src, sends := range k.more.nbrSends {
		var out uint64
		for _, s := range sends {
			if s.peer != mpiProcNull && int(s.peer) != src {
				out += uint64(len(s.data))
			}
		}
		maxOut = max(maxOut, out)
	}
	return alltoallCost(k.comm.size, 0, maxOut)
}
