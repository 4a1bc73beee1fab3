package abi

// Error handlers: the engine's half of MPI_Comm_set_errhandler. The handler itself (a
// predefined one or a user function) is kept by libmpi; the engine only needs to know
// whether a failing call on the communicator ends the job or returns its class.
const (
	HcMPICommErrhandler Sysno = 0x7140 // {comm, returns (0: errors are fatal, 1: they return)}
)

var mpiErrHypercalls = []Hypercall{
	{HcMPICommErrhandler, "dpcl_mpi_comm_errhandler", 1, "int",
		"MPI_Comm_set_errhandler: whether errors on comm end the job (0) or return (1)"},
}

// init runs after mpi.go's (files initialise in name order), so the calls stay in number
// order after the first MPI block.
func init() {
	MPIBlockWords[HcMPICommErrhandler] = 2
	for _, h := range mpiErrHypercalls {
		Hypercalls = append(Hypercalls, h)
		hypercallByNum[h.Num] = h
		cParams[h.Name] = "long args"
		cArgs[h.Name] = "args, 0"
	}
}
