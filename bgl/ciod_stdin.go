package bgl

import (
	"errors"
	"io"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// stdinPump reads the job's stdin on its own goroutine, so a rank reading fd 0 waits for
// the host's input without making the scheduler's goroutine uninterruptible: the wait
// also ends when the job is paused (Ctrl-C, SIGTERM, a guard), and the read then fails
// with EINTR. The machine does not advance while rank 0 waits for input, so what the
// program sees depends only on the bytes, never on when the host delivered them.
type stdinPump struct {
	r       io.Reader
	started bool
	chunks  chan stdinChunk
	intr    <-chan struct{}
	left    []byte // received but not yet read by the program
	err     error  // the reader's end (io.EOF or a host error), once reached
}

type stdinChunk struct {
	b   []byte
	err error
}

func newStdinPump(r io.Reader, intr <-chan struct{}) *stdinPump {
	if r == nil {
		return nil
	}
	return &stdinPump{r: r, chunks: make(chan stdinChunk, 4), intr: intr}
}

func (p *stdinPump) run() {
	for {
		buf := make([]byte, 64<<10)
		n, err := p.r.Read(buf)
		if n > 0 || err != nil {
			p.chunks <- stdinChunk{buf[:n], err}
		}
		if err != nil {
			close(p.chunks)
			return
		}
	}
}

// read fills buf with what the job's stdin has: 0 bytes at its end, EINTR when the job
// is interrupted while waiting.
func (p *stdinPump) read(buf []byte) (int, abi.Errno) {
	if !p.started {
		p.started = true
		go p.run()
	}
	for len(p.left) == 0 && p.err == nil {
		select {
		case c, ok := <-p.chunks:
			if !ok {
				p.err = io.EOF
				break
			}
			p.left, p.err = c.b, c.err
		case <-p.intr:
			return 0, abi.EINTR
		}
	}
	if len(p.left) > 0 {
		n := copy(buf, p.left)
		p.left = p.left[n:]
		return n, 0
	}
	if errors.Is(p.err, io.EOF) {
		return 0, 0
	}
	return 0, hostErrno(p.err)
}
