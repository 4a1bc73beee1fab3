package bgl

import (
	"fmt"
	"math"
)

// MPI error classes (bgl/target/mpi.h). The engine treats every error as fatal, as
// MPI_ERRORS_ARE_FATAL does: the job ends with the class as its status.
const (
	mpiErrBuffer   = 1
	mpiErrCount    = 2
	mpiErrType     = 3
	mpiErrTag      = 4
	mpiErrComm     = 5
	mpiErrRank     = 6
	mpiErrRoot     = 7
	mpiErrGroup    = 8
	mpiErrOp       = 9
	mpiErrArg      = 12
	mpiErrTruncate = 14
	mpiErrOther    = 15
	mpiErrRequest  = 19
	mpiErrNoMem    = 34 // MPICH's value; the node's memory cannot hold a request or message
)

var mpiErrNames = map[int]string{mpiErrBuffer: "MPI_ERR_BUFFER", mpiErrCount: "MPI_ERR_COUNT",
	mpiErrType: "MPI_ERR_TYPE", mpiErrTag: "MPI_ERR_TAG", mpiErrComm: "MPI_ERR_COMM",
	mpiErrRank: "MPI_ERR_RANK", mpiErrRoot: "MPI_ERR_ROOT", mpiErrGroup: "MPI_ERR_GROUP", mpiErrOp: "MPI_ERR_OP",
	mpiErrArg: "MPI_ERR_ARG", mpiErrTruncate: "MPI_ERR_TRUNCATE", mpiErrOther: "MPI_ERR_OTHER",
	mpiErrRequest: "MPI_ERR_REQUEST", mpiErrNoMem: "MPI_ERR_NO_MEM"}

// MPIError is a failed MPI call: its error class and what was wrong.
type MPIError struct {
	Class int
	Msg   string
}

func (e *MPIError) Error() string { return fmt.Sprintf("%s (%s)", e.Msg, mpiErrNames[e.Class]) }

func mpiErrorf(class int, format string, args ...any) error {
	return &MPIError{Class: class, Msg: fmt.Sprintf(format, args...)}
}

// mpiKind is how a datatype's elements are read: signed or unsigned integer, or float.
type mpiKind uint8

const (
	kindSigned mpiKind = iota
	kindUnsigned
	kindFloat
	kindChar
	kindByte
	kindPacked // MPI_PACKED: bytes that no reduction takes
)

// mpiType is a predefined datatype. size is its extent in the target's memory (a pair
// type's includes the C struct's padding: MPI_DOUBLE_INT is 16 bytes on the PowerPC
// 32-bit ABI); a pair type's value has valSize bytes at offset 0 and its int index is at
// idxOff.
type mpiType struct {
	name    string
	size    int
	kind    mpiKind
	valKind mpiKind // kindPair: the value's kind
	valSize int
	idxOff  int
}

// kindPair is a (value, int index) type for MPI_MINLOC and MPI_MAXLOC.
const kindPair mpiKind = 16

