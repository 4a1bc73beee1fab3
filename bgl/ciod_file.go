package bgl

import (
	"errors"
	"io"
	"os"
	"syscall"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// Flag values of the PowerPC Linux ABI (O_DIRECTORY and O_NOFOLLOW differ from x86).
const (
	atFDCWD           = -100
	atSymlinkNofollow = 0x100
	atRemoveDir       = 0x200
	atEmptyPath       = 0x1000

	oAccMode   = 03
	oCreat     = 0100
	oExcl      = 0200
	oTrunc     = 01000
	oAppend    = 02000
	oDirectory = 040000
	oNofollow  = 0100000
	oCloexec   = 02000000

	fDupFD        = 0
	fGetFD        = 1
	fSetFD        = 2
	fGetFL        = 3
	fSetFL        = 4
	fDupFDCloexec = 1030
)

type ciodHandler func(cp *ciodProc, r *shipReq, t uint64) shipReply

// ciodTable is what the CIOD executes for its compute nodes.
var ciodTable map[abi.Sysno]ciodHandler

func init() {
	ciodTable = map[abi.Sysno]ciodHandler{
		abi.SysRead: ciodRead, abi.SysWrite: ciodWrite, abi.SysClose: ciodClose,
		abi.SysOpen: ciodOpen, abi.SysOpenat: ciodOpenat, abi.SysLseek: ciodLseek,
		abi.SysLlseek: ciodLlseek, abi.SysStatx: ciodStatx, abi.SysGetcwd: ciodGetcwd,
		abi.SysUnlink: ciodUnlink, abi.SysUnlinkat: ciodUnlinkat, abi.SysRmdir: ciodRmdir,
		abi.SysMkdir: ciodMkdir, abi.SysMkdirat: ciodMkdirat, abi.SysAccess: ciodAccess,
		abi.SysFaccessat: ciodFaccessat, abi.SysRename: ciodRename, abi.SysRenameat: ciodRenameat,
		abi.SysRenameat2: ciodRenameat, abi.SysReadlink: ciodReadlink, abi.SysReadlinkat: ciodReadlinkat,
		abi.SysDup: ciodDup, abi.SysDup2: ciodDup2, abi.SysDup3: ciodDup3, abi.SysIoctl: ciodIoctl,
		abi.SysFcntl: ciodFcntl, abi.SysFcntl64: ciodFcntl, abi.SysFtruncate: ciodFtruncate,
		abi.SysFtruncate64: ciodFtruncate64, abi.SysFsync: ciodFsync, abi.SysGetdents64: ciodGetdents64,
	}
}

func errRep(e abi.Errno) shipReply { return shipReply{err: e} }
func valRep(v uint32) shipReply    { return shipReply{val: v} }

func ciodRead(cp *ciodProc, r *shipReq, t uint64) shipReply {
	d, e := cp.get(r.args[0])
	if e != 0 {
		return errRep(e)
	}
	of := d.of
	if of.flags&oAccMode == 1 {
		return errRep(abi.EBADF)
	}
	buf := make([]byte, r.args[2])
	var n int
	var err error
	switch {
	case of.kind == fdConsole && cp.rank == 0 && cp.io.stdin != nil:
		n, e := cp.io.stdin.read(buf)
		if e != 0 {
			return errRep(e)
		}
		return shipReply{val: uint32(n), data: buf[:n]}
	case of.kind == fdConsole:
		return valRep(0)
	case of.dir:
		return errRep(abi.EISDIR)
	default:
		f, e := cp.io.sb.file(of)
		if e != 0 {
			return errRep(e)
		}
		n, err = f.ReadAt(buf, of.pos)
		of.pos += int64(n)
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return errRep(hostErrno(err))
	}
	return shipReply{val: uint32(n), data: buf[:n]}
}

func ciodWrite(cp *ciodProc, r *shipReq, t uint64) shipReply {
	d, e := cp.get(r.args[0])
	if e != 0 {
		return errRep(e)
	}
	of := d.of
	if of.flags&oAccMode == 0 {
		return errRep(abi.EBADF)
	}
	if of.kind == fdConsole {
		cp.io.console.Write(cp.rank, of.stream, t, r.data)
		return valRep(uint32(len(r.data)))
	}
	return cp.writeFile(of, r.data)
}

// writeFile writes data at the description's offset (at the end with O_APPEND), as far
// as the job's disk quota allows.
func (cp *ciodProc) writeFile(of *openFile, data []byte) shipReply {
	f, e := cp.io.sb.file(of)
	if e != 0 {
		return errRep(e)
	}
	fi, err := f.Stat()
	if err != nil {
		return errRep(hostErrno(err))
	}
	if of.flags&oAppend != 0 {
		of.pos = fi.Size()
	}
	q := &cp.io.sb.quota
	fit := q.room(fi.Size(), of.pos, int64(len(data)))
	if fit == 0 && len(data) > 0 {
		return errRep(abi.EDQUOT)
	}
	n, err := f.WriteAt(data[:fit], of.pos)
	if end := of.pos + int64(n); end > fi.Size() {
		q.resize(fi.Size(), end)
	}
	of.pos += int64(n)
	if err != nil && n == 0 {
		return errRep(hostErrno(err))
	}
	return valRep(uint32(n))
}

func ciodClose(cp *ciodProc, r *shipReq, t uint64) shipReply {
	if e := cp.closeFD(int32(r.args[0])); e != 0 {
		return errRep(e)
	}
	return valRep(0)
}

func ciodOpen(cp *ciodProc, r *shipReq, t uint64) shipReply {
	return cp.openAt(atFDCWD&0xffffffff, r.path, r.args[1], r.args[2])
}

func ciodOpenat(cp *ciodProc, r *shipReq, t uint64) shipReply {
	return cp.openAt(r.args[0], r.path, r.args[2], r.args[3])
}

// hostOpenFlags keeps the flags whose values the PowerPC and host ABIs share. O_APPEND
// is the description's business: writes go through WriteAt at the end of the file.
func hostOpenFlags(flags uint32) int {
	return int(flags & (oAccMode | oCreat | oExcl | oTrunc))
}

func (cp *ciodProc) openAt(dirfd uint32, path string, flags, mode uint32) shipReply {
	base, e := cp.baseDir(dirfd)
	if e != 0 {
		return errRep(e)
	}
	rel, e := cp.io.sb.resolve(base, path, flags&oNofollow == 0)
	if e != 0 {
		return errRep(e)
	}
	if flags&oNofollow != 0 {
		if fi, err := cp.io.sb.root.Lstat(rel); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return errRep(abi.ELOOP)
		}
	}
	var before int64
	if fi, err := cp.io.sb.root.Stat(rel); err == nil && !servable(fi) {
		return errRep(abi.EACCES)
	} else if err == nil && flags&oTrunc != 0 && flags&oAccMode != 0 {
		before = fi.Size()
	}
	// O_NONBLOCK: should the path become a FIFO after the check, opening it still cannot
	// wait for a writer with the whole machine stopped behind it.
	f, err := cp.io.sb.root.OpenFile(rel, hostOpenFlags(flags)|syscall.O_NONBLOCK, os.FileMode(mode&0o7777))
	if err != nil {
		return errRep(hostErrno(err))
	}
	fi, err := f.Stat()
	if err == nil && !servable(fi) {
		err = os.ErrPermission
	}
	if err != nil {
		f.Close()
		return errRep(hostErrno(err))
	}
	if flags&oDirectory != 0 && !fi.IsDir() {
		f.Close()
		return errRep(abi.ENOTDIR)
	}
	fd, e := cp.lowestFree(0)
	if e != 0 {
		f.Close()
		return errRep(e)
	}
	cp.io.sb.quota.resize(before, 0)
	of := &openFile{kind: fdFile, rel: rel, id: fi, dir: fi.IsDir(), flags: flags, hostFlags: hostOpenFlags(flags)}
	cp.io.sb.files.track(of, f)
	cp.install(fd, of, flags&oCloexec != 0)
	return valRep(uint32(fd))
}

