package netreduce

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"
)

// CommOptions configure one internal-node process of the TCP transport.
type CommOptions struct {
	FrontEnd string // the front-end's address
	Rank     int
	Secret   []byte
	Listen   string // where children connect (default "127.0.0.1:0")
	// Liveness bounds how long a link may make no progress (default DefaultLiveness).
	Liveness time.Duration
}

// comm is the process-level driver of one internal node.
type comm struct {
	opt      CommOptions
	topo     *Topology
	fe       *link // to the front-end: back-end traffic (and parent traffic when it is the parent)
	parent   *link
	kids     map[int]*link
	remote   bool // the back-ends are processes that connect to their parents
	up, down chan []Msg
	done     chan struct{}
	once     sync.Once
}

// RunComm runs one internal node until its parent goes away or ctx ends. It is what
// `dpclsh comm` does.
func RunComm(ctx context.Context, opt CommOptions) error {
	listen := opt.Listen
	if listen == "" {
		listen = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return errorf("comm %d: listen: %w", opt.Rank, err)
	}
	defer ln.Close()
	c := &comm{opt: opt, kids: map[int]*link{}, up: make(chan []Msg, 16), down: make(chan []Msg, 16),
		done: make(chan struct{})}
	parentAddr, err := c.register(ln.Addr().String())
	if err != nil {
		return err
	}
	defer c.stop()
	if err := c.connectParent(parentAddr); err != nil {
		return err
	}
	if err := c.acceptKids(ctx, ln); err != nil {
		return err
	}
	if err := c.fe.sendRaw(frameReady, nil); err != nil {
		return errorf("comm %d: ready: %w", opt.Rank, err)
	}
	return c.serve(ctx)
}

func (c *comm) stop() {
	c.once.Do(func() { close(c.done) })
	c.fe.close()
	if c.parent != nil {
		c.parent.close()
	}
	for _, k := range c.kids {
		k.close()
	}
}

func (c *comm) dial(addr string) (*link, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, errorf("comm %d: dial %s: %w", c.opt.Rank, addr, err)
	}
	if err := answer(conn, c.opt.Secret, int32(c.opt.Rank)); err != nil {
		conn.Close()
		return nil, err
	}
	return c.timed(newLink(conn)), nil
}

func (c *comm) timed(l *link) *link {
	if c.opt.Liveness > 0 {
		l.liveness = c.opt.Liveness
	}
	return l
}

// register introduces this process to the front-end and receives the topology.
func (c *comm) register(listenAddr string) (string, error) {
	l, err := c.dial(c.opt.FrontEnd)
	if err != nil {
		return "", err
	}
	c.fe = l
	if err := l.sendRaw(frameRegister, []byte(listenAddr)); err != nil {
		return "", errorf("comm %d: register: %w", c.opt.Rank, err)
	}
	typ, payload, err := l.read()
	if err != nil || typ != frameConfig {
		return "", errorf("comm %d: no configuration from the front-end (authentication refused?): %v", c.opt.Rank, err)
	}
	f, err := splitFields(payload, 3)
	if err != nil {
		return "", err
	}
	c.remote = f[1] != ""
	if c.topo, err = ParseTopologyString("front-end", f[2]); err != nil {
		return "", err
	}
	if c.opt.Rank < c.topo.Backends() || c.opt.Rank >= c.topo.Root() {
		return "", errorf("comm %d: not an internal node of the topology", c.opt.Rank)
	}
	return f[0], nil
}

func (c *comm) connectParent(addr string) error {
	if addr == "" {
		c.parent = c.fe
		return nil
	}
	l, err := c.dial(addr)
	if err != nil {
		return err
	}
	c.parent = l
	return nil
}

