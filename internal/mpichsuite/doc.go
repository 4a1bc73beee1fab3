// Package mpichsuite runs MPICH 4.0.2's own test suite (test/mpi, kept outside the
// repository and never copied into it) on the simulated Blue Gene/L, as MPICH's runtests
// does, and under MPICH on the host.
//
// The suite is found at $DPCL_REALAPPS/mpich-test/mpi, else ../shared/realapps/mpich-
// test/mpi beside the repository. ReadList reads a directory's testlist.in (or testlist)
// as runtests does: "program [np [key=value...]]" lines, # comments, nested directories,
// the @name@ substitutions the suite's configure would make for this machine
// (Substitutions: C only, no spawn, threads, MPIX extensions or large-memory tests),
// arg=, env=, timeLimit=, resultTest=, and xfail=/strict=false/mpix=true/mem= entries
// skipped with their reason.
//
// Each program is built twice, with `dpclsh cc` (a dpclsh built from the repository into
// the scratch directory) and with MPICH's mpicc, each time with the harness
// (util/mtest.c, mtest_common.c, mtest_single.c, dtypes.c) and a generated
// mpitestconf.h (MPITestConf) and empty mtest_mpix.h. The machine's harness objects are
// compiled with one section per function and without PIC, and linked with
// --gc-sections, so a test pulls in only the harness functions it calls. A program runs
// with `dpclsh exec --nodes NP` (its own empty --workdir) and with `mpiexec -n NP`; it
// passes when its output is " No Errors" lines only and it exits 0 (runtests'
// TestStatusNoErrors), or, for resultTest=TestStatus and TestErrFatal, when it exits
// nonzero. A simulated run may take twice the entry's timeLimit (default 180 s) of host
// time. Builds and runs go two at a time. Nothing is written outside the scratch
// directory.
//
// Only entries that pass under MPICH count. The table (WriteTable) has, per top-level
// directory: listed (entries runtests would run), built (for the machine), passed
// natively, passed and failed (of those passing natively); the CSV (WriteCSV) has one
// line per entry with its reason. testdata/known_failures.txt lists the natively passing
// entries that fail on the machine, each with why; one failing that is not listed, or
// one listed that passes, fails the run.
//
// The whole suite (the acceptance directories; a long run):
//
//	go run ./internal/mpichsuite/cmd/mpichsuite [-dirs attr,errhan,...] [-run KEY] [-csv mpichsuite.csv]
//
// `go test ./internal/mpichsuite` runs a CI subset covering every acceptance directory
// (TestSuiteCI, about two minutes on two cores; skipped with -short, and loudly when the
// suite is absent, failing then under DPCL_REQUIRE_ORACLES=1 if DPCL_REALAPPS is set).
package mpichsuite
