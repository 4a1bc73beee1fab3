// Package shard is how the processes of a sharded run (one simulated partition spread
// over several host processes, each owning a contiguous set of psets) talk at window
// ends: an Exchanger that sends each other process a buffer of length-prefixed records
// (AppendRecord, Records) and combines a few int64 (Allreduce, Barrier), in calls every
// process makes in the same order.
//
// Usage:
//
//	ex, err := shard.OpenMPI() // first thing in main, under mpiexec -n P or srun
//	if err != nil { ... }      // shard.ErrNoMPI in a build without the mpi tag
//	defer ex.Close()
//	ex.Hold("psets 2-3 (ranks 128-255)")
//	in, err := ex.Exchange(out) // out[p]: records for process p; in[p]: from process p
//
// Two implementations:
//
//   - Single (every build, pure Go): one process; Exchange gives back what it was given.
//   - OpenMPI (built with `go build -tags mpi` on Linux): the system's MPICH, through cgo,
//     its flags from `pkg-config mpich` (-I/usr/include/x86_64-linux-gnu/mpich -lmpich on
//     Debian's libmpich-dev), so any MPI with the MPICH ABI the launcher provides works.
//     Exchange is MPI_Alltoall of the byte counts then MPI_Alltoallv of the bytes on
//     MPI_COMM_WORLD; Allreduce is MPI_Allreduce of MPI_LONG_LONG. MPI is initialised
//     MPI_THREAD_FUNNELED and called from one locked OS thread. Errors come back
//     (MPI_ERRORS_RETURN) as Go errors naming the call, the shard and MPI's reason.
//     Without the tag there is no cgo and OpenMPI returns ErrNoMPI.
//
// Why the system's MPI and not a mesh of sockets of our own: the people who run a
// 65,536-node simulation have a cluster, and on it the interconnect (InfiniBand,
// Slingshot, Omni-Path) is reached through MPI, not TCP; the launcher they use
// (mpiexec, srun) starts the processes and wires them up through PMI, so nothing has to
// be told host names or ports; and the launcher's fault model is the one they know: one
// process dying ends the job. Collectives such as MPI_Alltoallv are tuned for the
// machine; a home-made mesh would need its own discovery, its own all-to-all and its own
// failure detection, and would still be slow on the fabric users have.
//
// A dead process (fault model, supervise_linux.go): the process the launcher starts is
// a supervisor that runs the program again as the worker. The worker tells it which shard
// it is and what it holds (Hold); when a signal kills the worker (kill -9, the OOM killer)
// the supervisor prints "dpclsh: shard 2 of 4 (holding ...) died: killed by signal 9
// (killed); ending the run" and exits 128+9, and the launcher ends the other processes
// (mpiexec's hydra signals each one's process group, its worker with it), so no process
// is left waiting in an exchange. When the supervisor is the one killed (ps shows both
// with the same command line), its worker sees its lifeline (a pipe only the supervisor
// holds open) close, prints "dpclsh: shard 2 of 4 (holding ...) died: its supervisor
// (pid N) was killed; ending the run" and exits. A worker that finds an error itself
// calls Abort, which prints the same kind of line and calls MPI_Abort. The launcher's
// PMI descriptor (PMI_FD, PMI2_FD) is passed on to the worker.
//
// Stats.Wait is host time spent in the exchanges: it is for --stats and nothing else,
// since it differs on every run.
package shard