// mpiTypes: a handle is (kind << 8) | size on the PowerPC 32-bit ABI, size being the
// extent (what the library strides by).
var mpiTypes = map[uint32]mpiType{
	0x0101: {name: "MPI_CHAR", size: 1, kind: kindChar}, 0x0204: {name: "MPI_INT", size: 4, kind: kindSigned},
	0x0304: {name: "MPI_LONG", size: 4, kind: kindSigned}, 0x0408: {name: "MPI_LONG_LONG", size: 8, kind: kindSigned},
	0x0504: {name: "MPI_UNSIGNED", size: 4, kind: kindUnsigned}, 0x0604: {name: "MPI_FLOAT", size: 4, kind: kindFloat},
	0x0708: {name: "MPI_DOUBLE", size: 8, kind: kindFloat}, 0x0801: {name: "MPI_BYTE", size: 1, kind: kindByte},
	0x0902: {name: "MPI_SHORT", size: 2, kind: kindSigned}, 0x0a02: {name: "MPI_UNSIGNED_SHORT", size: 2, kind: kindUnsigned},
	0x0b01: {name: "MPI_UNSIGNED_CHAR", size: 1, kind: kindUnsigned}, 0x0c04: {name: "MPI_UNSIGNED_LONG", size: 4, kind: kindUnsigned},
	0x0d08: {name: "MPI_UNSIGNED_LONG_LONG", size: 8, kind: kindUnsigned}, 0x0e01: {name: "MPI_SIGNED_CHAR", size: 1, kind: kindSigned},
	0x3f01: {name: "MPI_PACKED", size: 1, kind: kindPacked},
	0x1008: {name: "MPI_FLOAT_INT", size: 8, kind: kindPair, valKind: kindFloat, valSize: 4, idxOff: 4},
	0x1110: {name: "MPI_DOUBLE_INT", size: 16, kind: kindPair, valKind: kindFloat, valSize: 8, idxOff: 8},
	0x1208: {name: "MPI_LONG_INT", size: 8, kind: kindPair, valKind: kindSigned, valSize: 4, idxOff: 4},
	0x1308: {name: "MPI_2INT", size: 8, kind: kindPair, valKind: kindSigned, valSize: 4, idxOff: 4},
	0x1408: {name: "MPI_SHORT_INT", size: 8, kind: kindPair, valKind: kindSigned, valSize: 2, idxOff: 4},
}

func typeOf(h uint32) (mpiType, error) {
	t, ok := mpiTypes[h]
	if !ok {
		t, ok = fortranTypes[h]
	}
	if !ok {
		return t, mpiErrorf(mpiErrType, "datatype 0x%x is not one of mpi.h's", h)
	}
	return t, nil
}

// bufBytes checks a (count, datatype) pair and returns the buffer's size in bytes.
func bufBytes(count, typ uint32) (uint32, error) {
	t, err := typeOf(typ)
	if err != nil {
		return 0, err
	}
	if int32(count) < 0 || uint64(count)*uint64(t.size) > 1<<30 {
		return 0, mpiErrorf(mpiErrCount, "count %d of %s", int32(count), t.name)
	}
	return count * uint32(t.size), nil
}

type mpiOp uint32

const (
	opSum mpiOp = iota + 1
	opProd
	opMin
	opMax
	opLand
	opLor
	opBand
	opBor
	opLxor
	opBxor
	opMinloc
	opMaxloc
)

var opNames = [...]string{opSum: "MPI_SUM", opProd: "MPI_PROD", opMin: "MPI_MIN", opMax: "MPI_MAX",
	opLand: "MPI_LAND", opLor: "MPI_LOR", opBand: "MPI_BAND", opBor: "MPI_BOR", opLxor: "MPI_LXOR",
	opBxor: "MPI_BXOR", opMinloc: "MPI_MINLOC", opMaxloc: "MPI_MAXLOC"}

// opAllowed follows MPI's table: arithmetic, logical and bitwise ops on C integers,
// arithmetic and min/max on floats, bitwise ops on bytes, MINLOC and MAXLOC on the pair
// types only, nothing on MPI_CHAR.
func opAllowed(op mpiOp, k mpiKind) bool {
	bitwise := op == opBand || op == opBor || op == opBxor
	switch k {
	case kindSigned, kindUnsigned:
		return op >= opSum && op <= opBxor
	case kindFloat:
		return op >= opSum && op <= opMax
	case kindByte:
		return bitwise
	case kindPair:
		return op == opMinloc || op == opMaxloc
	}
	return fortranOpAllowed(op, k)
}

func opName(o mpiOp) string {
	if int(o) < len(opNames) && opNames[o] != "" {
		return opNames[o]
	}
	return fmt.Sprintf("operation %d", o)
}

func checkOp(op uint32, t mpiType) error {
	o := mpiOp(op)
	if o < opSum || o > opMaxloc {
		return mpiErrorf(mpiErrOp, "operation %d is not one of mpi.h's", op)
	}
	if !opAllowed(o, t.kind) {
		return mpiErrorf(mpiErrOp, "%s is not defined on %s", opNames[o], t.name)
	}
	return nil
}

