package runtime

import (
	"encoding/gob"
	"errors"
	"net"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/ppc"
)

// The attach protocol. A tool dials the job's address and proves it knows the job's
// secret (netreduce.Challenge, as a tree node proves it to its parent); the job answers
// one byte (attachAccepted or attachRefused) and, accepted, a jobHello at the window
// boundary it chose. From then on the tool sends requests and the job answers each with
// one reply, gob-encoded: the job stands still between requests, and runs only inside a
// run request, for the virtual time the tool asked.
const (
	attachAccepted byte = 1
	attachRefused  byte = 0
)

// attachID is the id a tool claims in the handshake (a tree node claims its rank).
const attachID = -1

// jobHello is what a job publishes to a tool that attached: its MPIR proctable and how
// it was launched, and the virtual time the tool attached at.
type jobHello struct {
	Exe          string // absolute path: the tool reads the program's symbols from it
	Args, Env    []string
	Nodes, PerIO int
	Partition    int
	Place        []int
	Now          uint64
	Proctable    []bgl.ProcEntry
}

// Request operations.
const (
	opRun           = "run"
	opDetach        = "detach"
	opStop          = "stop"
	opContinue      = "continue"
	opStatus        = "status"
	opReadMem       = "read"
	opWriteMem      = "write"
	opRegs          = "regs"
	opSetRegs       = "setregs"
	opSetBreak      = "break"
	opClearBreak    = "unbreak"
	opMark          = "mark"
	opUnmark        = "unmark"
	opReached       = "reached"
	opBacktrace     = "backtrace"
	opRedirectFault = "redirectfault"
	opClearFault    = "clearfault"
	opWatch         = "watch"
	opUnwatch       = "unwatch"
	opSetSampling   = "sampling"
	opTakeSamples   = "samples"
)

type request struct {
	Op         string
	IO, Rank   int
	Addr, Size uint32
	Data       []byte
	Regs       bgl.Regs
	Watch      bgl.Watch
	Limit      uint64 // run: virtual ns
	Period     uint64 // sampling: cycles (0 stops)
	Depth      int
	Ranks      []int // sampling: the ranks sampled
}

type reply struct {
	Err     *wireError
	Now     uint64
	Reason  bgl.StopReason
	Data    []byte
	Regs    bgl.Regs
	Status  bgl.NodeStatus
	Frames  []ppc.Frame
	Samples []bgl.Sample
	Reached bool       // reached: whether the entry mark was reached
	Calls   []slotCall // what the machine handed the tool during a run, in order
}

// slotCall is one call the machine made to the tool while it ran: an event (for the
// front-end's listeners and then the daemon of the rank's I/O node) or a packet for a
// daemon, in the order the machine made them.
type slotCall struct {
	IO     int
	Packet *bgl.Packet
	Event  *bgl.Event
}

// wireError carries an error across: a debug interface's typed error stays one.
type wireError struct {
	Debug *bgl.DebugError
	Text  string
}

func toWire(err error) *wireError {
	if err == nil {
		return nil
	}
	var de *bgl.DebugError
	if errors.As(err, &de) {
		return &wireError{Debug: de}
	}
	return &wireError{Text: err.Error()}
}

func (w *wireError) err() error {
	switch {
	case w == nil:
		return nil
	case w.Debug != nil:
		return w.Debug
	}
	return errors.New(w.Text)
}

// wire is one end of an attach connection.
type wire struct {
	c   net.Conn
	enc *gob.Encoder
	dec *gob.Decoder
}

func newWire(c net.Conn) *wire { return &wire{c: c, enc: gob.NewEncoder(c), dec: gob.NewDecoder(c)} }
