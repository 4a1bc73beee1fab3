package runtime

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/bgl"
)

// TestKeptReadyRoundTrips: what a daemon made of a packet crosses shards as a record and
// comes back the same (ints and doubles kept apart, rejections with their reasons), and a
// record cut short is an error, never a shorter Ready.
func TestKeptReadyRoundTrips(t *testing.T) {
	p := bgl.Packet{Rank: 37, Time: 123456789}
	rd := Ready{
		Up: []Outgoing{{Rank: 37, Stream: 5, Handle: 2, Time: 123456789, Values: []any{int64(-3), 2.5, int64(1) << 40}},
			{Rank: 37, Stream: 6, Handle: 3, Time: 123456789, Values: []any{}}},
		Rejected: []Rejected{{Rank: 37, PC: 0x10001234, Time: 123456789, Reason: "packet for probe 9 sent from outside its code"}},
	}
	rec := encodeReady(p, rd)
	k, err := decodeReady(rec)
	if err != nil {
		t.Fatal(err)
	}
	if k.time != p.Time || k.rank != p.Rank || !reflect.DeepEqual(k.rd, rd) {
		t.Errorf("decoded (%d, %d) %+v\nwant (%d, %d) %+v", k.time, k.rank, k.rd, p.Time, p.Rank, rd)
	}
	for _, n := range []int{len(rec) - 1, 20, 3} {
		if _, err := decodeReady(rec[:n]); err == nil || !strings.Contains(err.Error(), "cut short") {
			t.Errorf("a record cut to %d of %d bytes: %v, want an error", n, len(rec), err)
		}
	}
}
