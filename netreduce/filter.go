package netreduce

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// FilterSpec names a transformation filter and carries what every node needs to build its
// own instance: built-ins by Name alone; other kinds (Lua filters) carry their Source,
// which travels with the stream's creation so a node in another process can compile it.
type FilterSpec struct {
	Name   string         // "sum", "avg", ..., or the name a loaded filter gives itself
	Kind   string         // "" for built-ins; otherwise a kind registered with RegisterFilterKind
	Source []byte         // the filter's program text, for Kind != ""
	Origin string         // where Source came from (a file path), for error messages
	Params map[string]any // per-stream parameters: bool, float64, int64, string, []any, map[string]any
	// Deadline bounds one call of a source filter in the kind's own deterministic unit
	// (Lua filters: VM instructions; 0: the kind's default): a runaway filter fails its
	// stream instead of stalling its node, at the same point on any host.
	Deadline int64
}

// NodeInfo tells a filter instance where it runs.
type NodeInfo struct {
	Rank     int
	Stream   uint32
	FrontEnd bool
}

// Transform is one filter instance: state per (stream, node).
type Transform interface {
	// Filter turns one synchronized wave into zero or more packets. It must not modify
	// its inputs (they are shared by reference); it may return an input unchanged.
	Filter(wave []*Packet) ([]*Packet, error)
	// Close releases what the instance holds; the stream is gone.
	Close()
}

// Finalizer is implemented by transforms whose packets carry a partial form (avg keeps
// weighted sums, concat keeps ranks): the front-end calls Finalize on every packet it
// hands to the application.
type Finalizer interface {
	Finalize(p *Packet) (*Packet, error)
}

// Factory builds a Transform for one (stream, node).
type Factory func(spec *FilterSpec, node NodeInfo) (Transform, error)

var (
	filterMu    sync.RWMutex
	filterNames = map[string]Factory{}
	filterKinds = map[string]Factory{}
)

// RegisterFilter adds a built-in filter by name. Call it from init.
func RegisterFilter(name string, f Factory) {
	filterMu.Lock()
	defer filterMu.Unlock()
	if _, dup := filterNames[name]; dup {
		panic("netreduce: filter registered twice: " + name)
	}
	filterNames[name] = f
}

// RegisterFilterKind adds a kind of source-carrying filter (e.g. "lua"). Call it from init.
func RegisterFilterKind(kind string, f Factory) {
	filterMu.Lock()
	defer filterMu.Unlock()
	if _, dup := filterKinds[kind]; dup {
		panic("netreduce: filter kind registered twice: " + kind)
	}
	filterKinds[kind] = f
}

// Filters lists the registered built-in filter names.
func Filters() []string {
	filterMu.RLock()
	defer filterMu.RUnlock()
	out := make([]string, 0, len(filterNames))
	for n := range filterNames {
		// "dpcl.*" filters are the tool's own (its command answers), not for users.
		if !strings.HasPrefix(n, "dpcl.") {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// NewTransform builds the instance of spec for one node.
func NewTransform(spec *FilterSpec, node NodeInfo) (Transform, error) {
	if spec == nil {
		return passthrough{}, nil
	}
	filterMu.RLock()
	var f Factory
	var ok bool
	if spec.Kind == "" {
		f, ok = filterNames[spec.Name]
	} else {
		f, ok = filterKinds[spec.Kind]
	}
	filterMu.RUnlock()
	if !ok {
		if spec.Kind != "" {
			return nil, errorf("filter %q: unknown filter kind %q", spec.Name, spec.Kind)
		}
		return nil, errorf("unknown filter %q (have %v)", spec.Name, Filters())
	}
	return f(spec, node)
}

// FilterError reports a filter that failed on a node; the stream is failed from then on.
type FilterError struct {
	Stream uint32
	Rank   int    // the node the filter ran on
	Msg    string // the filter's own message, with its file:line for Lua filters
}

// Unprefixed is the error's text without "netreduce: "; Error adds it.
func (e *FilterError) Unprefixed() string {
	return fmt.Sprintf("stream %d: filter failed at tree node %d: %s", e.Stream, e.Rank, e.Msg)
}

func (e *FilterError) Error() string { return "netreduce: " + e.Unprefixed() }

// Package is the name the error's text starts with.
func (e *FilterError) Package() string { return "netreduce" }

// passthrough forwards every packet of the wave unchanged ("none").
type passthrough struct{}

func (passthrough) Filter(w []*Packet) ([]*Packet, error) { return w, nil }
func (passthrough) Close()                                {}

func init() {
	RegisterFilter("none", func(*FilterSpec, NodeInfo) (Transform, error) { return passthrough{}, nil })
}
