package bgl

import (
	"embed"
	"io/fs"
)

// The simulated machine's MPI library and its headers travel inside the binary, so
// `dpclsh cc` (c++, fc) builds programs wherever dpclsh runs, from any directory, with
// exactly the library the engine in this binary serves (a libmpi.a from another version
// could speak another argument-block layout). The Fortran module travels as its source,
// mpi.f90: a compiled .mod is readable only by the gfortran version that wrote it.
//
//go:embed target/mpi.h target/libmpi.a target/mpif.h target/mpi.f90
var targetFiles embed.FS

// TargetFS holds what a program for the simulated machine is built with, all at the root:
// mpi.h, mpif.h, mpi.f90 (the source of the mpi module) and libmpi.a.
func TargetFS() fs.FS {
	sub, err := fs.Sub(targetFiles, "target")
	if err != nil {
		panic("bgl: embedded target files: " + err.Error())
	}
	return sub
}
