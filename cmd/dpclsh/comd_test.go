package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/internal/mpioracle"
	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// comdDir is CoMD's checkout, kept outside the repository (its sources are never copied
// in): $DPCL_REALAPPS/CoMD (an absolute path; .ci/run sets it when ../shared/realapps is
// beside the checkout), else ../shared/realapps/CoMD beside the repository. Only a set
// DPCL_REALAPPS makes CoMD expected: then a missing checkout fails under
// DPCL_REQUIRE_ORACLES=1; without it the test skips loudly.
func comdDir(t *testing.T) string {
	t.Helper()
	root, expected := os.LookupEnv("DPCL_REALAPPS")
	if !expected || root == "" {
		root, expected = filepath.Join("..", "..", "..", "shared", "realapps"), false
	}
	dir := filepath.Join(root, "CoMD")
	if _, err := os.Stat(filepath.Join(dir, "src-mpi", "CoMD.c")); err != nil {
		msg := "ORACLE MISSING: CoMD not found at " + dir
		if expected && oracletest.Required() {
			t.Fatal(msg + " (DPCL_REALAPPS is set and DPCL_REQUIRE_ORACLES=1)")
		}
		t.Skip(msg + " (set DPCL_REALAPPS to the folder holding CoMD); skipping")
	}
	return dir
}

// comdFlags are CoMD's build flags, the same for both builds: C99, MPI, double precision,
// and no fused multiply-add so x86-64 and the 440 round alike.
var comdFlags = []string{"-std=c99", "-DDO_MPI", "-DDOUBLE", "-O2", "-ffp-contract=off"}

// comdSources copies CoMD's src-mpi into a fresh directory with a CoMD_info.h (the file
// its Makefile generates; any content with these macros builds).
func comdSources(t testing.TB, dir string) (string, []string) {
	src := t.TempDir()
	oracletest.CopyTree(t, filepath.Join(dir, "src-mpi"), src)
	info := "#define CoMD_VARIANT \"CoMD-mpi\"\n#define CoMD_HOSTNAME \"bgl\"\n" +
		"#define CoMD_KERNEL_NAME \"'CNK'\"\n#define CoMD_KERNEL_RELEASE \"'1'\"\n" +
		"#define CoMD_PROCESSOR \"'ppc440'\"\n#define CoMD_COMPILER \"'cc'\"\n" +
		"#define CoMD_COMPILER_VERSION \"'cc'\"\n#define CoMD_CFLAGS \"''\"\n#define CoMD_LDFLAGS \"''\"\n"
	if err := os.WriteFile(filepath.Join(src, "CoMD_info.h"), []byte(info), 0o644); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(src, "*.c"))
	if len(files) == 0 {
		t.Fatalf("no C sources in %s", src)
	}
	return src, files
}

// buildCoMD builds CoMD for the simulated machine with `dpclsh cc` and natively with
// MPICH's mpicc, once per run (the sharded test runs the same build): the two compilers
// run side by side, each a single process.
func buildCoMD(t *testing.T, dir string) (elf, native string) {
	oracletest.Require(t, oracletest.GCC)
	mpicc := oracletest.Require(t, oracletest.MPICC)
	both := shared(t, "comd build "+dir, func(tb testing.TB) [2]string {
		_, files := comdSources(tb, dir)
		out := tb.TempDir()
		elf, native := filepath.Join(out, "comd.elf"), filepath.Join(out, "comd")
		nat := exec.Command(mpicc, append(append(append([]string{}, comdFlags...), "-o", native), append(files, "-lm")...)...)
		var natOut []byte
		natErr := make(chan error, 1)
		go func() {
			var err error
			natOut, err = nat.CombinedOutput()
			natErr <- err
		}()
		var stdout, stderr bytes.Buffer
		args := append(append(append([]string{"cc"}, comdFlags...), "-o", elf), files...)
		st := run(args, strings.NewReader(""), &stdout, &stderr)
		if err := <-natErr; err != nil {
			tb.Fatalf("mpicc CoMD: %v\n%s", err, natOut)
		}
		if st != 0 {
			tb.Fatalf("dpclsh cc CoMD: status %d\n%s%s", st, stdout.String(), stderr.String())
		}
		return [2]string{elf, native}
	})
	return both[0], both[1]
}

