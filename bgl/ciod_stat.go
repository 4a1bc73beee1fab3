package bgl

import (
	"io/fs"
	"os"
	"syscall"
)

const (
	statxSize       = 256
	statxBasicStats = 0x7ff
	sIFCHR          = 0o020000
)

// ciodStatx implements statx(dirfd, path, flags, mask, buf): AT_EMPTY_PATH with "" stats
// the descriptor itself; consoles are character devices (rdev 136:rank, like a pty).
func ciodStatx(cp *ciodProc, r *shipReq, t uint64) shipReply {
	dirfd, flags := r.args[0], r.args[2]
	if r.path == "" && flags&atEmptyPath != 0 {
		if int32(dirfd) == atFDCWD {
			return cp.statPath(".", true)
		}
		d, e := cp.get(dirfd)
		if e != 0 {
			return errRep(e)
		}
		if d.of.kind == fdConsole {
			return shipReply{data: consoleStatx(cp.rank)}
		}
		f, e := cp.io.sb.file(d.of)
		if e != 0 {
			return errRep(e)
		}
		fi, err := f.Stat()
		if err != nil {
			return errRep(hostErrno(err))
		}
		return shipReply{data: statxOf(fi)}
	}
	rel, e := cp.resolveAt(dirfd, r.path, flags&atSymlinkNofollow == 0)
	if e != 0 {
		return errRep(e)
	}
	return cp.statPath(rel, flags&atSymlinkNofollow == 0)
}

func (cp *ciodProc) statPath(rel string, follow bool) shipReply {
	var fi fs.FileInfo
	var err error
	if follow {
		fi, err = cp.io.sb.root.Stat(rel)
	} else {
		fi, err = cp.io.sb.root.Lstat(rel)
	}
	if err != nil {
		return errRep(hostErrno(err))
	}
	return shipReply{data: statxOf(fi)}
}

func consoleStatx(rank int) []byte {
	b := make([]byte, statxSize)
	be.PutUint32(b[0:], statxBasicStats)
	be.PutUint32(b[4:], 1024)
	be.PutUint32(b[16:], 1)
	be.PutUint16(b[28:], sIFCHR|0o620)
	be.PutUint32(b[128:], 136)
	be.PutUint32(b[132:], uint32(rank))
	return b
}

// statxOf lays out struct statx (big-endian) from a host file's metadata.
func statxOf(fi fs.FileInfo) []byte {
	b := make([]byte, statxSize)
	st, _ := fi.Sys().(*syscall.Stat_t)
	be.PutUint32(b[0:], statxBasicStats)
	be.PutUint32(b[4:], 4096)
	be.PutUint16(b[28:], uint16(modeBits(fi)))
	be.PutUint64(b[40:], uint64(fi.Size()))
	mt := fi.ModTime()
	if st == nil {
		be.PutUint32(b[16:], 1)
		for _, off := range []int{64, 96, 112} {
			be.PutUint64(b[off:], uint64(mt.Unix()))
			be.PutUint32(b[off+8:], uint32(mt.Nanosecond()))
		}
		return b
	}
	be.PutUint32(b[4:], uint32(st.Blksize))
	be.PutUint32(b[16:], uint32(st.Nlink))
	be.PutUint32(b[20:], st.Uid)
	be.PutUint32(b[24:], st.Gid)
	be.PutUint64(b[32:], st.Ino)
	be.PutUint64(b[48:], uint64(st.Blocks))
	for off, ts := range map[int]syscall.Timespec{64: st.Atim, 96: st.Ctim, 112: st.Mtim} {
		be.PutUint64(b[off:], uint64(ts.Sec))
		be.PutUint32(b[off+8:], uint32(ts.Nsec))
	}
	be.PutUint32(b[128:], uint32(st.Rdev>>8&0xfff))
	be.PutUint32(b[132:], uint32(st.Rdev&0xff|st.Rdev>>12&^0xff))
	be.PutUint32(b[136:], uint32(st.Dev>>8&0xfff))
	be.PutUint32(b[140:], uint32(st.Dev&0xff|st.Dev>>12&^0xff))
	return b
}

// modeBits returns st_mode: the type bits Linux uses plus the permission bits.
func modeBits(fi fs.FileInfo) uint32 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Mode
	}
	m := uint32(fi.Mode().Perm())
	switch {
	case fi.IsDir():
		m |= 0o040000
	case fi.Mode()&os.ModeSymlink != 0:
		m |= 0o120000
	default:
		m |= 0o100000
	}
	return m
}
