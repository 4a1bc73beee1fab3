package mpichsuite

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// MPITestConf is the mpitestconf.h the suite's configure would write for both builds (the
// machine's glibc and the host's have the same headers for what the harness asks about).
// It says nothing of MPI_Win or long double MPI types, so the harness leaves those out.
const MPITestConf = `/* mpitestconf.h: written by the runner in place of the suite's configure. */
#define HAVE_STDARG_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_STDINT_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_LONG_LONG_INT 1
#define HAVE_LONG_LONG 1
#define HAVE_INT64_T 1
#define HAVE_MPI_INIT_THREAD 1
#define HAVE_GETRUSAGE 1
#define HAVE_SYS_RESOURCE_H 1
#define USE_STRICT_MPI 1
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_NONE
#define STDC_HEADERS 1
#define PACKAGE_VERSION "4.0.2"
`

// harnessSources are the harness files every C test links with, under util/: libmtest,
// its single-threaded part (what the suite links outside the threads directory) and
// libdtypes.
var harnessSources = []string{"mtest.c", "mtest_common.c", "mtest_single.c", "dtypes.c"}

// A Toolchain builds the suite's C programs for one target.
type Toolchain struct {
	Name string   // "bgl" or "native", for messages
	CC   []string // the compiler driver and its leading arguments
	// Flags go before the sources. The harness is compiled with one section per function,
	// without PIC (whose shared .got2 would keep every function alive), and linked with
	// --gc-sections, so a test links only the harness functions it calls and not, say,
	// the intercommunicator helpers other tests use. MPICH has every function, so its
	// build needs none of this (and links position-independent executables).
	Flags []string
	// Conf is what configure adds to MPITestConf for this MPI: both have one-sided
	// communication (HAVE_MPI_WIN_CREATE: the harness's window helpers).
	Conf string
}

// BGL is `dpclsh cc` of the dpclsh binary at path.
func BGL(dpclsh string) Toolchain {
	return Toolchain{Name: "bgl", CC: []string{dpclsh, "cc"}, Flags: []string{"-O2", "-g", "-fno-pie"},
		Conf: "#define HAVE_MPI_WIN_CREATE 1\n"}
}

// Native is MPICH's mpicc.
func Native(mpicc string) Toolchain {
	return Toolchain{Name: "native", CC: []string{mpicc}, Flags: []string{"-O2"},
		Conf: "#define HAVE_MPI_WIN_CREATE 1\n"}
}

// A Harness is the compiled harness of one toolchain: its objects and include flags.
type Harness struct {
	tc      Toolchain
	root    string
	include []string
	objects []string
}

// BuildHarness writes mpitestconf.h and an empty mtest_mpix.h (MPICH's build generates
// it with prototypes of MPIX routines, which a strict build does not test) into dir and
// compiles the harness there.
func BuildHarness(ctx context.Context, tc Toolchain, root, dir string) (*Harness, error) {
	gen := filepath.Join(dir, "include")
	if err := os.MkdirAll(gen, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(gen, "mpitestconf.h"), []byte(MPITestConf+tc.Conf), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(gen, "mtest_mpix.h"), nil, 0o644); err != nil {
		return nil, err
	}
	h := &Harness{tc: tc, root: root, include: []string{"-I", gen, "-I", filepath.Join(root, "include")}}
	for _, src := range harnessSources {
		obj := filepath.Join(dir, strings.TrimSuffix(src, ".c")+".o")
		args := append(append(append([]string{}, tc.Flags...), h.include...),
			"-ffunction-sections", "-fdata-sections", "-c", "-o", obj, filepath.Join(root, "util", src))
		if msg, err := h.run(ctx, args); err != nil {
			return nil, fmt.Errorf("mpichsuite: %s harness util/%s does not build: %v\n%s", tc.Name, src, err, msg)
		}
		h.objects = append(h.objects, obj)
	}
	return h, nil
}

func (h *Harness) run(ctx context.Context, args []string) (string, error) {
	cmd := exec.CommandContext(ctx, h.tc.CC[0], append(append([]string{}, h.tc.CC[1:]...), args...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// Build compiles the entry's program into out and returns why it did not build ("" when
// it did): the compiler's first error line.
func (h *Harness) Build(ctx context.Context, e Entry, out string) string {
	src := filepath.Join(h.root, filepath.FromSlash(e.Dir), e.Program+".c")
	if _, err := os.Stat(src); err != nil {
		return "no " + e.Program + ".c (not a C test)"
	}
	args := append(append(append([]string{}, h.tc.Flags...), h.include...), "-o", out, src)
	args = append(append(args, h.objects...), "-Wl,--gc-sections", "-lm")
	msg, err := h.run(ctx, args)
	if err == nil {
		return ""
	}
	return firstError(msg, err)
}

// firstError is the line of a compiler's output that says why it failed.
func firstError(msg string, err error) string {
	for _, l := range strings.Split(msg, "\n") {
		if strings.Contains(l, "error:") || strings.Contains(l, "undefined reference") {
			if i := strings.Index(l, "error:"); i >= 0 {
				return strings.TrimSpace(l[i:])
			}
			if i := strings.Index(l, "undefined reference"); i >= 0 {
				return strings.TrimSpace(l[i:])
			}
		}
	}
	return fmt.Sprintf("%v: %s", err, strings.TrimSpace(msg))
}
