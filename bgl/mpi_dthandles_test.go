package bgl_test

import "testing"

// TestMPITypeHandles: MPI_Type_get_contents gives back the handles a type was built from
// (a vector's inner vector comes back as itself, not a duplicate), a type lives on while a
// type built on it does, and 3,000 derived types at once carry data around the ring, as
// MPICH does it.
func TestMPITypeHandles(t *testing.T) { runConform(t, "dt_handles") }

// TestMPIShortDerivedReceives: nonblocking receives of derived types that get fewer bytes
// than the type holds, completed by Wait, Waitall (with and without statuses), Waitany,
// Testsome and Test, write only what arrived, as MPICH does it.
func TestMPIShortDerivedReceives(t *testing.T) { runConform(t, "dt_short") }

// TestMPITypeBounds: lower bounds and extents of types built on resized types (a moved
// lower bound, a negative extent) and on negative strides and displacements, through every
// constructor, and data through the ring in such types, as MPICH computes them.
func TestMPITypeBounds(t *testing.T) { runConform(t, "dt_bounds") }

// TestMPIAddressTypes: MPI_AINT, MPI_OFFSET and MPI_COUNT are datatypes of their own, with
// their names, external32's 8-byte MPI_AINT (pack, size and unpack), and reductions and a
// ring in them, as MPICH has them.
func TestMPIAddressTypes(t *testing.T) { runConform(t, "dt_aint") }

// TestMPILargeCountTypes: MPI 4.0's _c datatype calls (every constructor, the size and
// extent queries, Pack/Unpack/Pack_size and external32), on types of hundreds of
// millions of bytes and on small ones carrying data around the ring, as MPICH does them.
func TestMPILargeCountTypes(t *testing.T) { runConform(t, "dt_large") }