// servable reports whether CIOD opens fi for a rank: regular files and directories.
// FIFOs, sockets and devices are refused with EACCES: reading them could block the I/O
// node (and with it the machine) on something outside the simulation.
func servable(fi os.FileInfo) bool { return fi.Mode().IsRegular() || fi.IsDir() }

func (cp *ciodProc) seek(fd uint32, off int64, whence uint32) (int64, abi.Errno) {
	d, e := cp.get(fd)
	if e != 0 {
		return 0, e
	}
	if d.of.kind == fdConsole {
		return 0, abi.ESPIPE
	}
	if whence > 2 {
		return 0, abi.EINVAL
	}
	if d.of.dir {
		return d.of.seekDir(off, whence)
	}
	pos := off
	switch whence {
	case 1:
		pos += d.of.pos
	case 2:
		f, e := cp.io.sb.file(d.of)
		if e != 0 {
			return 0, e
		}
		fi, err := f.Stat()
		if err != nil {
			return 0, hostErrno(err)
		}
		pos += fi.Size()
	}
	if pos < 0 {
		return 0, abi.EINVAL
	}
	d.of.pos = pos
	return pos, 0
}

func ciodLseek(cp *ciodProc, r *shipReq, t uint64) shipReply {
	pos, e := cp.seek(r.args[0], int64(int32(r.args[1])), r.args[2])
	if e != 0 {
		return errRep(e)
	}
	if pos > 1<<31-1 {
		return errRep(abi.EOVERFLOW)
	}
	return valRep(uint32(pos))
}

func ciodLlseek(cp *ciodProc, r *shipReq, t uint64) shipReply {
	off := int64(uint64(r.args[1])<<32 | uint64(r.args[2]))
	pos, e := cp.seek(r.args[0], off, r.args[4])
	if e != 0 {
		return errRep(e)
	}
	return shipReply{val64: uint64(pos)}
}

// ciodGetcwd implements getcwd(2): the rank's working directory is always jobDir (there
// is no chdir), never the host's path.
func ciodGetcwd(cp *ciodProc, r *shipReq, t uint64) shipReply {
	b := append([]byte(jobDir), 0)
	if uint32(len(b)) > r.args[1] {
		return errRep(abi.ERANGE)
	}
	return shipReply{val: uint32(len(b)), data: b}
}

