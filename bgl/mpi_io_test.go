package bgl_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/bgl"
)

// runMPIIO runs mpiio.c on 4 ranks in a fresh working directory and returns its stdout
// and the directory.
func runMPIIO(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	exe, err := filepath.Abs("testdata/bin/mpiio.elf")
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	res, err := bgl.Run(bgl.JobConfig{Exe: exe, Nodes: 4, PerIO: 8, Workdir: dir, Stdout: &out, Stderr: &errb})
	if err != nil {
		t.Fatal(err)
	}
	if st := res.ExitStatus(); st != 0 {
		t.Fatalf("status %d\nstdout:\n%s\nstderr:\n%s", st, out.String(), errb.String())
	}
	return out.String(), dir
}

// ints reads a file the job left as big-endian 32-bit integers.
func ints(t *testing.T, path string) []int32 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v := make([]int32, len(b)/4)
	if err := binary.Read(bytes.NewReader(b), binary.BigEndian, v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestMPIIOSemantics: the files a job writes with MPI-IO land in its working directory on
// the host with MPI's layout: write_ordered in rank order, write_all through a strided
// view and through a darray view, write_shared once per rank; the shared pointer is the
// same on every rank after collective calls; a nonblocking collective write is not
// complete while a member has not called it, and its status counts what was written;
// files return errors by default with MPI's classes.
func TestMPIIOSemantics(t *testing.T) {
	out, dir := runMPIIO(t)
	var want []string
	for r := 0; r < 4; r++ {
		for _, f := range []string{"ordered shared pointer: rank %d: 10", "strided wrote ints: rank %d: 3",
			"strided read back in order: rank %d: 1", "shared pointer after one int each: rank %d: 4",
			"shared pointer after seek_shared: rank %d: 1", "iwrite_at_all wrote ints: rank %d: 4",
			"iread_at of the next rank's ints: rank %d: 1", "error opening a missing file: rank %d: 1",
			"error with MPI_MODE_RDONLY|MPI_MODE_CREATE: rank %d: 1",
			"error with a filetype of decreasing displacements: rank %d: 1"} {
			want = append(want, strings.Replace(f, "%d", strconv.Itoa(r), 1))
		}
	}
	want = append(want, "iwrite_at_all complete before rank 1 called: rank 0: 0",
		"error reading a write-only file: 20 Permission denied")
	for _, w := range want {
		if !strings.Contains(out, w+"\n") {
			t.Errorf("no line %q in\n%s", w, out)
		}
	}

	if b, err := os.ReadFile(filepath.Join(dir, "ordered.dat")); err != nil || string(b) != "abbcccdddd" {
		t.Errorf("ordered.dat = %q, %v; want \"abbcccdddd\"", b, err)
	}
	wantStrided := []int32{0, 100, 200, 300, 1, 101, 201, 301, 2, 102, 202, 302}
	if got := ints(t, filepath.Join(dir, "strided.dat")); !slices.Equal(got, wantStrided) {
		t.Errorf("strided.dat = %v, want %v", got, wantStrided)
	}
	shared := ints(t, filepath.Join(dir, "shared.dat"))
	slices.Sort(shared)
	if !slices.Equal(shared, []int32{1000, 1001, 1002, 1003}) {
		t.Errorf("shared.dat holds %v, want each of 1000..1003 once", shared)
	}
	// A 4x4 array in C order, blocks of 2x2 on a 2x2 process grid: rank r's element i is
	// 10r+i.
	wantDarray := []int32{0, 1, 10, 11, 2, 3, 12, 13, 20, 21, 30, 31, 22, 23, 32, 33}
	if got := ints(t, filepath.Join(dir, "darray.dat")); !slices.Equal(got, wantDarray) {
		t.Errorf("darray.dat = %v, want %v", got, wantDarray)
	}
	for _, gone := range []string{"nonblocking.dat", "errors.dat", "cost.dat", "x.dat"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); err == nil {
			t.Errorf("%s is left in the working directory (MPI_MODE_DELETE_ON_CLOSE, or a refused open)", gone)
		}
	}
}

// TestMPIIOCost: a 1 MiB MPI_File_write_at costs what the CIOD charges for moving its
// bytes (1 byte per ns, plus per-call costs), not more, and the time is the same from one
// run to the next.
func TestMPIIOCost(t *testing.T) {
	re := regexp.MustCompile(`cost: writing 1048576 bytes took (\d+) ns`)
	var times []int
	for range 2 {
		out, _ := runMPIIO(t)
		m := re.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no cost line in\n%s", out)
		}
		ns, _ := strconv.Atoi(m[1])
		times = append(times, ns)
	}
	if times[0] < 1<<20 || times[0] > 1<<20+100_000 {
		t.Errorf("1 MiB write took %d ns; want the CIOD's 1048576 ns and a few calls", times[0])
	}
	if times[0] != times[1] {
		t.Errorf("two runs took %d and %d ns", times[0], times[1])
	}
}
