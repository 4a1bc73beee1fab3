// Package oracletest finds the reference tools (DESIGN.md section 7) for tests: the PowerPC
// cross compiler and objdump, qemu-ppc, MPICH, Chromium. A missing tool skips the test loudly, except
// when DPCL_REQUIRE_ORACLES=1 (as in CI), where it fails the test.
package oracletest

import (
	"os"
	"os/exec"
	"testing"
)

// Tool names of the oracles.
const (
	GCC      = "powerpc-linux-gnu-gcc"
	GXX      = "powerpc-linux-gnu-g++"      // Debian g++-powerpc-linux-gnu
	GFortran = "powerpc-linux-gnu-gfortran" // Debian gfortran-powerpc-linux-gnu
	Objdump  = "powerpc-linux-gnu-objdump"
	QEMU     = "qemu-ppc"
	MPICC    = "mpicc"
	MPICXX   = "mpicxx"
	MPIF90   = "mpif90"
	MPIExec  = "mpiexec"
	// Chromium is Debian's headless-capable browser, for the tests of the web page.
	Chromium = "chromium"
)

// Required reports whether missing oracles fail tests instead of skipping them.
func Required() bool { return os.Getenv("DPCL_REQUIRE_ORACLES") == "1" }

// Require returns the path of tool, or ends the test: Skip normally, Fatal when Required.
func Require(t testing.TB, tool string) string {
	t.Helper()
	path, err := exec.LookPath(tool)
	if err == nil {
		return path
	}
	msg := "ORACLE MISSING: " + tool + " not found on PATH; install the packages listed in DESIGN.md section 7"
	if Required() {
		t.Fatal(msg + " (DPCL_REQUIRE_ORACLES=1)")
	}
	t.Skip(msg + "; skipping")
	return ""
}
