package abi

// Intercommunicators and the communicator constructors beyond split, dup and create.
// libmpi builds MPI_Intercomm_create, _merge and the intercommunicator collectives from
// point-to-point calls and the local group's collectives; the engine keeps each
// intercommunicator's two groups and gives both sides one handle. Numbers 0x71c0 and up.
const (
	// {comm, out[4]}: out = {is inter, remote size, local group's hidden intracommunicator,
	// hidden intercommunicator for libmpi's own traffic}
	HcMPIInterInfo Sysno = 0x71c0
	// {comm, members out (the remote group's world ranks)}
	HcMPICommRemoteGroup Sysno = 0x71c1
	// {local comm, remote n, remote members (world ranks), newintercomm}: a collective of
	// local comm; the k-th such call of one group meets the k-th of the other
	HcMPIIntercommMake Sysno = 0x71c2
	// {local comm, n, members (world ranks, both groups in the merged order), newcomm}: a
	// collective of local comm; the other group's call with the same members meets it
	HcMPIIntercommMerge Sysno = 0x71c3
	// {comm, n, members (world ranks), tag, out}: the hidden communicator MPI_Comm_create_group
	// duplicates; the same (comm, members, tag) names the same one
	HcMPIGroupStage Sysno = 0x71c4
	// {comm, newcomm, request}: MPI_Comm_dup as a nonblocking collective; newcomm is
	// written when the request completes
	HcMPICommIdup Sysno = 0x71c5
	// {local comm, remote n, remote members, newintercomm, request}: MPI_Comm_idup of an
	// intercommunicator, HcMPIIntercommMake as a nonblocking collective of local comm
	HcMPIIntercommIdup Sysno = 0x71c6
)

var mpiInterHypercalls = []Hypercall{
	{HcMPIInterInfo, "dpcl_mpi_inter_info", 1, "int", "an intercommunicator's remote size, hidden communicators and side"},
	{HcMPICommRemoteGroup, "dpcl_mpi_comm_remote_group", 1, "int", "MPI_Comm_remote_group: the remote group's world ranks"},
	{HcMPIIntercommMake, "dpcl_mpi_intercomm_make", 1, "int", "MPI_Intercomm_create's last step: one handle for both groups"},
	{HcMPIIntercommMerge, "dpcl_mpi_intercomm_merge", 1, "int", "MPI_Intercomm_merge's last step: one intracommunicator for both groups"},
	{HcMPIGroupStage, "dpcl_mpi_group_stage", 1, "int", "MPI_Comm_create_group: the hidden communicator of a group's members"},
	{HcMPICommIdup, "dpcl_mpi_comm_idup", 1, "int", "MPI_Comm_idup"},
	{HcMPIIntercommIdup, "dpcl_mpi_intercomm_idup", 1, "int", "MPI_Comm_idup of an intercommunicator"},
}

// init runs after mpi_requests.go's (files initialise in name order), so the table stays in
// number order.
func init() {
	MPIBlockWords[HcMPIInterInfo] = 2
	MPIBlockWords[HcMPICommRemoteGroup] = 2
	MPIBlockWords[HcMPIIntercommMake] = 4
	MPIBlockWords[HcMPIIntercommMerge] = 4
	MPIBlockWords[HcMPIGroupStage] = 5
	MPIBlockWords[HcMPICommIdup] = 3
	MPIIcollBlocking[HcMPICommIdup] = HcMPICommDup
	MPIBlockWords[HcMPIIntercommIdup] = 5
	MPIIcollBlocking[HcMPIIntercommIdup] = HcMPIIntercommMake
	for _, h := range mpiInterHypercalls {
		Hypercalls = append(Hypercalls, h)
		hypercallByNum[h.Num] = h
		cParams[h.Name] = "long args"
		cArgs[h.Name] = "args, 0"
	}
}
