package fileout

import (
	"bufio"
	"crypto/rand"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Modes for new files.
const (
	Public  fs.FileMode = 0o644 // traces, tables, plots: files a user reads later
	Private fs.FileMode = 0o600 // the shell history, as a shell keeps its own
)

// Error is a failed write: the name the caller gave and why.
type Error struct {
	Path string
	Err  error
}

func (e *Error) Error() string {
	if e.Path == "" {
		return `cannot write "": ` + reason(e.Err)
	}
	return "cannot write " + e.Path + ": " + reason(e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// reason is the cause without the operation and path the os package puts in front of
// it: the Error already names the file the user gave, which may not be the one that
// failed (a temporary file, or the file a link points to).
func reason(err error) string {
	for {
		switch e := err.(type) {
		case *fs.PathError:
			err = e.Err
		case *os.LinkError:
			err = e.Err
		case *os.SyscallError:
			err = e.Err
		default:
			return err.Error()
		}
	}
}

// Write replaces the file at path with data; perm is the mode of a new file.
func Write(path string, data []byte, perm fs.FileMode) error {
	return WriteFunc(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc replaces the file at path with what fill writes (buffered); perm is the mode
// of a new file. An error of fill abandons the write, as a failed write does: the old
// file stays whole.
func WriteFunc(path string, perm fs.FileMode, fill func(io.Writer) error) error {
	t, err := resolve(path)
	if err == nil {
		switch {
		case t.fd >= 0:
			err = writeDescriptor(t, fill)
		case t.inPlace:
			err = writeInPlace(t.name, fill)
		default:
			err = replace(t, perm, fill)
		}
	}
	if err != nil {
		return &Error{Path: path, Err: err}
	}
	return nil
}

// Check reports whether path can be written, before the work that produces its content.
// It leaves the target as it was and no file behind.
func Check(path string) error {
	t, err := resolve(path)
	if err == nil {
		switch {
		case t.fd >= 0:
			var st syscall.Stat_t
			err = syscall.Fstat(t.fd, &st)
		case t.inPlace:
			// Not opened: opening a FIFO for writing waits for a reader.
			err = syscall.Access(t.name, accessWrite)
		default:
			var f *os.File
			if f, err = createTemp(t.name, Private); err == nil {
				err = first(f.Close(), os.Remove(f.Name()))
			}
		}
	}
	if err != nil {
		return &Error{Path: path, Err: err}
	}
	return nil
}

// accessWrite is access(2)'s W_OK.
const accessWrite = 0x2

// target is what a path names once resolved.
type target struct {
	name    string      // the file to write: symbolic links followed
	fd      int         // the open descriptor the name stands for (/dev/stdout), or -1
	inPlace bool        // it exists and is not a regular file
	exists  bool        // a regular file to replace
	mode    fs.FileMode // the replaced file's mode
}

func resolve(path string) (target, error) {
	t := target{name: path, fd: -1}
	if path == "" {
		return t, errors.New("no file name")
	}
	if fd, ok := descriptorName(path); ok {
		t.fd = fd
		return t, nil
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if li, lerr := os.Lstat(path); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
			return t, errors.New("a symbolic link to a file that does not exist")
		}
		return t, nil
	case err != nil:
		return t, err
	case fi.IsDir():
		return t, syscall.EISDIR
	case !fi.Mode().IsRegular():
		t.inPlace = true
		return t, nil
	}
	if t.name, err = filepath.EvalSymlinks(path); err != nil {
		return t, err
	}
	// The rename would replace a file its owner made read-only: refuse, as > would.
	if err := syscall.Access(t.name, accessWrite); err != nil {
		return t, err
	}
	t.exists, t.mode = true, fi.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)
	return t, nil
}

// descriptorName recognises the names of descriptors the process has open.
func descriptorName(path string) (int, bool) {
	switch path = filepath.Clean(path); path {
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	for _, dir := range []string{"/dev/fd/", "/proc/self/fd/"} {
		if rest, ok := strings.CutPrefix(path, dir); ok {
			n, err := strconv.Atoi(rest)
			return n, err == nil && n >= 0
		}
	}
	return -1, false
}

// replace writes a temporary file beside t and renames it over t.
func replace(t target, perm fs.FileMode, fill func(io.Writer) error) (err error) {
	f, err := createTemp(t.name, perm)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if t.exists {
		// Chmod, unlike open, ignores the umask: the file keeps exactly its mode.
		if err := f.Chmod(t.mode); err != nil {
			return err
		}
	}
	if err := fillBuffered(f, fill); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), t.name)
}

// createTemp creates a new file beside name, with perm less the umask.
func createTemp(name string, perm fs.FileMode) (*os.File, error) {
	dir, base := filepath.Split(name)
	if len(base) > 180 { // room for the prefix and suffix within NAME_MAX (255)
		base = base[:180]
	}
	for {
		tmp := filepath.Join(dir, "."+base+"."+strconv.Itoa(os.Getpid())+"-"+rand.Text()[:8]+".tmp")
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
}

// writeInPlace writes a device or FIFO through its own name.
func writeInPlace(name string, fill func(io.Writer) error) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	return first(fillBuffered(f, fill), f.Close())
}

// writeDescriptor writes to a duplicate of an open descriptor; the original stays open.
func writeDescriptor(t target, fill func(io.Writer) error) error {
	fd, err := syscall.Dup(t.fd)
	if err != nil {
		return err
	}
	syscall.CloseOnExec(fd)
	f := os.NewFile(uintptr(fd), t.name)
	return first(fillBuffered(f, fill), f.Close())
}

// first is the error that came first: the one a user needs to see.
func first(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func fillBuffered(f *os.File, fill func(io.Writer) error) error {
	w := bufio.NewWriterSize(f, 64<<10)
	if err := fill(w); err != nil {
		return err
	}
	return w.Flush()
}
