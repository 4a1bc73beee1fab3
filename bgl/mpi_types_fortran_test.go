package bgl

import (
	"math"
	"strings"
	"testing"
)

func f32s(v ...float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		be.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func f64s(v ...float64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		be.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return b
}

func i32s(v ...int32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		be.PutUint32(b[4*i:], uint32(x))
	}
	return b
}

// TestFortranReductions: the engine's arithmetic on the Fortran-only kinds, element by
// element, acc = acc op x.
func TestFortranReductions(t *testing.T) {
	for _, tt := range []struct {
		name      string
		typ       uint32
		op        mpiOp
		acc, x    []byte
		want      []byte
		wantError string
	}{
		{"complex sum", 0x4408, opSum, f32s(1.5, 2, 0.25, 0), f32s(3, -0.5, 0.5, 1), f32s(4.5, 1.5, 0.75, 1), ""},
		{"complex prod", 0x4408, opProd, f32s(1.5, 2), f32s(3, -0.5), f32s(5.5, 5.25), ""},
		// (1+2^-12)^2 = 1 + 2^-11 + 2^-24 rounds to 1 + 2^-11 in single precision before the
		// difference, as on the 440: the real part is 2^-11, not 2^-11 + 2^-24.
		{"complex prod rounds each product", 0x4408, opProd, f32s(1+0x1p-12, 1), f32s(1+0x1p-12, 1),
			f32s(0x1p-11, 2+0x1p-11), ""},
		{"double complex prod", 0x4510, opProd, f64s(0, 1), f64s(0, 1), f64s(-1, 0), ""},
		{"double complex sum", 0x4510, opSum, f64s(1e300, -2), f64s(1e300, 2), f64s(2e300, 0), ""},
		{"logical and", 0x4604, opLand, i32s(1, 1, 0, 0), i32s(1, 0, 1, 0), i32s(1, 0, 0, 0), ""},
		{"logical or", 0x4604, opLor, i32s(1, 1, 0, 0), i32s(1, 0, 1, 0), i32s(1, 1, 1, 0), ""},
		{"logical xor, any nonzero is true", 0x4604, opLxor, i32s(-1, 1, 0, 0), i32s(1, 0, 7, 0), i32s(0, 1, 1, 0), ""},
		{"2real minloc", 0x4808, opMinloc, f32s(2, 5, 1, 9, 3, 4), f32s(1, 7, 1, 2, 4, 1), f32s(1, 7, 1, 2, 3, 4), ""},
		{"2double_precision maxloc", 0x4910, opMaxloc, f64s(2, 5, 1, 9), f64s(3, 7, 1, 2), f64s(3, 7, 1, 2), ""},
		{"2integer minloc", 0x4708, opMinloc, i32s(4, 2), i32s(4, 1), i32s(4, 1), ""},
		{"integer sum", 0x4104, opSum, i32s(math.MaxInt32), i32s(1), i32s(math.MinInt32), ""},
		{"real max", 0x4204, opMax, f32s(1.5), f32s(2.5), f32s(2.5), ""},
		{"complex max refused", 0x4408, opMax, nil, nil, nil, "MPI_MAX is not defined on MPI_COMPLEX"},
		{"logical sum refused", 0x4604, opSum, nil, nil, nil, "MPI_SUM is not defined on MPI_LOGICAL"},
		{"character refused", 0x4001, opBor, nil, nil, nil, "MPI_BOR is not defined on MPI_CHARACTER"},
		{"2real sum refused", 0x4808, opSum, nil, nil, nil, "MPI_SUM is not defined on MPI_2REAL"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			typ, err := typeOf(tt.typ)
			if err != nil {
				t.Fatal(err)
			}
			err = checkOp(uint32(tt.op), typ)
			if tt.wantError != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantError) {
					t.Errorf("checkOp: %v, want %q", err, tt.wantError)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			reduceInto(tt.acc, tt.x, typ, tt.op)
			if string(tt.acc) != string(tt.want) {
				t.Errorf("got % x, want % x", tt.acc, tt.want)
			}
		})
	}
}

// TestFortranTypeSizes: every Fortran handle carries its size in the low byte, as
// mpi.h's MPI__TYPE_SIZE reads it, and no handle is also a C type's.
func TestFortranTypeSizes(t *testing.T) {
	for h, ft := range fortranTypes {
		if int(h&0xff) != ft.size {
			t.Errorf("%s: handle 0x%x, size %d", ft.name, h, ft.size)
		}
		if c, dup := mpiTypes[h]; dup {
			t.Errorf("%s has the handle of %s", ft.name, c.name)
		}
	}
}
