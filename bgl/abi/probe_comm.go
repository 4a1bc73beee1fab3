package abi

// HcCommInfo serves probes, not programs: r3 = an MPI communicator handle, r4 = what to
// answer (CommSize, CommRemoteSize, CommRank); r3 = the number of ranks in the caller's
// group of it (MPI_Comm_size), in an intercommunicator's other group
// (MPI_Comm_remote_size; 0 for an intracommunicator) or the caller's rank in it
// (MPI_Comm_rank). For a handle the caller cannot use (null, unknown, freed, not a member)
// the sizes are 0 and the rank -1. libmpi keeps a communicator's group in the MPI engine,
// so a probe summing a per-rank counts array asks the engine for its length. The engine
// answers at once and changes nothing the program can observe: no virtual time, no MPI
// state; the `sc` counts as one instruction, as every probe hypercall does. The number is
// in the MPI range because the MPI engine serves it, and it is left out of Hypercalls and
// the C header: programs have MPI_Comm_size, and the header's bytes are part of every
// committed binary's debug information.
const HcCommInfo Sysno = 0x71e6

// What HcCommInfo answers.
const (
	CommSize       = 0
	CommRemoteSize = 1
	CommRank       = 2
)

func init() {
	hypercallByNum[HcCommInfo] = Hypercall{HcCommInfo, "dpcl_comm_info", 2, "int",
		"for probes: a communicator's size (0), remote size (1) or the caller's rank in it (2)"}
}
