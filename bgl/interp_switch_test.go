package bgl

import (
	"github.com/dpclsh/dpclsh/internal/oracletest"
	"github.com/dpclsh/dpclsh/ppc"
)

// DPCL_TEST_INTERP=1 makes every rank of every job the tests launch (this package's and
// bgl_test's, one test binary) run in ppc's interpreter.
func init() {
	if oracletest.Interp() {
		ppc.DefaultTranslation = false
	}
}
