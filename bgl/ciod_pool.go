package bgl

import (
	"container/list"
	"os"
	"strings"
	"syscall"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// Host descriptors. Every rank has its own table of maxFDs descriptors, but the host's
// open-file limit is shared by the whole job: holding one host file per open description
// gave each of 64 ranks about 300 files instead of 1,021. So an open description keeps its
// path and its offset, and its host file lives in a bounded pool shared by the job: the
// least recently used ones are closed and reopened by path on their next use (reads and
// writes go through ReadAt/WriteAt at the description's own offset, so nothing depends on
// the host file staying open). A description whose path is unlinked or renamed by the job
// is pinned open first: its path would no longer lead back to it.

// defaultHostFiles bounds the pool when the host's limit allows more.
const defaultHostFiles = 512

type hostFiles struct {
	max  int
	lru  list.List // of *openFile with a host file, most recently used first
	open map[*openFile]struct{}
}

func newHostFiles() *hostFiles {
	n := defaultHostFiles
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err == nil && lim.Cur/4 < uint64(n) {
		n = max(16, int(lim.Cur/4))
	}
	return &hostFiles{max: n, open: map[*openFile]struct{}{}}
}

// track registers a newly opened description (its host file f just opened).
func (h *hostFiles) track(of *openFile, f *os.File) {
	h.open[of] = struct{}{}
	of.f = f
	of.elem = h.lru.PushFront(of)
	h.evict()
}

// untrack closes of's host file for good (the last descriptor was closed).
func (h *hostFiles) untrack(of *openFile) error {
	delete(h.open, of)
	if of.f == nil {
		return nil
	}
	h.lru.Remove(of.elem)
	f := of.f
	of.f, of.elem = nil, nil
	return f.Close()
}

// evict closes the least recently used host files beyond the bound, skipping pinned ones
// and the one just used (at the front).
func (h *hostFiles) evict() {
	for e := h.lru.Back(); e != nil && e != h.lru.Front() && h.lru.Len() > h.max; {
		prev := e.Prev()
		if of := e.Value.(*openFile); !of.pinned {
			h.lru.Remove(e)
			of.f.Close()
			of.f, of.elem = nil, nil
		}
		e = prev
	}
}

// file returns of's host file, reopening it by path when the pool closed it. The file
// must still be the one the program opened.
func (s *sandbox) file(of *openFile) (*os.File, abi.Errno) {
	h := s.files
	if of.f != nil {
		h.lru.MoveToFront(of.elem)
		return of.f, 0
	}
	flags := of.hostFlags &^ (os.O_CREATE | os.O_EXCL | os.O_TRUNC)
	f, err := s.root.OpenFile(of.rel, flags|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, hostErrno(err)
	}
	if fi, err := f.Stat(); err != nil || !os.SameFile(fi, of.id) {
		f.Close()
		return nil, abi.EIO
	}
	of.f, of.elem = f, h.lru.PushFront(of)
	h.evict()
	return f, 0
}

// pin keeps open the host files of every description at rel or below it, before the job
// unlinks or renames that path.
func (s *sandbox) pin(rel string) {
	for of := range s.files.open {
		if rel != "." && (of.rel == rel || strings.HasPrefix(of.rel, rel+"/")) {
			if _, e := s.file(of); e == 0 {
				of.pinned = true
			}
		}
	}
}
