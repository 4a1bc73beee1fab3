package bgl

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
)

// frontEnd is the job's console on the front-end node: it receives the ranks' stdout and
// stderr writes in the order the I/O nodes serve them and writes them to the user's
// streams, optionally labelled per line like `srun --label` ("  7: text").
type frontEnd struct {
	out     [2]*bufio.Writer // stdout, stderr
	label   bool
	width   int
	partial map[int][]byte // rank*2+stream-1 -> unfinished line (label mode)
	capture [][2]bytes.Buffer
	trace   func(rank, stream int, t uint64) // observes the delivery order (tests)
}

func newFrontEnd(cfg JobConfig, ranks int) *frontEnd {
	fe := &frontEnd{label: cfg.Label, width: len(fmt.Sprint(ranks - 1)), partial: map[int][]byte{}}
	fe.out[0] = bufio.NewWriterSize(cfg.Stdout, 64<<10)
	fe.out[1] = bufio.NewWriterSize(cfg.Stderr, 64<<10)
	if cfg.Capture {
		fe.capture = make([][2]bytes.Buffer, ranks)
	}
	return fe
}

// Write implements Console.
func (fe *frontEnd) Write(rank, stream int, t uint64, b []byte) {
	if stream != 1 && stream != 2 {
		return
	}
	if fe.capture != nil {
		fe.capture[rank][stream-1].Write(b)
	}
	if fe.trace != nil {
		fe.trace(rank, stream, t)
	}
	w := fe.out[stream-1]
	if !fe.label {
		w.Write(b)
		return
	}
	key := rank*2 + stream - 1
	buf := append(fe.partial[key], b...)
	for {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			break
		}
		fe.writeLabelled(w, rank, buf[:i+1])
		buf = buf[i+1:]
	}
	if len(buf) == 0 {
		delete(fe.partial, key)
	} else {
		fe.partial[key] = append([]byte(nil), buf...)
	}
}

func (fe *frontEnd) writeLabelled(w io.Writer, rank int, line []byte) {
	fmt.Fprintf(w, "%*d: ", fe.width, rank)
	w.Write(line)
}

// rankDone writes what is left of a rank's unfinished lines when it ends.
func (fe *frontEnd) rankDone(rank int) {
	for s := 0; s < 2; s++ {
		if buf, ok := fe.partial[rank*2+s]; ok {
			fe.writeLabelled(fe.out[s], rank, append(buf, '\n'))
			delete(fe.partial, rank*2+s)
		}
	}
}

// flush pushes buffered output to the user's streams.
func (fe *frontEnd) flush() {
	fe.out[0].Flush()
	fe.out[1].Flush()
}

func (fe *frontEnd) flushAll() {
	for _, r := range fe.rankKeys() {
		fe.rankDone(r)
	}
	fe.flush()
}

// rankKeys lists ranks with unfinished lines, ascending.
func (fe *frontEnd) rankKeys() []int {
	var out []int
	for k := range fe.partial {
		if k%2 == 0 || fe.partial[k-1] == nil {
			out = append(out, k/2)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (fe *frontEnd) captured(rank int) (stdout, stderr []byte) {
	if fe.capture == nil || rank < 0 || rank >= len(fe.capture) {
		return nil, nil
	}
	return fe.capture[rank][0].Bytes(), fe.capture[rank][1].Bytes()
}

// notice writes a front-end message (not a rank's output) to stdout (0) or stderr (1).
func (fe *frontEnd) notice(stream int, line string) {
	fe.out[stream].WriteString(line)
}
