package bgl

import (
	"io/fs"
	"path/filepath"
	"syscall"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// dirent is one directory entry as getdents64 reports it.
type dirent struct {
	ino  uint64
	typ  uint8
	name string
}

// d_type values.
const (
	dtDir  = 4
	dtReg  = 8
	dtLnk  = 10
	dtUnkn = 0
)

func direntType(m fs.FileMode) uint8 {
	switch {
	case m.IsDir():
		return dtDir
	case m.IsRegular():
		return dtReg
	case m&fs.ModeSymlink != 0:
		return dtLnk
	}
	return dtUnkn
}

func inode(fi fs.FileInfo, err error) uint64 {
	if err == nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			return st.Ino
		}
	}
	return 1 // glibc skips entries with inode 0
}

// listing reads a directory once (with "." and ".." first, as Linux lists them) and keeps
// the entries on the open file, so successive getdents64 calls page through them. The
// working directory's ".." is itself: nothing above it is visible.
func (of *openFile) listing(sb *sandbox) ([]dirent, abi.Errno) {
	if of.entries != nil {
		return of.entries, 0
	}
	f, e := sb.file(of)
	if e != 0 {
		return nil, e
	}
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, hostErrno(err)
	}
	self := inode(f.Stat())
	parent := self
	if of.rel != "." {
		parent = inode(sb.root.Stat(filepath.Dir(of.rel)))
	}
	list := []dirent{{ino: self, typ: dtDir, name: "."}, {ino: parent, typ: dtDir, name: ".."}}
	for _, e := range ents {
		list = append(list, dirent{ino: inode(e.Info()), typ: direntType(e.Type()), name: e.Name()})
	}
	of.entries = list
	return list, 0
}

// ciodGetdents64 implements getdents64(fd, buf, count): struct linux_dirent64 records
// {u64 ino, s64 off, u16 reclen, u8 type, name, NUL}, each padded to 8 bytes.
func ciodGetdents64(cp *ciodProc, r *shipReq, t uint64) shipReply {
	d, e := cp.get(r.args[0])
	if e != 0 {
		return errRep(e)
	}
	if d.of.kind != fdFile || !d.of.dir {
		return errRep(abi.ENOTDIR)
	}
	list, e := d.of.listing(cp.io.sb)
	if e != 0 {
		return errRep(e)
	}
	var out []byte
	for d.of.next < len(list) {
		ent := list[d.of.next]
		reclen := (19 + len(ent.name) + 1 + 7) &^ 7
		if len(out)+reclen > int(r.args[2]) {
			if len(out) == 0 {
				return errRep(abi.EINVAL)
			}
			break
		}
		rec := make([]byte, reclen)
		be.PutUint64(rec[0:], ent.ino)
		be.PutUint64(rec[8:], uint64(d.of.next+1))
		be.PutUint16(rec[16:], uint16(reclen))
		rec[18] = ent.typ
		copy(rec[19:], ent.name)
		out = append(out, rec...)
		d.of.next++
	}
	return shipReply{val: uint32(len(out)), data: out}
}

// seekDir positions a directory stream: SEEK_SET to an offset getdents64 reported (the
// entry index + 1), or 0 to rewind and re-read the directory.
func (of *openFile) seekDir(off int64, whence uint32) (int64, abi.Errno) {
	switch {
	case whence == 1 && off == 0:
		return int64(of.next), 0
	case whence != 0 || off < 0 || of.entries != nil && off > int64(len(of.entries)):
		return 0, abi.EINVAL
	case off == 0:
		of.entries, of.next = nil, 0
		if of.f != nil {
			if _, err := of.f.Seek(0, 0); err != nil {
				return 0, hostErrno(err)
			}
		}
	}
	of.next = int(off)
	return off, 0
}
