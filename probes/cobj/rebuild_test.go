package cobj

import (
	"path/filepath"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// TestTestdataRebuildsByteForByte rebuilds the module objects from their sources with the
// Makefile in a scratch directory and compares them with the committed ones, when the
// installed compiler is the one recorded in their .comment section.
func TestTestdataRebuildsByteForByte(t *testing.T) {
	oracletest.RequireSameGCC(t, "testdata/counters-O2.o")
	tmp := t.TempDir()
	srcs, _ := filepath.Glob("testdata/*.[cs]")
	oracletest.CopyFiles(t, tmp, append(srcs, "testdata/Makefile")...)
	objs, _ := filepath.Glob("testdata/*.o")
	names := make([]string, len(objs))
	for i, o := range objs {
		names[i] = filepath.Base(o)
	}
	oracletest.Make(t, tmp, append([]string{"-j2"}, names...)...)
	oracletest.SameBytes(t, "testdata", tmp, names)
}

// TestExampleModuleRebuildsByteForByte does the same for the example module under
// examples/cmodules.
func TestExampleModuleRebuildsByteForByte(t *testing.T) {
	const dir = "../../examples/cmodules"
	oracletest.RequireSameGCC(t, dir+"/msgstats.o")
	tmp := t.TempDir()
	oracletest.CopyFiles(t, tmp, dir+"/msgstats.c", dir+"/Makefile")
	oracletest.Make(t, tmp, "msgstats.o")
	oracletest.SameBytes(t, dir, tmp, []string{"msgstats.o"})
}
