//go:build !(mpi && linux)

package shard

// OpenMPI is the MPI Exchanger of the mpi build; this build has none.
func OpenMPI() (Exchanger, error) { return nil, ErrNoMPI }

// HasMPI reports whether this build can run sharded under mpiexec.
const HasMPI = false
