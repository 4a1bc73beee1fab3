package netreduce

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"
)

// SecretEnv is the environment variable through which a `dpclsh comm` process gets the
// tree's shared secret (hex), so it never appears on a command line.
const SecretEnv = "DPCLSH_COMM_SECRET"

// TCP runs every internal node as its own `dpclsh comm` process connected over TCP. The
// front-end listens; each comm process dials it, proves it knows the shared secret,
// registers the address it listens on, and receives the topology and its parent's
// address; it then dials its parent (unless that is the front-end) and waits for its own
// internal children. Back-ends stay in the front-end's process (a comm process whose
// children are back-ends exchanges their traffic over its link to the front-end), unless
// Backend makes each one a process that connects to its parent.
type TCP struct {
	// Command starts one comm process; "--fe ADDR --rank R" is appended. Ignored when Manual.
	Command []string
	Env     []string  // extra environment for the comm processes
	Listen  string    // front-end address (default "127.0.0.1:0": loopback only)
	Secret  []byte    // shared secret; a random one when nil
	Manual  bool      // start no process: wait for comm processes started by hand, ssh or srun
	Stderr  io.Writer // the comm processes' stderr (default os.Stderr)
	// OnListen is told the front-end's address and the hex secret once it listens, so the
	// comm processes can be started elsewhere (Manual).
	OnListen     func(addr, secretHex string)
	StartTimeout time.Duration // default 30 s
	// Liveness is how long a link may make no progress (no frame, not even a heartbeat,
	// or a frame stuck halfway) before its comm process counts as dead (default
	// DefaultLiveness): a frozen or wedged process costs its subtree, not the tree.
	Liveness time.Duration
	// Backend, when set, starts one OS process per back-end with this command ("--backend
	// PARENT_ADDR --rank R" appended; RunBackend), as MRNet's back-ends are processes of
	// their own: each connects to its parent (the front-end or a comm process), so the
	// tree's instantiation counts its creation, connection and handshake, and its packets
	// really cross TCP. The processes run their command's behaviour, not Options.Backend.
	// Not with Manual.
	Backend []string
}

type tcpFabric struct {
	opt    TCP
	cfg    *TreeConfig
	topo   *Topology
	secret []byte
	ln     net.Listener

	mu      sync.Mutex
	links   map[int]*link
	addrs   map[int]string
	regd    map[int]chan struct{} // closed when rank has registered its listen address
	procs   map[int]*exec.Cmd
	remote  bool // the back-ends are processes of their own (TCP.Backend)
	ready   chan int
	closing bool
	done    chan struct{}
	wg      sync.WaitGroup
}

// Start implements Transport.
func (t TCP) Start(cfg *TreeConfig) (Fabric, error) {
	f := &tcpFabric{opt: t, cfg: cfg, topo: cfg.Topo, secret: t.Secret, links: map[int]*link{},
		addrs: map[int]string{}, regd: map[int]chan struct{}{}, procs: map[int]*exec.Cmd{},
		ready: make(chan int, cfg.Topo.Size()), done: make(chan struct{})}
	if f.secret == nil {
		f.secret = make([]byte, 32)
		if _, err := rand.Read(f.secret); err != nil {
			return nil, errorf("tcp: secret: %w", err)
		}
	}
	for _, r := range f.topo.Internal() {
		f.regd[r] = make(chan struct{})
	}
	if len(t.Backend) > 0 {
		f.remote = true
		// The front-end waits for the back-ends it is the parent of; a comm process
		// reports ready once its own back-ends have connected to it.
		for r := range f.topo.Backends() {
			if f.topo.Parent(r) == f.topo.Root() {
				f.regd[r] = make(chan struct{})
			}
		}
	}
	addr := t.Listen
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, errorf("tcp: listen: %w", err)
	}
	f.ln = ln
	if t.OnListen != nil {
		t.OnListen(ln.Addr().String(), hex.EncodeToString(f.secret))
	}
	f.wg.Add(1)
	go f.acceptLoop()
	if err := f.spawnAll(); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.waitReady(); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func (f *tcpFabric) spawnAll() error {
	if f.opt.Manual {
		if f.remote {
			return errorf("tcp: back-end processes are started by the front-end, not by hand (Manual)")
		}
		return nil
	}
	if len(f.opt.Command) == 0 && len(f.topo.Internal()) > 0 {
		return errorf("tcp: no command to start comm processes")
	}
	stderr := f.opt.Stderr
	if stderr == nil {
		stderr = os.Stderr
	}
	env := append(append(os.Environ(), f.opt.Env...), SecretEnv+"="+hex.EncodeToString(f.secret))
	start := func(command []string, what string, r int, args ...string) error {
		args = append(append([]string(nil), command[1:]...), append(args, "--rank", strconv.Itoa(r))...)
		cmd := exec.Command(command[0], args...)
		cmd.Env, cmd.Stderr = env, stderr
		if err := cmd.Start(); err != nil {
			return errorf("tcp: start %s process for rank %d: %w", what, r, err)
		}
		f.mu.Lock()
		f.procs[r] = cmd
		f.mu.Unlock()
		return nil
	}
	addr := f.ln.Addr().String()
	for _, r := range f.topo.Internal() {
		if err := start(f.opt.Command, "comm", r, "--fe", addr); err != nil {
			return err
		}
	}
	if f.remote {
		// The front-end starts the back-ends one after the other, each once its parent
		// listens (the front-end, or a comm process that has registered its address).
		for r := range f.topo.Backends() {
			parent, err := f.listenAddr(f.topo.Parent(r))
			if err != nil {
				return errorf("tcp: back-end %d: %w", r, err)
			}
			if err := start(f.opt.Backend, "back-end", r, "--backend", parent); err != nil {
				return err
			}
		}
	}
	return nil
}

