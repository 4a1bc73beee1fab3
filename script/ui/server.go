package ui

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Backend runs Lua in the session that owns the application. Do is called from the
// server's goroutines; the implementation must hand the call to the session goroutine
// and wait for it, and give up (without running it) if ctx ends first.
type Backend interface {
	Do(ctx context.Context, c Call) (any, error)
}

// Call is one piece of Lua for the session.
type Call struct {
	// Chunk is the body of a function whose first parameter is the served application,
	// named app; it returns at most one value, which Do hands back JSON-ready (nil,
	// bool, float64, string, []any, map[string]any).
	Chunk string
	// Echo, when set, is the Lua line of a page action: the session shows it in its
	// output, as the user would have typed it, before running Chunk.
	Echo string
}

// Options configure a Server.
type Options struct {
	// Addr is host:port to listen on; "" means 127.0.0.1 on a free port.
	Addr string
	// Title names the application on the page ("cg.elf, 64 ranks").
	Title string
	// Timeout bounds how long a request waits for the session (default 30 s): a script
	// busy outside a wait cannot answer.
	Timeout time.Duration
	// Tick is how often the event stream looks at the job (default 250 ms, wall clock).
	Tick time.Duration
}

// Server is the page of one application.
type Server struct {
	be       Backend
	opts     Options
	token    string
	ln       net.Listener
	srv      *http.Server
	loopback bool
	url      string

	mu      sync.Mutex
	version int // bumped by every page action, so event streams tell pages to reload
	closed  chan struct{}
	once    sync.Once
	slots   chan struct{} // bounds the requests waiting for the session
}

// Start listens on o.Addr and serves the page until Close.
func Start(be Backend, o Options) (*Server, error) {
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.Tick <= 0 {
		o.Tick = 250 * time.Millisecond
	}
	tok := make([]byte, 24)
	if _, err := rand.Read(tok); err != nil {
		return nil, fmt.Errorf("ui: cannot make a token: %w", err)
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, fmt.Errorf("ui: cannot listen on %s: %w", o.Addr, err)
	}
	s := &Server{be: be, opts: o, token: hex.EncodeToString(tok), ln: ln,
		closed: make(chan struct{}), slots: make(chan struct{}, 8)}
	addr := ln.Addr().(*net.TCPAddr)
	s.loopback = addr.IP.IsLoopback()
	host := addr.String()
	if addr.IP.IsUnspecified() {
		host = net.JoinHostPort("127.0.0.1", fmt.Sprint(addr.Port))
	}
	s.url = "http://" + host + "/?token=" + s.token
	s.srv = &http.Server{Handler: s.guard(s.routes()), ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return s, nil
}

// URL is the page's address with its token: the only way in.
func (s *Server) URL() string { return s.url }

// Addr is the address the server listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close stops the server: the listener, open event streams and requests in flight.
func (s *Server) Close() error {
	var err error
	s.once.Do(func() {
		close(s.closed)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err = s.srv.Shutdown(ctx); err != nil {
			err = s.srv.Close()
		}
	})
	return err
}

// Done is closed once the server is closed.
func (s *Server) Done() <-chan struct{} { return s.closed }

func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	static, _ := fs.Sub(assets, "assets")
	files := http.FileServerFS(static)
	mux.HandleFunc("GET /{$}", s.index)
	mux.Handle("GET /static/", http.StripPrefix("/static/", files))
	mux.HandleFunc("GET /api/state", s.get(stateChunk))
	mux.HandleFunc("GET /api/files", s.get(constChunk(filesChunk)))
	mux.HandleFunc("GET /api/modules", s.get(constChunk(modulesChunk)))
	mux.HandleFunc("GET /api/source", s.get(sourceChunk))
	mux.HandleFunc("GET /api/events", s.events)
	mux.HandleFunc("POST /api/do", s.action)
	return mux
}

// guard refuses every request that does not carry the token, comes from another origin,
// or names a host other than the server's (DNS rebinding), before any handler runs.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")
		if why := s.refuse(r); why != "" {
			http.Error(w, "ui: refused: "+why, http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// refuse says why r is not let in, or "".
func (s *Server) refuse(r *http.Request) string {
	tok := r.URL.Query().Get("token")
	if tok == "" {
		tok = r.Header.Get("X-Dpcl-Token")
	}
	if tok == "" {
		return "no token (open the URL printed when the page was started)"
	}
	if subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) != 1 {
		return "wrong token"
	}
	if s.loopback && !loopbackHost(r.Host) {
		return fmt.Sprintf("host %q is not this machine's loopback address", r.Host)
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
		return fmt.Sprintf("origin %q is not this page's", o)
	}
	if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" || site == "same-site" {
		return "request from another site"
	}
	return ""
}

// loopbackHost reports whether host (a Host header) names the loopback interface.
func loopbackHost(host string) bool {
	h, _, err := net.SplitHostPort(host)
	if err != nil {
		h = host
	}
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(h, "[]"))
	return ip != nil && ip.IsLoopback()
}

// do runs chunk in the session, bounded by the server's timeout and closing.
func (s *Server) do(r *http.Request, c Call) (any, error) {
	ctx, cancel := context.WithTimeout(r.Context(), s.opts.Timeout)
	defer cancel()
	go func() {
		select {
		case <-s.closed:
			cancel()
		case <-ctx.Done():
		}
	}()
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	case <-ctx.Done():
		return nil, errBusy
	}
	v, err := s.be.Do(ctx, c)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return nil, errBusy
	}
	return v, err
}

var errBusy = errors.New("the session did not answer in time: the script is busy outside a wait, or the application closed")

func (s *Server) bump() {
	s.mu.Lock()
	s.version++
	s.mu.Unlock()
}

func (s *Server) currentVersion() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}
