package contexts

import (
	"fmt"
	"maps"
	"strings"
	"time"
)

// Sync is how a reduction-tree node waits for the packets of one wave (MRNet's
// synchronization filters).
type Sync string

// The synchronization modes. The zero value means "the default": SyncWaitForAll.
const (
	SyncWaitForAll Sync = "waitforall" // wait for one packet from every child
	SyncTimeout    Sync = "timeout"    // wait for all children or Timeout, whichever is first
	SyncDontWait   Sync = "dontwait"   // pass every packet on as it arrives
)

var syncModes = map[Sync]bool{SyncWaitForAll: true, SyncTimeout: true, SyncDontWait: true}

// Aggregation says how the data of a probe in a context is combined on its way up the tree.
// It is plain data: the runtime resolves Filter or Handle to a reduction-tree filter.
type Aggregation struct {
	// Filter names a built-in or registered filter ("sum", "max", "eqclass", ...).
	Filter string
	// Handle is an opaque filter object (for example a loaded Lua filter) used instead of
	// a name. Exactly one of Filter and Handle is set.
	Handle any
	// Sync is the wave synchronization; "" means SyncWaitForAll.
	Sync Sync
	// Timeout is the virtual-time bound of SyncTimeout, and zero for the other modes.
	Timeout time.Duration
	// Params are filter parameters: string keys; values are bool, float64, string, or
	// nested []any / map[string]any of those.
	Params map[string]any
}

// Validate checks the combination of fields.
func (a *Aggregation) Validate() error {
	switch {
	case a.Filter == "" && a.Handle == nil:
		return errorf("bad aggregation: no filter")
	case a.Filter != "" && a.Handle != nil:
		return errorf("bad aggregation: both filter %q and a filter object", a.Filter)
	}
	if a.Sync != "" && !syncModes[a.Sync] {
		return errorf("bad aggregation: bad sync mode %q: want waitforall, timeout or dontwait", a.Sync)
	}
	switch {
	case a.Sync == SyncTimeout && a.Timeout <= 0:
		return errorf("bad aggregation: sync %q needs a positive timeout, got %v", a.Sync, a.Timeout)
	case a.Sync != SyncTimeout && a.Timeout != 0:
		return errorf("bad aggregation: a timeout (%v) needs sync %q, not %q", a.Timeout, SyncTimeout, a.SyncMode())
	}
	return nil
}

// SyncMode is Sync with the default applied.
func (a *Aggregation) SyncMode() Sync {
	if a.Sync == "" {
		return SyncWaitForAll
	}
	return a.Sync
}

// Copy returns a copy whose Params share nothing with a's; Handle is shared (it is opaque).
func (a *Aggregation) Copy() *Aggregation {
	c := *a
	if a.Params != nil {
		c.Params = copyMap(a.Params)
	}
	return &c
}

// String is a one-line summary: "filter=sum sync=timeout timeout=5ms".
func (a *Aggregation) String() string {
	var b strings.Builder
	if a.Filter != "" {
		fmt.Fprintf(&b, "filter=%s", a.Filter)
	} else {
		fmt.Fprintf(&b, "filter=%T", a.Handle)
	}
	fmt.Fprintf(&b, " sync=%s", a.SyncMode())
	if a.Timeout > 0 {
		fmt.Fprintf(&b, " timeout=%v", a.Timeout)
	}
	return b.String()
}

func copyMap(m map[string]any) map[string]any {
	c := maps.Clone(m)
	for k, v := range c {
		c[k] = copyValue(v)
	}
	return c
}

func copyValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return copyMap(v)
	case []any:
		c := make([]any, len(v))
		for i, e := range v {
			c[i] = copyValue(e)
		}
		return c
	}
	return v
}

// Context is a probe context: the ranks a probe is applied to, and optionally how its data
// is aggregated. A nil Agg means no aggregation — one message per rank per firing — and
// Default(n) (all ranks, no aggregation) behaves like a classic DPCL probe.
type Context struct {
	Set *Set
	Agg *Aggregation
}

// New returns a context over set with aggregation agg (nil for none), after validating agg.
func New(set *Set, agg *Aggregation) (*Context, error) {
	if agg != nil {
		if err := agg.Validate(); err != nil {
			return nil, err
		}
	}
	return &Context{Set: set, Agg: agg}, nil
}

// Default returns the default context over n ranks: every rank, no aggregation.
func Default(n int) *Context { return &Context{Set: All(n)} }

// Size is the number of ranks of the application the context belongs to.
func (c *Context) Size() int { return c.Set.Size() }

// Copy returns a deep copy; install takes one so later edits do not affect a probe.
func (c *Context) Copy() *Context {
	d := &Context{Set: c.Set.Copy()}
	if c.Agg != nil {
		d.Agg = c.Agg.Copy()
	}
	return d
}

// String is "ctx{1-5,7,9-10} (8 of 256)", followed by the aggregation when there is one.
func (c *Context) String() string {
	s := fmt.Sprintf("ctx{%s} (%d of %d)", c.Set, c.Set.Count(), c.Set.Size())
	if c.Agg != nil {
		s += " " + c.Agg.String()
	}
	return s
}