// reduceInto combines x into acc element by element: acc = acc op x, in the target's
// big-endian representation and with its wrap-around and float rounding.
func reduceInto(acc, x []byte, t mpiType, op mpiOp) {
	for i := 0; i+t.size <= len(acc); i += t.size {
		a, b := acc[i:i+t.size], x[i:i+t.size]
		if combineFortran(a, b, t, op) {
			continue
		}
		if t.kind == kindPair {
			combineLoc(a, b, t, op)
			continue
		}
		if t.kind == kindFloat {
			putFloat(a, t.size, combineFloat(getFloat(a, t.size), getFloat(b, t.size), op, t.size))
			continue
		}
		putInt(a, t.size, combineInt(getInt(a, t), getInt(b, t), op, t.kind))
	}
}

func getInt(b []byte, t mpiType) int64 {
	var u uint64
	for _, c := range b {
		u = u<<8 | uint64(c)
	}
	if t.kind == kindSigned && t.size < 8 {
		shift := uint(64 - 8*t.size)
		return int64(u<<shift) >> shift
	}
	return int64(u)
}

func putInt(b []byte, size int, v int64) {
	for i := size - 1; i >= 0; i-- {
		b[i] = byte(v)
		v >>= 8
	}
}

func bool64(c bool) int64 {
	if c {
		return 1
	}
	return 0
}

func combineInt(a, b int64, op mpiOp, k mpiKind) int64 {
	less := a < b
	if k != kindSigned {
		less = uint64(a) < uint64(b)
	}
	switch op {
	case opSum:
		return a + b
	case opProd:
		return a * b
	case opMin:
		if less {
			return a
		}
		return b
	case opMax:
		if less {
			return b
		}
		return a
	case opLand:
		return bool64(a != 0 && b != 0)
	case opLor:
		return bool64(a != 0 || b != 0)
	case opBand:
		return a & b
	case opLxor:
		return bool64((a != 0) != (b != 0))
	case opBxor:
		return a ^ b
	}
	return a | b
}

// combineLoc is MPI_MINLOC or MPI_MAXLOC on one (value, index) pair: the smaller (larger)
// value wins, and on a tie the smaller index, as the standard defines them.
func combineLoc(a, b []byte, t mpiType, op mpiOp) {
	vt := mpiType{size: t.valSize, kind: t.valKind}
	var less, greater bool
	if t.valKind == kindFloat {
		x, y := getFloat(a[:t.valSize], t.valSize), getFloat(b[:t.valSize], t.valSize)
		less, greater = y < x, y > x
	} else {
		x, y := getInt(a[:t.valSize], vt), getInt(b[:t.valSize], vt)
		less, greater = y < x, y > x
	}
	ia, ib := getInt(a[t.idxOff:t.idxOff+4], mpiType{size: 4, kind: kindSigned}), getInt(b[t.idxOff:t.idxOff+4], mpiType{size: 4, kind: kindSigned})
	takeB := (op == opMinloc && less) || (op == opMaxloc && greater)
	if !takeB && !less && !greater && ib < ia {
		// Equal values: keep the value, take the smaller index.
		putInt(a[t.idxOff:t.idxOff+4], 4, ib)
		return
	}
	if takeB {
		copy(a, b)
	}
}

func getFloat(b []byte, size int) float64 {
	if size == 4 {
		return float64(math.Float32frombits(be.Uint32(b)))
	}
	return math.Float64frombits(be.Uint64(b))
}

func putFloat(b []byte, size int, v float64) {
	if size == 4 {
		be.PutUint32(b, math.Float32bits(float32(v)))
		return
	}
	be.PutUint64(b, math.Float64bits(v))
}

// combineFloat rounds to the element's precision after each operation, as the target's
// single-precision arithmetic does.
func combineFloat(a, b float64, op mpiOp, size int) float64 {
	var r float64
	switch op {
	case opSum:
		r = a + b
	case opProd:
		r = a * b
	case opMin:
		r = b
		if a < b {
			r = a
		}
	case opMax:
		r = b
		if a > b {
			r = a
		}
	}
	if size == 4 {
		return float64(float32(r))
	}
	return r
}
