package bgl

import "github.com/dpclsh/dpclsh/bgl/abi"

func (cp *ciodProc) dupTo(old uint32, from int32, exact bool, cloexec bool) shipReply {
	d, e := cp.get(old)
	if e != 0 {
		return errRep(e)
	}
	fd := from
	if !exact {
		if fd, e = cp.lowestFree(from); e != 0 {
			return errRep(e)
		}
	} else if fd < 0 || fd >= maxFDs {
		return errRep(abi.EBADF)
	}
	if exact && fd == int32(old) {
		return valRep(uint32(fd))
	}
	cp.install(fd, d.of, cloexec)
	return valRep(uint32(fd))
}

func ciodDup(cp *ciodProc, r *shipReq, t uint64) shipReply {
	return cp.dupTo(r.args[0], 0, false, false)
}

func ciodDup2(cp *ciodProc, r *shipReq, t uint64) shipReply {
	return cp.dupTo(r.args[0], int32(r.args[1]), true, false)
}

func ciodDup3(cp *ciodProc, r *shipReq, t uint64) shipReply {
	if r.args[0] == r.args[1] || r.args[2]&^oCloexec != 0 {
		return errRep(abi.EINVAL)
	}
	return cp.dupTo(r.args[0], int32(r.args[1]), true, r.args[2]&oCloexec != 0)
}

// ciodIoctl answers every request with ENOTTY: BG/L consoles are sockets, not terminals
// (so glibc fully buffers stdout, as it does under qemu with a pipe).
func ciodIoctl(cp *ciodProc, r *shipReq, t uint64) shipReply {
	if _, e := cp.get(r.args[0]); e != 0 {
		return errRep(e)
	}
	return errRep(abi.ENOTTY)
}

func ciodFcntl(cp *ciodProc, r *shipReq, t uint64) shipReply {
	d, e := cp.get(r.args[0])
	if e != 0 {
		return errRep(e)
	}
	switch r.args[1] {
	case fDupFD, fDupFDCloexec:
		if int32(r.args[2]) < 0 || r.args[2] >= maxFDs {
			return errRep(abi.EINVAL)
		}
		return cp.dupTo(r.args[0], int32(r.args[2]), false, r.args[1] == fDupFDCloexec)
	case fGetFD:
		if d.cloexec {
			return valRep(1)
		}
		return valRep(0)
	case fSetFD:
		d.cloexec = r.args[2]&1 != 0
		return valRep(0)
	case fGetFL:
		return valRep(d.of.flags &^ oCloexec)
	case fSetFL:
		d.of.flags = d.of.flags&^oAppend | r.args[2]&oAppend
		return valRep(0)
	}
	return errRep(abi.EINVAL)
}

func (cp *ciodProc) truncate(fd uint32, size int64) shipReply {
	d, e := cp.get(fd)
	if e != 0 {
		return errRep(e)
	}
	if d.of.kind != fdFile || d.of.dir || d.of.flags&oAccMode == 0 {
		return errRep(abi.EINVAL)
	}
	if size < 0 {
		return errRep(abi.EINVAL)
	}
	f, e := cp.io.sb.file(d.of)
	if e != 0 {
		return errRep(e)
	}
	fi, err := f.Stat()
	if err != nil {
		return errRep(hostErrno(err))
	}
	if e := cp.io.sb.quota.grow(fi.Size(), size); e != 0 {
		return errRep(e)
	}
	if err := f.Truncate(size); err != nil {
		cp.io.sb.quota.resize(size, fi.Size())
		return errRep(hostErrno(err))
	}
	return valRep(0)
}

func ciodFtruncate(cp *ciodProc, r *shipReq, t uint64) shipReply {
	return cp.truncate(r.args[0], int64(int32(r.args[1])))
}

// ciodFtruncate64 takes the length in the aligned register pair r5:r6 (PPC32 ABI).
func ciodFtruncate64(cp *ciodProc, r *shipReq, t uint64) shipReply {
	return cp.truncate(r.args[0], int64(uint64(r.args[2])<<32|uint64(r.args[3])))
}

func ciodFsync(cp *ciodProc, r *shipReq, t uint64) shipReply {
	d, e := cp.get(r.args[0])
	if e != 0 {
		return errRep(e)
	}
	if d.of.kind == fdFile {
		f, e := cp.io.sb.file(d.of)
		if e != 0 {
			return errRep(e)
		}
		if err := f.Sync(); err != nil {
			return errRep(hostErrno(err))
		}
	}
	return valRep(0)
}
