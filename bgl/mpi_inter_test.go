package bgl_test

import "testing"

// TestMPIIntercommunicators: intercommunicators from MPI_Intercomm_create, their remote
// groups, point-to-point ranks and collectives (MPI_ROOT, MPI_PROC_NULL), merges, dup,
// split and create, then MPI_Comm_create_group, _split_type and _idup, as MPICH does them.
func TestMPIIntercommunicators(t *testing.T) { runConform(t, "inter") }
