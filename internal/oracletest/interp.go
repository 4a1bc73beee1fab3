package oracletest

import (
	"os"
	"testing"
)

// InterpEnv names the test-only switch that runs every simulated CPU in ppc's interpreter:
// with InterpEnv=1 (the second pass of .ci/run) the differential tests hold the interpreter
// to qemu-ppc and MPICH as the default pass holds the translator. Only tests read it; the
// product's switch is dpclsh exec --interp (bgl.JobConfig.Interp).
const InterpEnv = "DPCL_TEST_INTERP"

// Interp reports whether InterpEnv=1 asks for the interpreter only.
func Interp() bool { return os.Getenv(InterpEnv) == "1" }

// CheckInterpreted fails the test when Interp is set but translated instructions ran
// (what ran says who ran them): a pass meant to test the interpreter that quietly ran the
// translator would prove nothing.
func CheckInterpreted(t testing.TB, what string, translated uint64) {
	t.Helper()
	if Interp() && translated != 0 {
		t.Errorf("%s: %d instructions ran translated under %s=1, want none", what, translated, InterpEnv)
	}
}
