package bgl

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// maxSymlinks is Linux's MAXSYMLINKS: more links in one lookup gives ELOOP.
const maxSymlinks = 40

// jobDir is the working directory as a rank sees it: getcwd answers it, and absolute paths
// below it name the job's working directory, so a program never learns (or depends on)
// where on the host the job runs.
const jobDir = "/job"

// sandbox is the job's working directory as the I/O nodes see it. Every path a program
// names is resolved inside it component by component; whatever would leave it (an absolute
// path elsewhere, a ".." above it, a symlink pointing out) is EACCES. The resolved path is
// then used through an os.Root, which refuses escapes again should the tree change between
// the two steps.
type sandbox struct {
	dir   string   // absolute, symlink-free
	alias []string // other absolute spellings of dir (as given, before EvalSymlinks)
	root  *os.Root
	files *hostFiles // host files of the job's open descriptions
	quota diskQuota  // growth of the directory's files
}

func newSandbox(dir string) (*sandbox, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, errorf("working directory %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, errorf("working directory %s: %w", dir, err)
	}
	root, err := os.OpenRoot(real)
	if err != nil {
		return nil, errorf("working directory %s: %w", dir, err)
	}
	return &sandbox{dir: real, alias: []string{abs}, root: root, files: newHostFiles(),
		quota: diskQuota{limit: DefaultDiskQuotaMB << 20}}, nil
}

func (s *sandbox) close() error { return s.root.Close() }

// inside returns the part of absolute path abs below the working directory, spelt as
// jobDir or as the host's path.
func (s *sandbox) inside(abs string) (string, bool) {
	clean := filepath.Clean(abs)
	for _, d := range append([]string{jobDir, s.dir}, s.alias...) {
		if clean == d {
			return "", true
		}
		if strings.HasPrefix(clean, d+"/") {
			return clean[len(d)+1:], true
		}
	}
	return "", false
}

func splitPath(p string) []string {
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}

// resolve turns path, relative to base (a root-relative directory), into a root-relative
// path with no symlinks in its directory part (and none at all when followLast).
func (s *sandbox) resolve(base, path string, followLast bool) (string, abi.Errno) {
	if path == "" {
		return "", abi.ENOENT
	}
	if len(path) >= pathMax {
		return "", abi.ENAMETOOLONG
	}
	comps := splitPath(base)
	if filepath.IsAbs(path) {
		rel, ok := s.inside(path)
		if !ok {
			return "", abi.EACCES
		}
		comps, path = nil, rel
	}
	pending := splitPath(path)
	links := 0
	for len(pending) > 0 {
		c := pending[0]
		pending = pending[1:]
		if c == ".." {
			if len(comps) == 0 {
				return "", abi.EACCES
			}
			comps = comps[:len(comps)-1]
			continue
		}
		cand := append(append([]string(nil), comps...), c)
		last := len(pending) == 0
		if last && !followLast {
			comps = cand
			break
		}
		link, e := s.lookup(cand, last)
		switch {
		case e != 0:
			return "", e
		case link == nil:
			comps = cand
			continue
		}
		if links++; links > maxSymlinks {
			return "", abi.ELOOP
		}
		if link.abs {
			comps = nil
		}
		pending = append(link.comps, pending...)
	}
	if len(comps) == 0 {
		return ".", 0
	}
	return filepath.Join(comps...), 0
}

// symlink is a link's target: components to resolve next, from the root when abs.
type symlink struct {
	comps []string
	abs   bool
}

// lookup examines the resolved components cand: nil when it is a directory (or a missing
// last component), its target when it is a symlink. A target outside the working
// directory is EACCES.
func (s *sandbox) lookup(cand []string, last bool) (*symlink, abi.Errno) {
	host := filepath.Join(s.dir, filepath.Join(cand...))
	fi, err := os.Lstat(host)
	switch {
	case err != nil && last:
		return nil, 0
	case err != nil:
		return nil, hostErrno(err)
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(host)
		if err != nil {
			return nil, hostErrno(err)
		}
		if !filepath.IsAbs(target) {
			return &symlink{comps: splitPath(target)}, 0
		}
		rel, ok := s.inside(target)
		if !ok {
			return nil, abi.EACCES
		}
		return &symlink{comps: splitPath(rel), abs: true}, 0
	case !last && !fi.IsDir():
		return nil, abi.ENOTDIR
	}
	return nil, 0
}

// hostErrno maps a host error to the errno the program sees. Errors that carry no errno
// come from os.Root refusing a path that escapes the working directory: EACCES.
func hostErrno(err error) abi.Errno {
	var en syscall.Errno
	if errors.As(err, &en) {
		return abi.Errno(en)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return abi.ENOENT
	}
	if errors.Is(err, fs.ErrExist) {
		return abi.EEXIST
	}
	return abi.EACCES
}
