package contexts

import (
	"testing"
	"time"
)

func TestAggregationValidate(t *testing.T) {
	handle := struct{ name string }{"topk"}
	tests := []struct {
		agg Aggregation
		msg string // "" when valid
	}{
		{Aggregation{Filter: "sum"}, ""},
		{Aggregation{Handle: &handle, Sync: SyncDontWait}, ""},
		{Aggregation{Filter: "max", Sync: SyncTimeout, Timeout: 5 * time.Millisecond}, ""},
		{Aggregation{}, "contexts: bad aggregation: no filter"},
		{Aggregation{Filter: "sum", Handle: &handle}, `contexts: bad aggregation: both filter "sum" and a filter object`},
		{Aggregation{Filter: "sum", Sync: "eventually"}, `contexts: bad aggregation: bad sync mode "eventually": want waitforall, timeout or dontwait`},
		{Aggregation{Filter: "sum", Sync: SyncTimeout}, `contexts: bad aggregation: sync "timeout" needs a positive timeout, got 0s`},
		{Aggregation{Filter: "sum", Timeout: time.Millisecond}, `contexts: bad aggregation: a timeout (1ms) needs sync "timeout", not "waitforall"`},
	}
	for _, tt := range tests {
		_, err := New(All(4), &tt.agg)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.msg {
			t.Errorf("New(%+v) error = %q, want %q", tt.agg, got, tt.msg)
		}
	}
}

func TestContextCopyIsDeep(t *testing.T) {
	c, err := New(All(8), &Aggregation{Filter: "histogram",
		Params: map[string]any{"bins": 4.0, "edges": []any{1.0, 2.0}, "opt": map[string]any{"log": true}}})
	if err != nil {
		t.Fatal(err)
	}
	d := c.Copy()
	if err := d.Set.Remove(3); err != nil {
		t.Fatal(err)
	}
	d.Agg.Params["bins"] = 8.0
	d.Agg.Params["edges"].([]any)[0] = 9.0
	d.Agg.Params["opt"].(map[string]any)["log"] = false
	if c.Set.Count() != 8 || c.Agg.Params["bins"] != 4.0 || c.Agg.Params["edges"].([]any)[0] != 1.0 ||
		c.Agg.Params["opt"].(map[string]any)["log"] != true {
		t.Errorf("Copy shares state with the original: %v %v", c, c.Agg.Params)
	}
}

func TestContextString(t *testing.T) {
	s, _ := Parse(256, "1-5,7,9-10")
	tests := []struct {
		c    *Context
		want string
	}{
		{&Context{Set: s}, "ctx{1-5,7,9-10} (8 of 256)"},
		{&Context{Set: None(256)}, "ctx{} (0 of 256)"},
		{Default(4), "ctx{0-3} (4 of 4)"},
		{&Context{Set: s, Agg: &Aggregation{Filter: "max", Sync: SyncTimeout, Timeout: 5 * time.Millisecond}},
			"ctx{1-5,7,9-10} (8 of 256) filter=max sync=timeout timeout=5ms"},
	}
	for _, tt := range tests {
		if got := tt.c.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

func TestMismatchAndRankErrors(t *testing.T) {
	a, b := All(256), All(1024)
	for name, err := range map[string]error{
		"Union":  second(a.Union(b)),
		"AddSet": a.AddSet(b),
	} {
		if err == nil || err.Error() != "ranks: cannot combine sets of different sizes: 256 and 1024" {
			t.Errorf("%s: error = %v", name, err)
		}
	}
	if a.Equal(b) {
		t.Error("sets of different sizes compare equal")
	}
	if err := a.Add(256); err == nil || err.Error() != "ranks: rank 256 out of range [0, 256)" {
		t.Errorf("Add(256) error = %v", err)
	}
	if _, err := Single(4, -1); err == nil {
		t.Error("Single(4, -1) succeeded")
	}
	if _, err := FromList(MaxSize+1, nil); err == nil {
		t.Error("FromList over MaxSize+1 succeeded")
	}
}

func second[T any](_ T, err error) error { return err }
