package abi

// Matched probes: MPI_Mprobe and MPI_Improbe take the message they find out of the
// matching queue and give it a handle (an MPI_Message) that only MPI_Mrecv and
// MPI_Imrecv can receive, so no other receive or probe can see it in between. Numbers
// 0x7170 and up.
const (
	HcMPIImprobe Sysno = 0x7170 // {source, tag, comm, flag, message, status}
	HcMPIMprobe  Sysno = 0x7171 // {source, tag, comm, message, status}
	HcMPIMrecv   Sysno = 0x7172 // {buf, count, type, message, status}
	HcMPIImrecv  Sysno = 0x7173 // {buf, count, type, message, request}
)

var mpiMprobeHypercalls = []Hypercall{
	{HcMPIImprobe, "dpcl_mpi_improbe", 1, "int", "MPI_Improbe: take a matching arrived message, if any, into a message handle"},
	{HcMPIMprobe, "dpcl_mpi_mprobe", 1, "int", "MPI_Mprobe: wait for a matching message and take it into a message handle"},
	{HcMPIMrecv, "dpcl_mpi_mrecv", 1, "int", "MPI_Mrecv: receive the message a matched probe took"},
	{HcMPIImrecv, "dpcl_mpi_imrecv", 1, "int", "MPI_Imrecv: MPI_Mrecv as a request"},
}

// init runs after mpi_err.go's and before mpi_requests.go's (files initialize in name
// order), so the table stays in number order.
func init() {
	MPIBlockWords[HcMPIImprobe] = 6
	MPIBlockWords[HcMPIMprobe] = 5
	MPIBlockWords[HcMPIMrecv] = 5
	MPIBlockWords[HcMPIImrecv] = 5
	for _, h := range mpiMprobeHypercalls {
		Hypercalls = append(Hypercalls, h)
		hypercallByNum[h.Num] = h
		cParams[h.Name] = "long args"
		cArgs[h.Name] = "args, 0"
	}
}
