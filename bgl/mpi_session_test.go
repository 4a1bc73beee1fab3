package bgl_test

import "testing"

// TestMPISessions: MPI 4 sessions without MPI_Init (two open at once, info, the WORLD and
// SELF process sets, groups from them and MPI_Comm_create_from_group), and the
// large-count point-to-point calls (MPI_Send_c and friends, MPI_Get_count_c), as MPICH
// does them.
func TestMPISessions(t *testing.T) { runConform(t, "sessions") }

// TestMPIGeneralizedRequests: MPI_Grequest_start/complete with query, free and cancel
// callbacks, alone and among other requests in Wait, Test and their array forms,
// MPI_Request_get_status, MPI_Request_free and MPI_Cancel of one, and the status setters,
// as MPICH does them.
func TestMPIGeneralizedRequests(t *testing.T) { runConform(t, "greq") }
