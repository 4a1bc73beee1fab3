package mpioracle

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
)

// runTagName is the environment variable by which a native run's processes are known:
// mpiexec passes its environment on to the ranks, whatever process group or session
// they end up in, and other runs of the same binary (parallel subtests) carry another.
const runTagName = "DPCL_ORACLE_RUN"

var runCount atomic.Int64

// newRunTag is a tag no other run of this or another test process carries.
func newRunTag() string {
	return fmt.Sprintf("%d.%d", os.Getpid(), runCount.Add(1))
}

// killStrays kills every process whose environment carries tag, so that none of a native
// job's ranks outlives its run. It reads /proc: elsewhere it does nothing.
func killStrays(tag string) []int {
	want := []byte(runTagName + "=" + tag + "\x00")
	var killed []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(append([]byte{0}, env...), append([]byte{0}, want...)) {
			continue
		}
		if syscall.Kill(pid, syscall.SIGKILL) == nil {
			killed = append(killed, pid)
		}
	}
	return killed
}
