package bgl

// MPI_AINT, MPI_OFFSET and MPI_COUNT (kinds 0x3c-0x3e): the integers of MPI_Aint,
// MPI_Offset and MPI_Count, signed and 4, 8 and 8 bytes on the 32-bit PowerPC. They have
// handles of their own, as in MPICH, so a program can tell them from MPI_LONG and
// MPI_LONG_LONG (their names, their 8-byte external32 form); the engine treats them as
// the signed integers they are.
var addressTypes = map[uint32]mpiType{
	0x3c04: {name: "MPI_AINT", size: 4, kind: kindSigned},
	0x3d08: {name: "MPI_OFFSET", size: 8, kind: kindSigned},
	0x3e08: {name: "MPI_COUNT", size: 8, kind: kindSigned},
}

func init() {
	for h, t := range addressTypes {
		mpiTypes[h] = t
	}
}
