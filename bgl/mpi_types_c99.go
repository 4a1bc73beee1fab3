package bgl

// The C99, C++ and long double datatypes (bgl/target/mpi.h's "More predefined datatypes"
// section), kinds 0x15-0x27. The fixed-size integers, wchar_t and the booleans behave as
// the integer or LOGICAL types of their size; the complex types as Fortran's COMPLEX.
// long double is the PowerPC's 16-byte IBM double-double, whose arithmetic the engine
// does not model: it travels as data, and a reduction on it (or on its complex and
// MINLOC/MAXLOC forms) is refused with MPI_ERR_OP.

// kindOpaque is data the engine moves but never combines.
const kindOpaque mpiKind = 35

var c99Types = map[uint32]mpiType{
	0x1510: {name: "MPI_LONG_DOUBLE", size: 16, kind: kindOpaque},
	0x1620: {name: "MPI_LONG_DOUBLE_INT", size: 32, kind: kindOpaque},
	0x1704: {name: "MPI_WCHAR", size: 4, kind: kindSigned},
	0x1801: {name: "MPI_C_BOOL", size: 1, kind: kindLogical},
	0x1901: {name: "MPI_CXX_BOOL", size: 1, kind: kindLogical},
	0x1a01: {name: "MPI_INT8_T", size: 1, kind: kindSigned},
	0x1b02: {name: "MPI_INT16_T", size: 2, kind: kindSigned},
	0x1c04: {name: "MPI_INT32_T", size: 4, kind: kindSigned},
	0x1d08: {name: "MPI_INT64_T", size: 8, kind: kindSigned},
	0x1e01: {name: "MPI_UINT8_T", size: 1, kind: kindUnsigned},
	0x1f02: {name: "MPI_UINT16_T", size: 2, kind: kindUnsigned},
	0x2004: {name: "MPI_UINT32_T", size: 4, kind: kindUnsigned},
	0x2108: {name: "MPI_UINT64_T", size: 8, kind: kindUnsigned},
	0x2208: {name: "MPI_C_FLOAT_COMPLEX", size: 8, kind: kindComplex},
	0x2310: {name: "MPI_C_DOUBLE_COMPLEX", size: 16, kind: kindComplex},
	0x2420: {name: "MPI_C_LONG_DOUBLE_COMPLEX", size: 32, kind: kindOpaque},
	0x2508: {name: "MPI_CXX_FLOAT_COMPLEX", size: 8, kind: kindComplex},
	0x2610: {name: "MPI_CXX_DOUBLE_COMPLEX", size: 16, kind: kindComplex},
	0x2720: {name: "MPI_CXX_LONG_DOUBLE_COMPLEX", size: 32, kind: kindOpaque},
}

func init() {
	for h, t := range c99Types {
		mpiTypes[h] = t
	}
}
