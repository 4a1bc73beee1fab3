package netreduce

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"sort"
	"strings"
	"time"
)

// BackendOptions configure one back-end process of the TCP transport: MRNet's
// CreateNetworkBE, a tool back-end that joins a running tree.
type BackendOptions struct {
	Parent  string // the parent's address: the front-end's or a comm process's
	Rank    int
	Secret  []byte
	Handler BackendHandler // what the back-end does with each packet (BackendBehaviours)
	Errors  io.Writer      // where a handler's errors are reported (default os.Stderr)
	// Liveness bounds how long the link may make no progress (default DefaultLiveness).
	Liveness time.Duration
}

// BackendBehaviours are the handlers a back-end process can run by name (`dpclsh comm
// --backend ADDR --rank R --behaviour NAME`): code cannot travel to another process, so
// a back-end process runs one of these.
var BackendBehaviours = map[string]BackendHandler{
	// burst: MRNet's micro-benchmark back-end: a request {n} is answered with n packets
	// {1}, so one request feeds n reduction waves.
	"burst": func(_ int, p *Packet) ([]*Packet, error) {
		if len(p.Values) == 0 {
			return nil, fmt.Errorf("burst: want a request {n}, got an empty packet")
		}
		n, ok := p.Values[0].(int64)
		if !ok || n < 0 {
			return nil, fmt.Errorf("burst: want a request {n} with n >= 0, got %v", p.Values[0])
		}
		out := make([]*Packet, n)
		for i := range out {
			out[i] = &Packet{Values: []any{int64(1)}}
		}
		return out, nil
	},
	// rank: every packet is answered with {rank}.
	"rank": func(rank int, _ *Packet) ([]*Packet, error) {
		return []*Packet{{Values: []any{int64(rank)}}}, nil
	},
	// pid: every packet is answered with {the process id}: which process a back-end is.
	"pid": func(int, *Packet) ([]*Packet, error) {
		return []*Packet{{Values: []any{int64(os.Getpid())}}}, nil
	},
}

// BackendBehaviourNames lists BackendBehaviours, sorted.
func BackendBehaviourNames() string {
	names := make([]string, 0, len(BackendBehaviours))
	for n := range BackendBehaviours {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// RunBackend runs one back-end process until its parent goes away or ctx ends: it
// dials its parent, answers the parent's challenge with the shared secret, and then
// answers the packets the parent sends it with its handler, pings with pongs. It is
// what `dpclsh comm --backend` does.
func RunBackend(ctx context.Context, opt BackendOptions) error {
	if opt.Handler == nil {
		return errorf("backend %d: no handler", opt.Rank)
	}
	errs := opt.Errors
	if errs == nil {
		errs = os.Stderr
	}
	conn, err := net.Dial("tcp", opt.Parent)
	if err != nil {
		return errorf("backend %d: dial %s: %w", opt.Rank, opt.Parent, err)
	}
	if err := answer(conn, opt.Secret, int32(opt.Rank)); err != nil {
		conn.Close()
		return errorf("backend %d: %w", opt.Rank, err)
	}
	l := newLink(conn)
	if opt.Liveness > 0 {
		l.liveness = opt.Liveness
	}
	defer l.close()
	go l.writeLoop()
	stop := context.AfterFunc(ctx, l.close)
	defer stop()
	host := &backendHost{handler: opt.Handler, errs: func(rank int, err error) {
		fmt.Fprintf(errs, "netreduce: backend %d: %v\n", rank, err)
	}}
	for {
		typ, payload, err := l.read()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return nil // the parent is gone: the tree is closed
		}
		if typ != frameBatch {
			return errorf("backend %d: unexpected frame %d from the parent", opt.Rank, typ)
		}
		batch, err := DecodeBatch(payload)
		if err != nil {
			return errorf("backend %d: %w", opt.Rank, err)
		}
		var replies []Msg
		for _, m := range batch {
			if int(m.To) != opt.Rank {
				continue
			}
			switch m.Kind {
			case MsgPing:
				replies = append(replies, Msg{Kind: MsgPong, From: m.To, To: m.From, Seq: m.Seq})
			case MsgData:
				if m.Packet != nil {
					host.data(opt.Rank, m.From, m, func(r Msg) { replies = append(replies, r) })
				}
			}
		}
		if len(replies) == 0 {
			continue
		}
		select {
		case l.out <- replies:
		case <-l.done:
			return nil
		}
	}
}
