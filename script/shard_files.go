package script

import (
	"errors"
	"io"
	"io/fs"

	"github.com/dpclsh/dpclsh/bgl/shard"
	"github.com/dpclsh/dpclsh/script/fileout"
)

// WriteFile is fileout.WriteFunc for the files a session writes (reports, traces, CSV
// tables, plots). In a sharded run only process 0 writes: the others run fill into
// io.Discard, so they count the bytes process 0 writes, and take process 0's outcome,
// so every process raises the same error or none, a file is written once whatever the
// file system (shared or each host's own), and /dev/stdout gets the bytes once.
func WriteFile(s *Session, path string, perm fs.FileMode, fill func(io.Writer) error) error {
	ex := ShardOf(s)
	if ex == nil {
		return fileout.WriteFunc(path, perm, fill)
	}
	if ex.Rank() == 0 {
		return processZeroOutcome(ex, fileout.WriteFunc(path, perm, fill))
	}
	fill(io.Discard) // its bytes are process 0's; its outcome is too
	return processZeroOutcome(ex, nil)
}

// CheckWrite is fileout.Check asked of the file process 0 will write.
func CheckWrite(s *Session, path string) error {
	ex := ShardOf(s)
	if ex == nil {
		return fileout.Check(path)
	}
	var err error
	if ex.Rank() == 0 {
		err = fileout.Check(path)
	}
	return processZeroOutcome(ex, err)
}

// processZeroOutcome gives every process of ex's run process 0's err (nil, or its
// message); process 0 keeps its own. One exchange, which every process makes at the
// same point of the same session.
func processZeroOutcome(ex shard.Exchanger, err error) error {
	out := make([][]byte, ex.Size())
	if ex.Rank() == 0 {
		rec := []byte{0}
		if err != nil {
			rec = append([]byte{1}, err.Error()...)
		}
		for p := range out {
			out[p] = rec
		}
	}
	in, xerr := ex.Exchange(out)
	switch {
	case xerr != nil:
		return errors.Join(err, xerr)
	case ex.Rank() == 0:
		return err
	case len(in[0]) > 0 && in[0][0] == 1:
		return errors.New(string(in[0][1:]))
	}
	return nil
}