// listenAddr is where rank's children connect, once rank has registered it.
func (f *tcpFabric) listenAddr(rank int) (string, error) {
	if rank == f.topo.Root() {
		return f.ln.Addr().String(), nil
	}
	timeout := f.opt.StartTimeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	f.mu.Lock()
	regd := f.regd[rank]
	f.mu.Unlock()
	select {
	case <-regd:
	case <-time.After(timeout):
		return "", errorf("comm process %d did not register within %v", rank, timeout)
	case <-f.done:
		return "", ErrClosed
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.addrs[rank], nil
}

func (f *tcpFabric) waitReady() error {
	timeout := f.opt.StartTimeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	deadline := time.After(timeout)
	need := len(f.regd)
	for got := 0; got < need; got++ {
		select {
		case <-f.ready:
		case <-deadline:
			return errorf("tcp: %d of %d processes ready after %v", got, need, timeout)
		}
	}
	return nil
}

func (f *tcpFabric) acceptLoop() {
	defer f.wg.Done()
	for {
		c, err := acceptRetry(f.ln)
		if err != nil {
			return
		}
		go f.admit(c)
	}
}

// timed sets a new link's progress bounds from the options.
func (f *tcpFabric) timed(l *link) *link {
	if f.opt.Liveness > 0 {
		l.liveness = f.opt.Liveness
	}
	if f.opt.StartTimeout > 0 {
		l.startup = f.opt.StartTimeout
	}
	return l
}

// admit authenticates a comm process, records its address, sends its configuration once
// its parent is known, and then serves the link.
func (f *tcpFabric) admit(c net.Conn) {
	rank32, err := challenge(c, f.secret)
	rank := int(rank32)
	f.mu.Lock()
	regd := f.regd[rank]
	f.mu.Unlock()
	if err != nil || regd == nil {
		c.Close()
		return
	}
	l := f.timed(newLink(c))
	if f.topo.IsBackend(rank) {
		f.admitBackend(rank, l, regd)
		return
	}
	typ, payload, err := l.read()
	if err != nil || typ != frameRegister {
		c.Close()
		return
	}
	// Until it reports ready, the comm process waits for its own children and sends
	// nothing: the start-up bound applies, not liveness.
	l.seen.Store(false)
	f.mu.Lock()
	_, dup := f.links[rank]
	if !dup {
		f.links[rank], f.addrs[rank] = l, string(payload)
		close(regd)
	}
	f.mu.Unlock()
	if dup {
		c.Close()
		return
	}
	parentAddr := ""
	if p := f.topo.Parent(rank); p != f.topo.Root() {
		f.mu.Lock()
		pr := f.regd[p]
		f.mu.Unlock()
		select {
		case <-pr:
		case <-f.done:
			return
		}
		f.mu.Lock()
		parentAddr = f.addrs[p]
		f.mu.Unlock()
	}
	remote := ""
	if f.remote {
		remote = "backend-processes"
	}
	if l.sendRaw(frameConfig, joinFields(parentAddr, remote, f.topo.String())) != nil {
		c.Close()
		return
	}
	go l.writeLoop()
	f.readLoop(rank, l)
}

// admitBackend serves an authenticated back-end process's link: what the front-end
// sends its rank goes down it, what it answers goes to the front-end's inbox.
func (f *tcpFabric) admitBackend(rank int, l *link, regd chan struct{}) {
	f.mu.Lock()
	_, dup := f.links[rank]
	if !dup {
		f.links[rank] = l
		close(regd)
	}
	f.mu.Unlock()
	if dup {
		l.close()
		return
	}
	go l.writeLoop()
	f.ready <- rank
	f.readLoop(rank, l)
}

// readLoop serves one comm process's link: traffic for the front-end goes to its inbox,
// traffic for back-ends runs here and the replies go back on the same link.
func (f *tcpFabric) readLoop(rank int, l *link) {
	defer f.linkDown(rank, l)
	root := int32(f.topo.Root())
	for {
		typ, payload, err := l.read()
		if err != nil {
			return
		}
		if typ == frameReady {
			f.ready <- rank
			continue
		}
		if typ != frameBatch {
			return
		}
		batch, err := DecodeBatch(payload)
		if err != nil {
			return
		}
		var up, replies []Msg
		for _, m := range batch {
			switch {
			case m.To == root:
				up = append(up, m)
			case f.topo.IsBackend(int(m.To)):
				f.cfg.Backends.Deliver(m, func(r Msg) { replies = append(replies, r) })
			}
		}
		if !f.put(f.cfg.FrontEnd, up) || !f.put(l.out, replies) {
			return
		}
	}
}

func (f *tcpFabric) put(ch chan<- []Msg, b []Msg) bool {
	if len(b) == 0 {
		return true
	}
	select {
	case ch <- b:
		return true
	case <-f.done:
		return false
	}
}

// linkDown handles a lost link: a child of the front-end that is gone is dropped from the
// tree; deeper nodes are reported by their own parents.
func (f *tcpFabric) linkDown(rank int, l *link) {
	l.close()
	f.mu.Lock()
	if f.links[rank] == l {
		delete(f.links, rank)
	}
	closing := f.closing
	f.mu.Unlock()
	if !closing && f.topo.Parent(rank) == f.topo.Root() {
		f.put(f.cfg.FrontEnd, []Msg{{Kind: MsgDied, From: int32(rank), To: int32(f.topo.Root())}})
	}
}

// HostsBackends says whether the back-ends are processes of their own (TCP.Backend):
// the front-end then routes their messages over their links instead of running them.
func (f *tcpFabric) HostsBackends() bool { return f.remote }

// Route implements Fabric.
func (f *tcpFabric) Route(to int, _ bool) chan<- []Msg {
	f.mu.Lock()
	defer f.mu.Unlock()
	if l := f.links[to]; l != nil {
		return l.out
	}
	return nil
}

// Kill implements Fabric: the comm process is killed as a crash would.
func (f *tcpFabric) Kill(rank int) error {
	f.mu.Lock()
	cmd, l := f.procs[rank], f.links[rank]
	f.mu.Unlock()
	switch {
	case cmd != nil:
		return cmd.Process.Kill()
	case l != nil && f.topo.Parent(rank) == f.topo.Root():
		l.close()
		return nil
	}
	return errorf("tcp: kill rank %d: not a process this front-end started", rank)
}

// Close implements Fabric: links close, comm processes see their parent go and exit.
func (f *tcpFabric) Close() error {
	f.mu.Lock()
	if f.closing {
		f.mu.Unlock()
		return nil
	}
	f.closing = true
	close(f.done)
	links := make([]*link, 0, len(f.links))
	for _, l := range f.links {
		links = append(links, l)
	}
	procs := make([]*exec.Cmd, 0, len(f.procs))
	for _, p := range f.procs {
		procs = append(procs, p)
	}
	f.mu.Unlock()
	f.ln.Close()
	for _, l := range links {
		l.close()
	}
	f.wg.Wait()
	reapAll(procs, 5*time.Second)
	return nil
}

// reapAll waits for the processes to exit, killing those still running after grace.
func reapAll(procs []*exec.Cmd, grace time.Duration) {
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Add(1)
		go func(p *exec.Cmd) {
			defer wg.Done()
			exited := make(chan struct{})
			go func() { p.Wait(); close(exited) }()
			select {
			case <-exited:
			case <-time.After(grace):
				p.Process.Kill()
				<-exited
			}
		}(p)
	}
	wg.Wait()
}
