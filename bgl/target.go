package bgl

import (
	"embed"
	"io/fs"
)

// The simulated machine's MPI library and its header travel inside the binary, so
// `dpclsh cc` builds programs wherever dpclsh runs, from any directory, with exactly the
// library the engine in this binary serves (a libmpi.a from another version could speak
// another argument-block layout).
//
//go:embed target/mpi.h target/libmpi.a
var targetFiles embed.FS

// TargetFS holds what a program for the simulated machine is built with: mpi.h and
// libmpi.a, both at the root.
func TargetFS() fs.FS {
	sub, err := fs.Sub(targetFiles, "target")
	if err != nil {
		panic("bgl: embedded target files: " + err.Error())
	}
	return sub
}
