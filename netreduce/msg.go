package netreduce

import "fmt"

// MsgKind says what a message between tree nodes is.
type MsgKind uint8

// The messages of the tree protocol. Downstream: Open, Close, Data (from the parent), Ping.
// Upstream: Data (from a child), Lost, Fault, Pong. Died is injected by a node's driver
// when it sees a child go away.
const (
	MsgData  MsgKind = iota + 1 // Packet
	MsgOpen                     // Spec: a new stream
	MsgClose                    // Stream: the stream is gone
	MsgDied                     // From: a child that is gone
	MsgLost                     // Ranks: [lo, hi) pairs of back-ends lost
	MsgFault                    // Stream, Origin, Text: a filter failed; the stream is failed
	MsgPing                     // Seq, Time: barrier and virtual-clock advance
	MsgPong                     // Seq: the subtree has processed everything before the ping
	msgKinds
)

var msgNames = [...]string{"?", "data", "open", "close", "died", "lost", "fault", "ping", "pong"}

func (k MsgKind) String() string {
	if int(k) < len(msgNames) {
		return msgNames[k]
	}
	return fmt.Sprintf("kind%d", uint8(k))
}

// Msg is one protocol message. From and To are ranks; -1 is the application above the
// front-end.
type Msg struct {
	Kind   MsgKind
	From   int32
	To     int32
	Stream uint32
	Origin int32 // MsgFault: the rank whose filter failed
	Seq    uint64
	Time   int64 // MsgPing: the virtual time to advance to (ns)
	Packet *Packet
	Spec   *StreamSpec
	Ranks  []int32
	Text   string
	Body   any // MsgUser: the driver's user's payload (never encoded)
}

// SyncMode is a stream's synchronization filter.
type SyncMode uint8

// Synchronization modes, as MRNet's.
const (
	WaitForAll SyncMode = iota // one packet per live child
	Timeout                    // all live children, or Timeout virtual ns after the wave's first packet
	DontWait                   // every packet on its own
)

var syncNames = map[string]SyncMode{"waitforall": WaitForAll, "timeout": Timeout, "dontwait": DontWait}

// ParseSync reads "waitforall", "timeout" or "dontwait".
func ParseSync(s string) (SyncMode, error) {
	m, ok := syncNames[s]
	if !ok {
		return 0, errorf("unknown sync mode %q (want waitforall, timeout or dontwait)", s)
	}
	return m, nil
}

func (m SyncMode) String() string {
	for k, v := range syncNames {
		if v == m {
			return k
		}
	}
	return fmt.Sprintf("sync%d", uint8(m))
}

// StreamSpec is everything a node needs to take part in a stream.
type StreamSpec struct {
	ID       uint32
	Backends *RankSet // the stream's back-ends; nil means all
	Up       *FilterSpec
	Down     *FilterSpec
	Sync     SyncMode
	Timeout  int64 // virtual ns, with Timeout
}

func (s *StreamSpec) anyIn(lo, hi int) bool {
	return s.Backends == nil || s.Backends.AnyIn(lo, hi)
}
