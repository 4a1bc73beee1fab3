package netreduce

import (
	"bufio"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Frames on a TCP link: a 4-byte big-endian length, a type byte, the payload.
const (
	frameBatch    = 1 // AppendBatch payload
	frameRegister = 2 // comm -> front-end: rank, listen address
	frameConfig   = 3 // front-end -> comm: topology text, parent address ("" = this link)
	frameReady    = 4 // comm -> front-end: every child link of this comm is up
	frameHello    = 5 // comm -> parent comm: "I am your child rank"
	frameBeat     = 6 // either way: "still here", sent on an idle link
)

// maxFrame bounds one frame; a bigger length is a protocol error, not an allocation.
const maxFrame = 256 << 20

// handshakeTimeout bounds the authentication exchange on a new connection.
const handshakeTimeout = 10 * time.Second

// Liveness. A link whose peer is frozen (SIGSTOP), gone without a FIN, or stalled in the
// middle of a frame would otherwise block its reader forever, and with it every wave and
// barrier of the tree. So an idle link carries a heartbeat every beatEvery, and a read
// or write that makes no progress for the link's liveness timeout breaks the link: the
// peer is then handled as a dead node, as if it had been killed. Until the first frame
// arrives on a link the peer may still be waiting for its own children, so the start-up
// bound applies instead.
const (
	DefaultLiveness  = 10 * time.Second
	defaultStartup   = 30 * time.Second
	beatEvery        = 250 * time.Millisecond
	maxAcceptBackoff = time.Second
)

const nonceLen = 32

// ErrAuth is returned when a peer does not prove it knows the shared secret.
var ErrAuth = errorf("tcp: peer failed authentication")

func writeFrame(w *bufio.Writer, typ byte, payload []byte) error {
	var hdr [5]byte
	binary.BigEndian.PutUint32(hdr[:4], uint32(len(payload)+1))
	hdr[4] = typ
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	_, err := w.Write(payload)
	return err
}

func readFrame(r *bufio.Reader) (byte, []byte, error) {
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:4])
	if n < 1 || n > maxFrame {
		return 0, nil, errorf("tcp: frame of %d bytes", n)
	}
	buf := make([]byte, n-1)
	if _, err := io.ReadFull(r, buf); err != nil {
		return 0, nil, err
	}
	return hdr[4], buf, nil
}

func mac(secret, nonce []byte, rank int32) []byte {
	h := hmac.New(sha256.New, secret)
	h.Write(nonce)
	var rb [4]byte
	binary.BigEndian.PutUint32(rb[:], uint32(rank))
	h.Write(rb[:])
	return h.Sum(nil)
}

// challenge authenticates the dialer of c: it must answer a fresh nonce with the HMAC of
// the shared secret. It returns the rank the dialer claims.
func challenge(c net.Conn, secret []byte) (int32, error) {
	c.SetDeadline(time.Now().Add(handshakeTimeout))
	defer c.SetDeadline(time.Time{})
	nonce := make([]byte, nonceLen)
	if _, err := rand.Read(nonce); err != nil {
		return 0, err
	}
	if _, err := c.Write(nonce); err != nil {
		return 0, err
	}
	var resp [4 + sha256.Size]byte
	if _, err := io.ReadFull(c, resp[:]); err != nil {
		return 0, fmt.Errorf("%w: %v", ErrAuth, err)
	}
	rank := int32(binary.BigEndian.Uint32(resp[:4]))
	if !hmac.Equal(resp[4:], mac(secret, nonce, rank)) {
		return 0, ErrAuth
	}
	return rank, nil
}

// answer is the dialer's side of challenge.
func answer(c net.Conn, secret []byte, rank int32) error {
	c.SetDeadline(time.Now().Add(handshakeTimeout))
	defer c.SetDeadline(time.Time{})
	nonce := make([]byte, nonceLen)
	if _, err := io.ReadFull(c, nonce); err != nil {
		return errorf("tcp: handshake: %w", err)
	}
	var resp [4]byte
	binary.BigEndian.PutUint32(resp[:], uint32(rank))
	_, err := c.Write(append(resp[:], mac(secret, nonce, rank)...))
	return err
}

// link is one authenticated connection with a writer goroutine fed by a bounded queue.
type link struct {
	c    net.Conn
	r    *bufio.Reader
	w    *bufio.Writer
	out  chan []Msg
	done chan struct{}
	once sync.Once

	liveness, startup time.Duration // read/write progress bounds (see DefaultLiveness)
	seen              atomic.Bool   // a frame has arrived: liveness applies to reads
}

