package abi

// Neighbourhood collectives: libmpi turns MPI_Neighbor_allgather(v) and
// MPI_Neighbor_alltoall(v/w) (and their I-forms) of a Cartesian, graph or distributed
// graph communicator into one exchange of byte blocks over lists it computes from the
// topology, and the engine moves the blocks as one collective of the communicator.
// Numbers 0x7190 and up.
const (
	// {sendbuf, nsend, sends, recvbuf, nrecv, recvs, comm}: sends and recvs are lists of
	// {peer (a rank of comm or MPI_PROC_NULL), key, byte offset, bytes}; the i-th receive
	// from a peer with a key takes the i-th block that peer sends to this rank with that key
	HcMPINeighborXchg Sysno = 0x7190
	// HcMPINeighborXchg's block, request
	HcMPIIneighborXchg Sysno = 0x7191
)

var mpiNeighborHypercalls = []Hypercall{
	{HcMPINeighborXchg, "dpcl_mpi_neighbor_xchg", 1, "int", "the neighbourhood collectives' exchange of byte blocks with topology neighbours"},
	{HcMPIIneighborXchg, "dpcl_mpi_ineighbor_xchg", 1, "int", "the nonblocking neighbourhood collectives' exchange"},
}

// init runs after mpi_mprobe.go's and before mpi_requests.go's (files initialize in name
// order), so the table stays in number order; mpi_requests.go's init gives the
// nonblocking form its block size.
func init() {
	MPIBlockWords[HcMPINeighborXchg] = 7
	MPIIcollBlocking[HcMPIIneighborXchg] = HcMPINeighborXchg
	for _, h := range mpiNeighborHypercalls {
		Hypercalls = append(Hypercalls, h)
		hypercallByNum[h.Num] = h
		cParams[h.Name] = "long args"
		cArgs[h.Name] = "args, 0"
	}
}
