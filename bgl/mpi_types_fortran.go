package bgl

// The Fortran datatypes (bgl/target/mpi.h's Fortran section, mpif.h, mpi.f90). Their
// handles follow the C ones' rule, (kind << 8) | size, with kinds 0x40-0x51 so that they
// never meet a C type's. What they add to the engine:
//
//   - COMPLEX and DOUBLE COMPLEX, pairs of REAL or DOUBLE PRECISION (real part first).
//     MPI defines only SUM and PROD on them; the product is MPICH's
//     (a.re*b.re - a.im*b.im, a.im*b.re + a.re*b.im) with every operation rounded to the
//     component's precision, as the target computes it.
//   - LOGICAL, 4 bytes, gfortran's .TRUE. = 1 and .FALSE. = 0 (any nonzero word is read as
//     true): LAND, LOR and LXOR, whose results are 1 or 0.
//   - 2REAL and 2DOUBLE_PRECISION, the MINLOC/MAXLOC pairs whose index has the value's
//     type; 2INTEGER is laid out as C's MPI_2INT.
//   - INTEGER, REAL, DOUBLE PRECISION, CHARACTER and the sized INTEGERn/REALn behave as
//     the C types of their size.

// kindComplex is a (real, imaginary) pair of floats; kindLogical a Fortran LOGICAL;
// kindFloatPair a MINLOC/MAXLOC pair whose index is a float of the value's size.
const (
	kindComplex   mpiKind = 32
	kindLogical   mpiKind = 33
	kindFloatPair mpiKind = 34
)

var fortranTypes = map[uint32]mpiType{
	0x4001: {name: "MPI_CHARACTER", size: 1, kind: kindChar},
	0x4104: {name: "MPI_INTEGER", size: 4, kind: kindSigned},
	0x4204: {name: "MPI_REAL", size: 4, kind: kindFloat},
	0x4308: {name: "MPI_DOUBLE_PRECISION", size: 8, kind: kindFloat},
	0x4408: {name: "MPI_COMPLEX", size: 8, kind: kindComplex},
	0x4510: {name: "MPI_DOUBLE_COMPLEX", size: 16, kind: kindComplex},
	0x4604: {name: "MPI_LOGICAL", size: 4, kind: kindLogical},
	0x4708: {name: "MPI_2INTEGER", size: 8, kind: kindPair, valKind: kindSigned, valSize: 4, idxOff: 4},
	0x4808: {name: "MPI_2REAL", size: 8, kind: kindFloatPair, valSize: 4, idxOff: 4},
	0x4910: {name: "MPI_2DOUBLE_PRECISION", size: 16, kind: kindFloatPair, valSize: 8, idxOff: 8},
	0x4a01: {name: "MPI_INTEGER1", size: 1, kind: kindSigned},
	0x4b02: {name: "MPI_INTEGER2", size: 2, kind: kindSigned},
	0x4c04: {name: "MPI_INTEGER4", size: 4, kind: kindSigned},
	0x4d08: {name: "MPI_INTEGER8", size: 8, kind: kindSigned},
	0x4e04: {name: "MPI_REAL4", size: 4, kind: kindFloat},
	0x4f08: {name: "MPI_REAL8", size: 8, kind: kindFloat},
	0x5008: {name: "MPI_COMPLEX8", size: 8, kind: kindComplex},
	0x5110: {name: "MPI_COMPLEX16", size: 16, kind: kindComplex},
}

// fortranOpAllowed is MPI's table for the kinds only Fortran types have.
func fortranOpAllowed(op mpiOp, k mpiKind) bool {
	switch k {
	case kindComplex:
		return op == opSum || op == opProd
	case kindLogical:
		return op == opLand || op == opLor || op == opLxor
	case kindFloatPair:
		return op == opMinloc || op == opMaxloc
	}
	return false
}

// combineFortran combines one element of a Fortran-only kind, acc = acc op x, and reports
// whether t was one (the other kinds are reduceInto's).
func combineFortran(acc, x []byte, t mpiType, op mpiOp) bool {
	switch t.kind {
	case kindComplex:
		half := t.size / 2
		re, im := complexOp(getFloat(acc, half), getFloat(acc[half:], half),
			getFloat(x, half), getFloat(x[half:], half), op, half)
		putFloat(acc, half, re)
		putFloat(acc[half:], half, im)
	case kindLogical:
		putInt(acc, t.size, combineInt(getInt(acc, t), getInt(x, t), op, kindSigned))
	case kindFloatPair:
		combineFloatLoc(acc, x, t, op)
	default:
		return false
	}
	return true
}

// complexOp is SUM or PROD of (ar, ai) and (br, bi), every operation rounded to size.
// The explicit float64 conversions keep Go from fusing a multiply and an add into one
// FMA, which the target's arithmetic never does.
func complexOp(ar, ai, br, bi float64, op mpiOp, size int) (float64, float64) {
	round := func(v float64) float64 {
		if size == 4 {
			return float64(float32(v))
		}
		return float64(v)
	}
	if op == opSum {
		return round(float64(ar + br)), round(float64(ai + bi))
	}
	rr, ii := round(float64(ar*br)), round(float64(ai*bi))
	ir, ri := round(float64(ai*br)), round(float64(ar*bi))
	return round(float64(rr - ii)), round(float64(ir + ri))
}

// combineFloatLoc is MINLOC or MAXLOC on a (value, index) pair of floats: the smaller
// (larger) value wins, on a tie the smaller index.
func combineFloatLoc(a, b []byte, t mpiType, op mpiOp) {
	x, y := getFloat(a, t.valSize), getFloat(b, t.valSize)
	ia, ib := getFloat(a[t.idxOff:], t.valSize), getFloat(b[t.idxOff:], t.valSize)
	switch {
	case op == opMinloc && y < x, op == opMaxloc && y > x:
		copy(a[:t.size], b[:t.size])
	case x == y && ib < ia:
		putFloat(a[t.idxOff:], t.valSize, ib)
	}
}