func newLink(c net.Conn) *link {
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetNoDelay(true)
	}
	l := &link{c: c, out: make(chan []Msg, 16), done: make(chan struct{}),
		liveness: DefaultLiveness, startup: defaultStartup}
	dc := deadlineConn{c, l}
	l.r, l.w = bufio.NewReaderSize(dc, 64<<10), bufio.NewWriterSize(dc, 64<<10)
	return l
}

// deadlineConn gives every read and write of a link a fresh deadline, so a peer that
// stops making progress, even in the middle of a frame, fails the call instead of
// blocking it forever; a slow peer that keeps moving is not cut off.
type deadlineConn struct {
	net.Conn
	l *link
}

func (d deadlineConn) Read(p []byte) (int, error) {
	t := d.l.startup
	if d.l.seen.Load() {
		t = d.l.liveness
	}
	if t > 0 {
		d.Conn.SetReadDeadline(time.Now().Add(t))
	}
	return d.Conn.Read(p)
}

func (d deadlineConn) Write(p []byte) (int, error) {
	if t := d.l.liveness; t > 0 {
		d.Conn.SetWriteDeadline(time.Now().Add(t))
	}
	return d.Conn.Write(p)
}

// read returns the next frame that is not a heartbeat.
func (l *link) read() (byte, []byte, error) {
	for {
		typ, payload, err := readFrame(l.r)
		if err != nil {
			return 0, nil, err
		}
		l.seen.Store(true)
		if typ != frameBeat {
			return typ, payload, nil
		}
	}
}

// writeLoop encodes queued batches, flushing whenever the queue runs dry so that batches
// that pile up while the socket is busy go out together; an idle link gets a heartbeat.
func (l *link) writeLoop() {
	var buf []byte
	beat := time.NewTicker(beatEvery)
	defer beat.Stop()
	idle := true
	for {
		var err error
		select {
		case b := <-l.out:
			if buf, err = AppendBatch(buf[:0], b); err == nil {
				err = writeFrame(l.w, frameBatch, buf)
			}
			if err == nil && len(l.out) == 0 {
				err = l.w.Flush()
			}
			idle = false
		case <-beat.C:
			if idle {
				if err = writeFrame(l.w, frameBeat, nil); err == nil {
					err = l.w.Flush()
				}
			}
			idle = true
		case <-l.done:
			l.c.Close()
			return
		}
		if err != nil {
			l.broken()
			return
		}
	}
}

// acceptRetry accepts the next connection. Running out of descriptors (EMFILE, ENFILE)
// or buffers is passing: it backs off and tries again rather than giving up the listener
// for good; only a closed listener ends it.
func acceptRetry(ln net.Listener) (net.Conn, error) {
	delay := 5 * time.Millisecond
	for {
		c, err := ln.Accept()
		if err == nil || errors.Is(err, net.ErrClosed) || !passing(err) {
			return c, err
		}
		time.Sleep(delay)
		delay = min(2*delay, maxAcceptBackoff)
	}
}

func passing(err error) bool {
	for _, e := range []syscall.Errno{syscall.EMFILE, syscall.ENFILE, syscall.ENOBUFS, syscall.ENOMEM,
		syscall.ECONNABORTED, syscall.EINTR} {
		if errors.Is(err, e) {
			return true
		}
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// broken closes a link whose peer is gone and discards what is still sent to it, so that
// no node ever blocks on a dead link; the link's reader reports the loss.
func (l *link) broken() {
	l.c.Close()
	for {
		select {
		case <-l.out:
		case <-l.done:
			return
		}
	}
}

// sendRaw writes one control frame synchronously (before writeLoop starts).
func (l *link) sendRaw(typ byte, payload []byte) error {
	if err := writeFrame(l.w, typ, payload); err != nil {
		return err
	}
	return l.w.Flush()
}

func (l *link) close() {
	l.once.Do(func() { close(l.done) })
	l.c.Close()
}

// registerPayload and configPayload are tiny text records: fields separated by '\n'.
func joinFields(f ...string) []byte { return []byte(strings.Join(f, "\n")) }

func splitFields(b []byte, n int) ([]string, error) {
	f := strings.SplitN(string(b), "\n", n)
	if len(f) != n {
		return nil, errorf("tcp: control frame has %d fields, want %d", len(f), n)
	}
	return f, nil
}
