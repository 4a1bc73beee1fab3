package luavm

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"golang.org/x/sys/unix"
)

// The host check is the safety net under the deterministic memory budgets: Go ends the
// process when an allocation cannot be satisfied, so before a library function allocates
// a large block for a script it looks at the Go heap, and refuses when the live heap plus
// the block would pass the host's limit. It fires only when the host is truly short of
// memory (it collects garbage before refusing), so it cannot make a result depend on the
// host otherwise.

// HostCheckMin is the smallest allocation that looks at the heap: smaller ones are
// covered by the periodic checks and cost a read of runtime/metrics otherwise.
const HostCheckMin = 1 << 20

var (
	hostOnce  sync.Once
	hostLimit int64 // bytes the process may use; 0 when nothing is known
)

// HostMemoryLimit is what the process may hold: the least of the Go memory limit
// (GOMEMLIMIT or debug.SetMemoryLimit), three quarters of the physical memory and half
// the address-space limit (RLIMIT_AS, ulimit -v: Go reserves address space beyond its
// heap). It is read once; 0 means unknown.
func HostMemoryLimit() int64 {
	hostOnce.Do(func() { hostLimit = readHostLimit() })
	return hostLimit
}

func readHostLimit() int64 {
	limit := int64(math.MaxInt64)
	if l := debug.SetMemoryLimit(-1); l > 0 && l < limit {
		limit = l
	}
	if phys := physicalMemory(); phys > 0 {
		limit = min(limit, phys/4*3)
	}
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_AS, &rl); err == nil && rl.Cur != unix.RLIM_INFINITY && rl.Cur < math.MaxInt64 {
		limit = min(limit, int64(rl.Cur)/2)
	}
	if limit == math.MaxInt64 {
		return 0
	}
	return limit
}

// physicalMemory is MemTotal of /proc/meminfo, or 0.
func physicalMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kib int64
		if n, _ := fmt.Sscanf(sc.Text(), "MemTotal: %d kB", &kib); n == 1 {
			return kib << 10
		}
	}
	return 0
}

// heapObjects reads the bytes of the Go heap held by objects, live or not yet collected.
func heapObjects() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// CheckHostMemory refuses an allocation of n bytes by what when the Go heap, after a
// collection, has no room for it under HostMemoryLimit.
func CheckHostMemory(what string, n int64) error {
	if n < HostCheckMin {
		return nil
	}
	limit := HostMemoryLimit()
	if limit <= 0 || heapObjects()+n <= limit {
		return nil
	}
	runtime.GC()
	if heap := heapObjects(); heap+n > limit {
		return fmt.Errorf("%w: %s of %s does not fit: the process holds %s of the host's %s", ErrMemoryBudget,
			what, ByteSize(float64(n)), ByteSize(float64(heap)), ByteSize(float64(limit)))
	}
	return nil
}
