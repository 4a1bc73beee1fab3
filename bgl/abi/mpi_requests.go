package abi

// Request calls beyond Wait and Test: cancelling a pending receive and reading a request's
// status without freeing it. Numbers 0x71a0 and up.
const (
	HcMPICancel           Sysno = 0x71a0 // {request}
	HcMPIRequestGetStatus Sysno = 0x71a1 // {request, flag, status}
)

var mpiRequestHypercalls = []Hypercall{
	{HcMPICancel, "dpcl_mpi_cancel", 1, "int", "MPI_Cancel: a receive not yet matched completes cancelled; a send, complete when made, is not cancelled"},
	{HcMPIRequestGetStatus, "dpcl_mpi_request_get_status", 1, "int", "MPI_Request_get_status: flag and status of a request, which stays allocated"},
}

// init runs after mpi.go's (files initialize in name order), so the table stays in
// number order.
func init() {
	MPIBlockWords[HcMPICancel] = 1
	MPIBlockWords[HcMPIRequestGetStatus] = 3
	for _, h := range mpiRequestHypercalls {
		Hypercalls = append(Hypercalls, h)
		hypercallByNum[h.Num] = h
		cParams[h.Name] = "long args"
		cArgs[h.Name] = "args, 0"
	}
}
