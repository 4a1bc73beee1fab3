package main

import (
	"github.com/dpclsh/dpclsh/internal/oracletest"
	"github.com/dpclsh/dpclsh/ppc"
)

// DPCL_TEST_INTERP=1 makes every rank the in-process tests launch run in ppc's
// interpreter. The dpclsh binary that other tests start never reads the variable.
func init() {
	if oracletest.Interp() {
		ppc.DefaultTranslation = false
	}
}
