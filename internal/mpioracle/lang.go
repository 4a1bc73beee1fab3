package mpioracle

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Lang is the language of a program's source, which decides the compilers that build it:
// MPICH's wrapper natively, dpclsh's driver (cc, c++, fc) for the machine.
type Lang struct {
	Name   string   // "C", "C++", "Fortran"
	Ext    string   // the source suffix, with its dot
	MPI    string   // MPICH's compiler wrapper
	Flags  []string // native flags, the Makefiles' NATIVE_*FLAGS
	Driver string   // dpclsh's subcommand
}

// Langs are the languages a MANIFEST program may be written in, by suffix.
var Langs = []Lang{
	{Name: "C", Ext: ".c", MPI: "mpicc", Flags: CFlags, Driver: "cc"},
	{Name: "C++", Ext: ".cpp", MPI: "mpicxx", Flags: CXXFlags, Driver: "c++"},
	{Name: "Fortran", Ext: ".f90", MPI: "mpif90", Flags: FFlags, Driver: "fc"},
	{Name: "Fortran", Ext: ".f", MPI: "mpif90", Flags: FFlags, Driver: "fc"},
}

// CXXFlags are the native C++ flags (the Makefile's CFLAGS): -ffp-contract=off as for C.
var CXXFlags = []string{"-O2", "-g", "-Wall", "-Wextra", "-ffp-contract=off"}

// FFlags are the native Fortran flags (the Makefile's FFLAGS).
var FFlags = []string{"-O2", "-g", "-Wall", "-ffp-contract=off"}

// LangOf returns the language of a source file by its suffix.
func LangOf(src string) (Lang, error) {
	for _, l := range Langs {
		if strings.HasSuffix(src, l.Ext) {
			return l, nil
		}
	}
	return Lang{}, fmt.Errorf("mpioracle: %s: not a C (.c), C++ (.cpp) or Fortran (.f90, .f) source", src)
}

// SourceOf finds the one source of a MANIFEST program in dir: name plus one of the
// languages' suffixes.
func SourceOf(dir, name string) (string, error) {
	var found []string
	for _, l := range Langs {
		p := filepath.Join(dir, name+l.Ext)
		if _, err := os.Stat(p); err == nil {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("mpioracle: no source for %s in %s", name, dir)
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("mpioracle: %s has several sources in %s: %v", name, dir, found)
}

// Sources lists the program sources in dir (every language), by base name without suffix.
func Sources(dir string) ([]string, error) {
	var names []string
	for _, l := range Langs {
		m, err := filepath.Glob(filepath.Join(dir, "*"+l.Ext))
		if err != nil {
			return nil, err
		}
		for _, p := range m {
			names = append(names, strings.TrimSuffix(filepath.Base(p), l.Ext))
		}
	}
	return names, nil
}
