// Package mpioracle runs MPI C programs natively under MPICH, the reference the simulated
// Blue Gene/L's MPI engine is checked against (DESIGN.md section 7). It is imported only by
// tests.
//
// Usage:
//
//	bin := mpioracle.Build(t, "examples/apps/ring.c", "examples/apps")
//	res := mpioracle.Run(t, bin, 7, []string{"16", "10"}, time.Minute)
//	got := res.Canonical() // exit status and stdout grouped by rank
//
// Choices where DESIGN.md is silent:
//
//   - Output is compared grouped by rank: mpiexec runs with -l, which labels every line
//     "[rank] ", and Canonical lists each rank's lines in the order that rank printed them,
//     ranks in order. Lines of different ranks interleave by timing, so only this form is
//     deterministic; the simulated machine's output is to be put in the same form.
//     Unlabelled lines (mpiexec's own termination banner) are kept apart in Result.Launcher
//     and never compared.
//   - Programs are built with the flags of the Makefiles (CFlags), -ffp-contract=off above
//     all, so x86-64 and PowerPC builds round alike.
//   - Which programs run, at which sizes, with which arguments and to what end (exit status,
//     signal, deadlock) is data: the MANIFEST files next to the sources (ParseManifest).
//     A deadlock program is marked native=skip, since mpiexec would hang on it.
//   - Each size below 8 runs twice and both runs must agree; a normal test run makes one
//     64-rank run, compared with its golden file, since 64 MPICH ranks spin-waiting on two
//     cores take seconds per run. -rewrite always runs twice, so every golden file was
//     checked for determinism when written. The corpus's 64-rank runs happen only with
//     -full or -rewrite (their golden files are committed for the engine's tests).
//   - A run that outlives its timeout is killed with its whole process group (mpiexec, its
//     proxies and the ranks) and reported as a timeout; mpiexec needs no flag to run as
//     root (it is MPICH's Hydra, not Open MPI).
package mpioracle