// comdPhysics keeps the columns of CoMD's thermodynamic table that are physics: step,
// time, total, potential and kinetic energy, temperature and atom count (us/atom is host
// time and is left out).
func comdPhysics(t *testing.T, out []string) []string {
	var rows []string
	in := false
	for _, l := range out {
		if strings.HasPrefix(l, "#  Loop") {
			in = true
			continue
		}
		f := strings.Fields(l)
		if !in || len(f) != 8 {
			if in && len(rows) > 0 {
				break
			}
			continue
		}
		rows = append(rows, strings.Join(append(f[:6:6], f[7]), " "))
	}
	if len(rows) < 2 {
		t.Fatalf("no thermodynamic table in CoMD's output:\n%s", strings.Join(out, "\n"))
	}
	return rows
}

// TestCoMDMatchesMPICH builds the unmodified CoMD proxy app both ways and runs the
// Lennard-Jones and EAM potentials on 1, 8 and 64 ranks, at the smallest lattice CoMD
// accepts for the decomposition (two cutoffs per rank and dimension): the energy and
// temperature columns of every printed step must equal MPICH's. 64 ranks only with
// DPCL_TEST_LONG=1 or DPCL_TEST_INTERP=1 (skipUnlessLong). The cases run in parallel, one
// native job at a time (nativeSlot).
func TestCoMDMatchesMPICH(t *testing.T) {
	dir := comdDir(t)
	elf, native := buildCoMD(t, dir)
	cases := []struct {
		ranks      int
		decomp     string
		lj, eam    int // unit cells per side
		steps, out int
	}{
		{1, "1", 4, 4, 4, 1},
		{8, "2", 7, 6, 4, 1},
		{64, "4", 13, 11, 2, 1},
	}
	for _, c := range cases {
		for _, pot := range []string{"lj", "eam"} {
			t.Run(pot+"/"+strconv.Itoa(c.ranks), func(t *testing.T) {
				if c.ranks > longSize {
					skipUnlessLong(t, c.ranks)
				}
				t.Parallel()
				// CoMD writes its YAML report into the working directory: each run its own.
				work := t.TempDir()
				oracletest.CopyTree(t, filepath.Join(dir, "pots"), filepath.Join(work, "pots"))
				cells := strconv.Itoa(c.lj)
				var args []string
				if pot == "eam" {
					cells = strconv.Itoa(c.eam)
					args = append(args, "-e")
				}
				args = append(args, "-i", c.decomp, "-j", c.decomp, "-k", c.decomp, "-x", cells, "-y", cells,
					"-z", cells, "-N", strconv.Itoa(c.steps), "-n", strconv.Itoa(c.out))
				want := comdNative(t, native, work, c.ranks, args)
				got := comdSim(t, elf, work, c.ranks, args)
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("CoMD %v on %d ranks: simulated table differs from MPICH's\n--- simulated\n%s\n--- mpiexec\n%s",
						args, c.ranks, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			})
		}
	}
}

func comdNative(t *testing.T, bin, work string, ranks int, args []string) []string {
	t.Helper()
	release := takeNativeSlot(ranks)
	res := mpioracle.RunIn(t, work, bin, ranks, args, 5*time.Minute)
	release()
	if res.TimedOut || res.Status != 0 {
		t.Fatalf("mpiexec CoMD %v: status %d (timed out %v)\n%s%s", args, res.Status, res.TimedOut, res.Stdout, res.Stderr)
	}
	return comdPhysics(t, res.Lines[0])
}

func comdSim(t *testing.T, elf, work string, ranks int, args []string) []string {
	t.Helper()
	var stderr strings.Builder
	res, err := bgl.Run(bgl.JobConfig{Exe: elf, Args: args, Nodes: ranks, Workdir: work, Capture: true, Stderr: &stderr})
	if err != nil {
		t.Fatalf("CoMD on %d simulated ranks: %v\n%s", ranks, err, stderr.String())
	}
	oracletest.CheckInterpreted(t, "CoMD on "+strconv.Itoa(ranks)+" ranks", res.Translated)
	out := strings.Split(string(res.Stdout[0]), "\n")
	if st := res.ExitStatus(); st != 0 {
		t.Fatalf("CoMD on %d simulated ranks: status %d\n%s\n%s", ranks, st, strings.Join(out, "\n"), stderr.String())
	}
	return comdPhysics(t, out)
}
