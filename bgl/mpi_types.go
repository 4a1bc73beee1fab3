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
	mpiErrOp       = 9
	mpiErrArg      = 12
	mpiErrTruncate = 14
	mpiErrOther    = 15
	mpiErrRequest  = 19
)

var mpiErrNames = map[int]string{mpiErrBuffer: "MPI_ERR_BUFFER", mpiErrCount: "MPI_ERR_COUNT",
	mpiErrType: "MPI_ERR_TYPE", mpiErrTag: "MPI_ERR_TAG", mpiErrComm: "MPI_ERR_COMM",
	mpiErrRank: "MPI_ERR_RANK", mpiErrRoot: "MPI_ERR_ROOT", mpiErrOp: "MPI_ERR_OP",
	mpiErrArg: "MPI_ERR_ARG", mpiErrTruncate: "MPI_ERR_TRUNCATE", mpiErrOther: "MPI_ERR_OTHER",
	mpiErrRequest: "MPI_ERR_REQUEST"}

// MPIError is a failed MPI call: its error class and what was wrong.
type MPIError struct {
	Class int
	Msg   string
}

func (e *MPIError) Error() string { return fmt.Sprintf("%s (%s)", e.Msg, mpiErrNames[e.Class]) }

func mpiErrorf(class int, format string, args ...any) error {
	return &MPIError{Class: class, Msg: fmt.Sprintf(format, args...)}
}

func checkComm(c uint32) error {
	if c != mpiCommWorld {
		return mpiErrorf(mpiErrComm, "communicator %d: only MPI_COMM_WORLD exists", int32(c))
	}
	return nil
}

// mpiKind is how a datatype's elements are read: signed or unsigned integer, or float.
type mpiKind uint8

const (
	kindSigned mpiKind = iota
	kindUnsigned
	kindFloat
	kindChar
	kindByte
)

type mpiType struct {
	name string
	size int
	kind mpiKind
}

// mpiTypes: a handle is (kind << 8) | size on the PowerPC 32-bit ABI.
var mpiTypes = map[uint32]mpiType{
	0x0101: {"MPI_CHAR", 1, kindChar}, 0x0204: {"MPI_INT", 4, kindSigned},
	0x0304: {"MPI_LONG", 4, kindSigned}, 0x0408: {"MPI_LONG_LONG", 8, kindSigned},
	0x0504: {"MPI_UNSIGNED", 4, kindUnsigned}, 0x0604: {"MPI_FLOAT", 4, kindFloat},
	0x0708: {"MPI_DOUBLE", 8, kindFloat}, 0x0801: {"MPI_BYTE", 1, kindByte},
}

func typeOf(h uint32) (mpiType, error) {
	t, ok := mpiTypes[h]
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
)

var opNames = [...]string{opSum: "MPI_SUM", opProd: "MPI_PROD", opMin: "MPI_MIN", opMax: "MPI_MAX",
	opLand: "MPI_LAND", opLor: "MPI_LOR", opBand: "MPI_BAND", opBor: "MPI_BOR"}

// opAllowed follows MPI's table: arithmetic and logical ops on C integers, arithmetic and
// min/max on floats, bitwise ops on integers and bytes, nothing on MPI_CHAR.
func opAllowed(op mpiOp, k mpiKind) bool {
	switch k {
	case kindSigned, kindUnsigned:
		return op >= opSum && op <= opBor
	case kindFloat:
		return op >= opSum && op <= opMax
	case kindByte:
		return op == opBand || op == opBor
	}
	return false
}

func checkOp(op uint32, t mpiType) error {
	o := mpiOp(op)
	if o < opSum || o > opBor {
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
	}
	return a | b
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
