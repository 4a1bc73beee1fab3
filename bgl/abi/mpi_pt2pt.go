package abi

// Generalized requests and synchronous sends. MPI_Grequest_start makes a request that
// only MPI_Grequest_complete completes (libmpi runs the program's query, free and
// cancel callbacks around the engine's Wait and Test); MPI_Ssend and MPI_Issend complete
// only once the matching receive has taken the message. Numbers 0x7174..0x718f.
const (
	HcMPIGrequestStart    Sysno = 0x7174 // {request}
	HcMPIGrequestComplete Sysno = 0x7175 // {request handle}
	HcMPISsend            Sysno = 0x7176 // {buf, count, type, dest, tag, comm}
	HcMPIIssend           Sysno = 0x7177 // {buf, count, type, dest, tag, comm, request}
)

var mpiPt2ptHypercalls = []Hypercall{
	{HcMPIGrequestStart, "dpcl_mpi_grequest_start", 1, "int", "MPI_Grequest_start: a request that completes when MPI_Grequest_complete names it"},
	{HcMPIGrequestComplete, "dpcl_mpi_grequest_complete", 1, "int", "MPI_Grequest_complete: complete a generalized request"},
	{HcMPISsend, "dpcl_mpi_ssend", 1, "int", "MPI_Ssend: returns once the matching receive has taken the message"},
	{HcMPIIssend, "dpcl_mpi_issend", 1, "int", "MPI_Issend: its request completes once the matching receive has taken the message"},
}

// init runs after mpi_mprobe.go's and before mpi_requests.go's (files initialize in name
// order), so the table stays in number order.
func init() {
	MPIBlockWords[HcMPIGrequestStart] = 1
	MPIBlockWords[HcMPIGrequestComplete] = 1
	MPIBlockWords[HcMPISsend] = 6
	MPIBlockWords[HcMPIIssend] = 7
	for _, h := range mpiPt2ptHypercalls {
		Hypercalls = append(Hypercalls, h)
		hypercallByNum[h.Num] = h
		cParams[h.Name] = "long args"
		cArgs[h.Name] = "args, 0"
	}
}
