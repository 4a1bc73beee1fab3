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
	"time"
)

// Frames on a TCP link: a 4-byte big-endian length, a type byte, the payload.
const (
	frameBatch    = 1 // AppendBatch payload
	frameRegister = 2 // comm -> front-end: rank, listen address
	frameConfig   = 3 // front-end -> comm: topology text, parent address ("" = this link)
	frameReady    = 4 // comm -> front-end: every child link of this comm is up
	frameHello    = 5 // comm -> parent comm: "I am your child rank"
)

// maxFrame bounds one frame; a bigger length is a protocol error, not an allocation.
const maxFrame = 256 << 20

// handshakeTimeout bounds the authentication exchange on a new connection.
const handshakeTimeout = 10 * time.Second

const nonceLen = 32

// ErrAuth is returned when a peer does not prove it knows the shared secret.
var ErrAuth = errors.New("netreduce: tcp: peer failed authentication")

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
		return 0, nil, fmt.Errorf("netreduce: tcp: frame of %d bytes", n)
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
		return fmt.Errorf("netreduce: tcp: handshake: %w", err)
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
}

func newLink(c net.Conn) *link {
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetNoDelay(true)
	}
	return &link{c: c, r: bufio.NewReaderSize(c, 64<<10), w: bufio.NewWriterSize(c, 64<<10),
		out: make(chan []Msg, 16), done: make(chan struct{})}
}

// writeLoop encodes queued batches, flushing whenever the queue runs dry so that batches
// that pile up while the socket is busy go out together.
func (l *link) writeLoop() {
	var buf []byte
	for {
		select {
		case b := <-l.out:
			var err error
			if buf, err = AppendBatch(buf[:0], b); err == nil {
				err = writeFrame(l.w, frameBatch, buf)
			}
			if err == nil && len(l.out) == 0 {
				err = l.w.Flush()
			}
			if err != nil {
				l.broken()
				return
			}
		case <-l.done:
			l.c.Close()
			return
		}
	}
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
		return nil, fmt.Errorf("netreduce: tcp: control frame has %d fields, want %d", len(f), n)
	}
	return f, nil
}
