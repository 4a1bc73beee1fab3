package bgl

// State and argument readers shared by the collectives beyond MPI-1's common ones (the
// all-to-alls, the v-variants, Reduce_scatter, the scans) and communicator creation.
// Where the standard allows MPI_IN_PLACE the engine takes the caller's data from the
// receive buffer.

// mpiInPlace is MPI_IN_PLACE as mpi.h defines it, ((void *)-1).
const mpiInPlace = 0xffffffff

// collMore is the state of those collectives and of communicator creation.
type collMore struct {
	pieces  [][][]byte // Alltoall(v): pieces[src][dst]; Scatterv: pieces[0][dst]
	results [][]byte   // Scan, Exscan: per rank
	colors  []int32    // Comm_split
	keys    []int32
	groups  [][]int // Comm_create: each rank's group, as world ranks
	handles []uint32
	// neighbourhood exchange (mpi_neighbor.go): each rank's send and receive lists
	nbrSends, nbrRecvs [][]nbrBlock
}

func (k *mpiColl) extra() *collMore {
	if k.more == nil {
		k.more = &collMore{}
	}
	return k.more
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
