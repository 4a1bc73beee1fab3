package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/probes"
)

// spreadMap writes an mpirun map file putting 8 ranks k to an I/O node in a 64-node
// block (4x4x4 torus, 8 nodes per I/O node: I/O node i serves nodes 8i..8i+7).
func spreadMap(t *testing.T, k int) string {
	var b strings.Builder
	for r := range 8 {
		n := r/k*8 + r%k
		fmt.Fprintf(&b, "%d %d %d 0\n", n%4, n/4%4, n/16)
	}
	path := filepath.Join(t.TempDir(), fmt.Sprintf("spread%d.map", k))
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMappingSpreadsTasksOverIONodes: 8 tasks in a 64-node block sit under 8/k I/O nodes
// when a map file puts k on each; each such I/O node gets a daemon, and with fewer
// tasks per daemon the same messages arrive sooner (the daemons share the work).
func TestMappingSpreadsTasksOverIONodes(t *testing.T) {
	took := map[int]int64{}
	for _, k := range []int{8, 2, 1} {
		a, err := Launch(Options{Exe: loopELF, Args: []string{"20"}, Nodes: 8, PerIO: 8, Partition: 64, Mapping: spreadMap(t, k)})
		if err != nil {
			t.Fatal(err)
		}
		var daemons []string
		for _, n := range a.TreeNodes() {
			if n.Kind == "daemon" {
				daemons = append(daemons, fmt.Sprint(n.Index))
			}
		}
		want := []string{}
		for i := range 8 / k {
			want = append(want, fmt.Sprint(i))
		}
		if strings.Join(daemons, " ") != strings.Join(want, " ") || a.IONodeOf(7) != 7/k {
			t.Errorf("%d per I/O node: daemons on I/O nodes %v, rank 7 on %d", k, daemons, a.IONodeOf(7))
		}
		h, err := a.Install(points(t, a, "step", probes.PointEntry), probes.Send(probes.IntConst(1)), InstallOptions{})
		if err != nil {
			t.Fatal(err)
		}
		h.Activate()
		a.Start()
		run(t, a)
		st := h.Stats()
		if st.Delivered != 8*20 {
			t.Fatalf("%d per I/O node: delivered %d", k, st.Delivered)
		}
		took[k] = int64(st.Last - st.First)
		a.Close()
	}
	if !(took[1] < took[2] && took[2] < took[8]) {
		t.Errorf("receive ns at 1/2/8 tasks per I/O node: %d %d %d", took[1], took[2], took[8])
	}
	if _, err := Launch(Options{Exe: loopELF, Nodes: 8, PerIO: 8, Partition: 64, Mapping: "ZXYT"}); err == nil ||
		!strings.Contains(err.Error(), `"ZXYT" is neither XYZT, TXYZ nor a readable map file`) {
		t.Errorf("bad mapping: %v", err)
	}
}
