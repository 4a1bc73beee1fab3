package bgl

import (
	"container/list"
	"os"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// Service-time model of the CIOD: a fixed cost per shipped call plus the data moved over
// the I/O node's link. One CIOD serves its compute nodes one call at a time.
const (
	ciodCallNS     = 2000 // per call, ns
	ciodBytesPerNS = 1    // ~1 GB/s between CIOD and the file system
)

// fdKind tells console descriptors from host files.
type fdKind uint8

const (
	fdConsole fdKind = iota + 1
	fdFile
)

// openFile is one open file description; dup'ed descriptors share it (and its offset).
type openFile struct {
	kind   fdKind
	stream int           // console: 0 stdin, 1 stdout, 2 stderr
	f      *os.File      // file: its host file while the pool holds it open (see ciod_pool.go)
	rel    string        // root-relative path, for *at calls with this descriptor as dirfd
	id     os.FileInfo   // what rel named at open: a reopened host file must be the same
	pos    int64         // the file offset (reads and writes go through ReadAt/WriteAt)
	elem   *list.Element // in the pool's LRU list while f is open
	pinned bool          // its path was unlinked or renamed: f stays open until closed

	hostFlags int // flags the host file is opened with
	dir       bool
	flags     uint32 // as the program passed them (O_ACCMODE | O_APPEND ...)
	refs      int

	entries []dirent // a directory's listing, read at the first getdents64
	next    int      // the next entry getdents64 returns
}

type fdesc struct {
	of      *openFile
	cloexec bool
}

// ciodProc is the CIOD's view of one compute-node process: its descriptor table.
type ciodProc struct {
	rank int
	fds  map[int32]*fdesc
	io   *IONode
}

// maxFDs is the descriptor limit of a compute-node process.
const maxFDs = 1024

// Console receives what ranks write to their stdout and stderr, in the order the I/O nodes
// serve the writes (which section 3 of DESIGN.md fixes: arrival time, rank, sequence).
type Console interface {
	Write(rank, stream int, t uint64, b []byte)
}

// IONode is one I/O node: it runs the CIOD for its compute nodes and hosts the tool's
// daemon slot.
type IONode struct {
	Index     int
	sb        *sandbox
	procs     map[int]*ciodProc
	busyUntil uint64
	console   Console
	stdin     *stdinPump // the job's stdin, delivered to rank 0 (nil: EOF)

	daemon Daemon            // the tool daemon in this I/O node's slot, if any
	traps  map[uint32]uint32 // trap redirections: trap address -> new PC
	faults map[uint32]uint32 // access-fault redirections: faulting instruction -> new PC
}

func newIONode(index int, sb *sandbox, console Console, stdin *stdinPump) *IONode {
	return &IONode{Index: index, sb: sb, procs: map[int]*ciodProc{}, console: console, stdin: stdin,
		traps: map[uint32]uint32{}, faults: map[uint32]uint32{}}
}

// attach gives rank a descriptor table with the console on 0, 1 and 2.
func (n *IONode) attach(rank int) {
	cp := &ciodProc{rank: rank, fds: map[int32]*fdesc{}, io: n}
	for i := int32(0); i < 3; i++ {
		cp.fds[i] = &fdesc{of: &openFile{kind: fdConsole, stream: int(i), refs: 1, flags: consoleFlags(i)}}
	}
	n.procs[rank] = cp
}

func consoleFlags(fd int32) uint32 {
	if fd == 0 {
		return 0 // O_RDONLY
	}
	return 1 // O_WRONLY
}

// detach closes every descriptor of an ended process.
func (n *IONode) detach(rank int) {
	if cp := n.procs[rank]; cp != nil {
		for fd := range cp.fds {
			cp.closeFD(fd)
		}
		delete(n.procs, rank)
	}
}

// serve executes one shipped call arriving at virtual time t and returns the reply and the
// time the reply leaves the I/O node.
func (n *IONode) serve(rank int, t uint64, r *shipReq) (shipReply, uint64) {
	start := max(t, n.busyUntil)
	cp := n.procs[rank]
	var rep shipReply
	if h, ok := ciodTable[r.num]; ok && cp != nil {
		rep = h(cp, r, t)
	} else {
		rep = shipReply{err: abi.ENOSYS}
	}
	done := start + ciodCallNS + uint64(len(r.data)+len(rep.data))/ciodBytesPerNS
	n.busyUntil = done
	return rep, done
}

func (cp *ciodProc) get(fd uint32) (*fdesc, abi.Errno) {
	d, ok := cp.fds[int32(fd)]
	if !ok {
		return nil, abi.EBADF
	}
	return d, 0
}

// lowestFree returns the lowest unused descriptor >= from.
func (cp *ciodProc) lowestFree(from int32) (int32, abi.Errno) {
	for fd := from; fd < maxFDs; fd++ {
		if _, used := cp.fds[fd]; !used {
			return fd, 0
		}
	}
	return 0, abi.EMFILE
}

func (cp *ciodProc) install(fd int32, of *openFile, cloexec bool) {
	if _, used := cp.fds[fd]; used {
		cp.closeFD(fd)
	}
	of.refs++
	cp.fds[fd] = &fdesc{of: of, cloexec: cloexec}
}

func (cp *ciodProc) closeFD(fd int32) abi.Errno {
	d, ok := cp.fds[fd]
	if !ok {
		return abi.EBADF
	}
	delete(cp.fds, fd)
	if d.of.refs--; d.of.refs == 0 && d.of.kind == fdFile {
		if err := cp.io.sb.files.untrack(d.of); err != nil {
			return hostErrno(err)
		}
	}
	return 0
}

// baseDir returns the root-relative directory dirfd names (AT_FDCWD: the working directory).
func (cp *ciodProc) baseDir(dirfd uint32) (string, abi.Errno) {
	if int32(dirfd) == atFDCWD {
		return "", 0
	}
	d, e := cp.get(dirfd)
	if e != 0 {
		return "", e
	}
	if !d.of.dir {
		return "", abi.ENOTDIR
	}
	return d.of.rel, 0
}
