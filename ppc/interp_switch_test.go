package ppc

import "github.com/dpclsh/dpclsh/internal/oracletest"

// DPCL_TEST_INTERP=1 makes every CPU the tests create an interpreting one (tests that
// compare both modes still set each CPU's mode themselves).
func init() {
	if oracletest.Interp() {
		DefaultTranslation = false
	}
}
