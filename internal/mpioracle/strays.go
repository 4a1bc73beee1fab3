package mpioracle

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// killStrays kills every process whose executable is bin, a program the test built in
// its own temporary directory, so that none of a native job's ranks outlives the run —
// whichever process group or session it ended up in. It reads /proc: elsewhere it does
// nothing.
func killStrays(bin string) []int {
	abs, err := filepath.Abs(bin)
	if err != nil {
		return nil
	}
	var killed []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); err == nil && exe == abs {
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				killed = append(killed, pid)
			}
		}
	}
	return killed
}