// acceptKids waits until every internal child (and every back-end child, when they are
// processes) has connected and authenticated.
func (c *comm) acceptKids(ctx context.Context, ln net.Listener) error {
	want := map[int]bool{}
	for _, k := range c.topo.Children(c.opt.Rank) {
		if c.remote || !c.topo.IsBackend(k) {
			want[k] = true
		}
	}
	if len(want) == 0 {
		return nil
	}
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	// Each connection is authenticated on its own goroutine: connections that never
	// answer the challenge (port scanners, stale dialers) must not hold up the children.
	type kid struct {
		rank int
		conn net.Conn
	}
	kids := make(chan kid)
	failed := make(chan error, 1)
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			conn, err := acceptRetry(ln)
			if err != nil {
				failed <- err
				return
			}
			go func() {
				r, err := challenge(conn, c.opt.Secret)
				if err == nil {
					select {
					case kids <- kid{int(r), conn}:
						return
					case <-done:
					}
				}
				conn.Close()
			}()
		}
	}()
	for len(want) > 0 {
		select {
		case k := <-kids:
			if !want[k.rank] {
				k.conn.Close()
				continue
			}
			delete(want, k.rank)
			c.kids[k.rank] = c.timed(newLink(k.conn))
		case err := <-failed:
			return errorf("comm %d: waiting for children: %w", c.opt.Rank, err)
		}
	}
	return nil
}

// serve runs the node: one reader per link feeding the two inboxes, the runner loop.
func (c *comm) serve(ctx context.Context) error {
	node := NewNode(c.topo, c.opt.Rank)
	parent := int32(c.topo.Parent(c.opt.Rank))
	links := []*link{c.fe}
	if c.parent != c.fe {
		links = append(links, c.parent)
	}
	for _, k := range c.kids {
		links = append(links, k)
	}
	lost := make(chan error, len(links))
	for _, l := range links {
		go l.writeLoop()
	}
	go c.read(c.fe, parent, -1, lost)
	if c.parent != c.fe {
		go c.read(c.parent, parent, -1, lost)
	}
	for r, k := range c.kids {
		go c.read(k, parent, r, lost)
	}
	r := newRunner(node, nil, c.route, nil)
	go func() {
		select {
		case err := <-lost:
			lost <- err
		case <-ctx.Done():
		}
		c.stop()
	}()
	r.loop(c.up, c.down, c.done)
	select {
	case err := <-lost:
		if errors.Is(err, errParentGone) {
			return nil
		}
		return err
	default:
		return ctx.Err()
	}
}

var errParentGone = errorf("comm: parent gone")

// read feeds one link's batches to the inboxes: from the parent downstream, everything
// else (children, back-ends) upstream. A child link that breaks is a dead child; the
// parent's or front-end's link breaking ends the process.
func (c *comm) read(l *link, parent int32, kid int, lost chan<- error) {
	for {
		typ, payload, err := l.read()
		var batch []Msg
		if err == nil && typ == frameBatch {
			batch, err = DecodeBatch(payload)
		}
		if err != nil || typ != frameBatch {
			if kid >= 0 {
				c.put(c.up, []Msg{{Kind: MsgDied, From: int32(kid), To: int32(c.opt.Rank)}})
				return
			}
			lost <- errParentGone
			return
		}
		var up, down []Msg
		for _, m := range batch {
			if m.From == parent {
				down = append(down, m)
			} else {
				up = append(up, m)
			}
		}
		if !c.put(c.down, down) || !c.put(c.up, up) {
			return
		}
	}
}

func (c *comm) put(ch chan<- []Msg, b []Msg) bool {
	if len(b) == 0 {
		return true
	}
	select {
	case ch <- b:
		return true
	case <-c.done:
		return false
	}
}

func (c *comm) route(to int, _ bool) chan<- []Msg {
	switch {
	case to == c.topo.Parent(c.opt.Rank):
		return c.parent.out
	case c.topo.IsBackend(to) && !c.remote:
		return c.fe.out
	}
	if k := c.kids[to]; k != nil {
		return k.out
	}
	return nil
}
