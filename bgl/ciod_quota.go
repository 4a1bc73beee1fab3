package bgl

import (
	"github.com/dpclsh/dpclsh/bgl/abi"
)

// Disk quota. A job may grow the files of its working directory by at most its quota
// (JobConfig.DiskQuotaMB): a write or ftruncate past it gets EDQUOT, a write that only
// partly fits is cut short, as Linux does. Size is counted as files' apparent length, so a
// sparse file costs what its length says: a 1 TiB hole is refused. Shrinking, truncating
// and unlinking files give the space back (never below zero: files that were there before
// the job do not make room for it).
const (
	DefaultDiskQuotaMB = 512
	MaxDiskQuotaMB     = 1 << 30
)

type diskQuota struct {
	limit, used int64
}

func checkDiskQuotaMB(mb int) error {
	if mb < 1 || mb > MaxDiskQuotaMB {
		return errorf("disk quota of %d MiB: want 1..%d", mb, MaxDiskQuotaMB)
	}
	return nil
}

// room is how many bytes a file of size bytes may grow to when written at pos with n
// bytes: n, less when the quota cuts the write short, 0 when nothing fits.
func (q *diskQuota) room(size, pos, n int64) int64 {
	end := pos + n
	if end <= size {
		return n
	}
	maxEnd := size + max(0, q.limit-q.used)
	if pos >= maxEnd {
		return 0
	}
	return min(n, maxEnd-pos)
}

// resize records that a file went from old to new bytes.
func (q *diskQuota) resize(old, new int64) {
	q.used = max(0, q.used+new-old)
}

// grow checks a change of a file's size from old to new bytes against the quota and
// records it.
func (q *diskQuota) grow(old, new int64) abi.Errno {
	if new > old && q.used+new-old > q.limit {
		return abi.EDQUOT
	}
	q.resize(old, new)
	return 0
}
