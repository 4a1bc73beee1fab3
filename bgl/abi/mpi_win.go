package abi

// One-sided communication (MPI_Win): the engine keeps every window, the operations issued
// on it and its synchronisation state; libmpi (target/libmpi_win.c) keeps names,
// attributes and error handlers. A window's handle is the handle of a private duplicate
// of the communicator it was created on, so its group, collectives and error handler are
// that communicator's.
//
// An operation's buffers are layouts: three words {address, number of blocks, blocks},
// the blocks being {offset, predefined datatype, count} triples that libmpi flattens from
// a (count, datatype) pair; a target layout's address is the target displacement, in the
// target's displacement units.
const (
	HcMPIWinCreate Sysno = 0x71e0 // {win, base, size, disp_unit, flavor} (collective)
	HcMPIWinFree   Sysno = 0x71e1 // {win} (collective)
	HcMPIWinFence  Sysno = 0x71e2 // {win, assert} (collective)
	HcMPIWinAttach Sysno = 0x71e3 // {win, base, size, detach (0: attach, 1: detach)}
	HcMPIRMA       Sysno = 0x71e4 // {kind, win, target, origin layout, result layout, target layout, op, compare}
	HcMPIWinSync   Sysno = 0x71e5 // {kind, win, rank, lock type, assert, group size, group (world ranks), flag}
)

// The kinds of HcMPIRMA.
const (
	RMAPut = iota
	RMAGet
	RMAAccumulate
	RMAGetAccumulate
	RMACompareAndSwap
)

// The kinds of HcMPIWinSync.
const (
	WinLock = iota
	WinUnlock
	WinLockAll
	WinUnlockAll
	WinFlush
	WinFlushAll
	WinFlushLocal
	WinFlushLocalAll
	WinSyncMem
	WinPost
	WinStart
	WinComplete
	WinWait
	WinTest
)

var mpiWinHypercalls = []Hypercall{
	{HcMPIWinCreate, "dpcl_mpi_win_create", 1, "int", "MPI_Win_create and the other constructors: every member's base, size and displacement unit"},
	{HcMPIWinFree, "dpcl_mpi_win_free", 1, "int", "MPI_Win_free: operations still pending are completed first"},
	{HcMPIWinFence, "dpcl_mpi_win_fence", 1, "int", "MPI_Win_fence: every member's operations reach their targets"},
	{HcMPIWinAttach, "dpcl_mpi_win_attach", 1, "int", "MPI_Win_attach and MPI_Win_detach of a dynamic window"},
	{HcMPIRMA, "dpcl_mpi_rma", 1, "int", "MPI_Put, Get, Accumulate, Get_accumulate, Fetch_and_op, Compare_and_swap"},
	{HcMPIWinSync, "dpcl_mpi_win_sync", 1, "int", "passive (lock, flush) and general active (post, start, complete, wait) synchronisation"},
}

// init runs after mpi_requests.go's (files initialise in name order), so the table stays
// in number order.
func init() {
	MPIBlockWords[HcMPIWinCreate] = 5
	MPIBlockWords[HcMPIWinFree] = 1
	MPIBlockWords[HcMPIWinFence] = 2
	MPIBlockWords[HcMPIWinAttach] = 4
	MPIBlockWords[HcMPIRMA] = 8
	MPIBlockWords[HcMPIWinSync] = 8
	for _, h := range mpiWinHypercalls {
		Hypercalls = append(Hypercalls, h)
		hypercallByNum[h.Num] = h
		cParams[h.Name] = "long args"
		cArgs[h.Name] = "args, 0"
	}
}