// resolveAt resolves a path argument relative to dirfd.
func (cp *ciodProc) resolveAt(dirfd uint32, path string, follow bool) (string, abi.Errno) {
	base, e := cp.baseDir(dirfd)
	if e != 0 {
		return "", e
	}
	return cp.io.sb.resolve(base, path, follow)
}

func (cp *ciodProc) remove(dirfd uint32, path string, dir bool) shipReply {
	rel, e := cp.resolveAt(dirfd, path, false)
	if e != 0 {
		return errRep(e)
	}
	fi, err := cp.io.sb.root.Lstat(rel)
	switch {
	case err != nil:
		return errRep(hostErrno(err))
	case rel == ".":
		return errRep(abi.EBUSY)
	case dir && !fi.IsDir():
		return errRep(abi.ENOTDIR)
	case !dir && fi.IsDir():
		return errRep(abi.EISDIR)
	}
	cp.io.sb.pin(rel)
	if err := cp.io.sb.root.Remove(rel); err != nil {
		return errRep(hostErrno(err))
	}
	if fi.Mode().IsRegular() {
		cp.io.sb.quota.resize(fi.Size(), 0)
	}
	return valRep(0)
}

func ciodUnlink(cp *ciodProc, r *shipReq, t uint64) shipReply {
	return cp.remove(atFDCWD&0xffffffff, r.path, false)
}

func ciodRmdir(cp *ciodProc, r *shipReq, t uint64) shipReply {
	return cp.remove(atFDCWD&0xffffffff, r.path, true)
}

func ciodUnlinkat(cp *ciodProc, r *shipReq, t uint64) shipReply {
	return cp.remove(r.args[0], r.path, r.args[2]&atRemoveDir != 0)
}

func (cp *ciodProc) mkdir(dirfd uint32, path string, mode uint32) shipReply {
	rel, e := cp.resolveAt(dirfd, path, false)
	if e != 0 {
		return errRep(e)
	}
	if err := cp.io.sb.root.Mkdir(rel, os.FileMode(mode&0o777)); err != nil {
		return errRep(hostErrno(err))
	}
	return valRep(0)
}

func ciodMkdir(cp *ciodProc, r *shipReq, t uint64) shipReply {
	return cp.mkdir(atFDCWD&0xffffffff, r.path, r.args[1])
}

func ciodMkdirat(cp *ciodProc, r *shipReq, t uint64) shipReply {
	return cp.mkdir(r.args[0], r.path, r.args[2])
}

func (cp *ciodProc) access(dirfd uint32, path string, follow bool) shipReply {
	rel, e := cp.resolveAt(dirfd, path, follow)
	if e != 0 {
		return errRep(e)
	}
	if _, err := cp.io.sb.root.Lstat(rel); err != nil {
		return errRep(hostErrno(err))
	}
	return valRep(0)
}

func ciodAccess(cp *ciodProc, r *shipReq, t uint64) shipReply {
	return cp.access(atFDCWD&0xffffffff, r.path, true)
}

func ciodFaccessat(cp *ciodProc, r *shipReq, t uint64) shipReply {
	return cp.access(r.args[0], r.path, r.args[3]&atSymlinkNofollow == 0)
}

func (cp *ciodProc) rename(olddir uint32, oldp string, newdir uint32, newp string) shipReply {
	from, e := cp.resolveAt(olddir, oldp, false)
	if e != 0 {
		return errRep(e)
	}
	to, e := cp.resolveAt(newdir, newp, false)
	if e != 0 {
		return errRep(e)
	}
	cp.io.sb.pin(from)
	cp.io.sb.pin(to)
	if err := cp.io.sb.root.Rename(from, to); err != nil {
		return errRep(hostErrno(err))
	}
	return valRep(0)
}

func ciodRename(cp *ciodProc, r *shipReq, t uint64) shipReply {
	return cp.rename(atFDCWD&0xffffffff, r.path, atFDCWD&0xffffffff, r.path2)
}

func ciodRenameat(cp *ciodProc, r *shipReq, t uint64) shipReply {
	if r.num == abi.SysRenameat2 && r.args[4] != 0 {
		return errRep(abi.EINVAL)
	}
	return cp.rename(r.args[0], r.path, r.args[2], r.path2)
}

func (cp *ciodProc) readlink(dirfd uint32, path string) shipReply {
	rel, e := cp.resolveAt(dirfd, path, false)
	if e != 0 {
		return errRep(e)
	}
	target, err := cp.io.sb.root.Readlink(rel)
	if err != nil {
		return errRep(hostErrno(err))
	}
	return shipReply{data: []byte(target)}
}

func ciodReadlink(cp *ciodProc, r *shipReq, t uint64) shipReply {
	return cp.readlink(atFDCWD&0xffffffff, r.path)
}

func ciodReadlinkat(cp *ciodProc, r *shipReq, t uint64) shipReply {
	return cp.readlink(r.args[0], r.path)
}
