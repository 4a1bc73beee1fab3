package netreduce

import (
	"reflect"
	"testing"
)

func sampleBatch() []Msg {
	set, _ := RankSetOf(64, []int{0, 1, 2, 3, 9, 60, 61, 62, 63})
	return []Msg{
		{Kind: MsgData, From: 3, To: 70, Stream: 2, Packet: &Packet{Stream: 2, Tag: 100, Src: 3, Count: 1, Time: 12345,
			Values: []any{int64(-5), uint64(7), 2.5, "hé", []int64{1, -2}, []uint64{3}, []float64{0.5, -1e300}, []string{"a", ""}}}},
		{Kind: MsgOpen, From: -1, To: 80, Stream: 4, Spec: &StreamSpec{ID: 4, Backends: set, Sync: Timeout, Timeout: 5e6,
			Up: &FilterSpec{Name: "topk", Kind: "lua", Source: []byte("return {}"), Origin: "topk.lua", Deadline: 1e9,
				Params: map[string]any{"k": 3.0, "names": []any{"x", true}, "nested": map[string]any{"a": int64(1)}}},
			Down: &FilterSpec{Name: "sum", Params: map[string]any{}}}},
		{Kind: MsgLost, From: 70, To: 80, Ranks: []int32{16, 32}},
		{Kind: MsgFault, From: 70, To: 80, Stream: 9, Origin: 70, Text: "boom.lua:3: oops"},
		{Kind: MsgPing, From: 80, To: 70, Seq: 1 << 40, Time: -1},
	}
}

func TestCodecRoundTrip(t *testing.T) {
	in := sampleBatch()
	b, err := AppendBatch(nil, in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := DecodeBatch(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Fatalf("round trip:\n got %#v\nwant %#v", out, in)
	}
	for cut := 0; cut < len(b); cut++ {
		if _, err := DecodeBatch(b[:cut]); err == nil {
			t.Fatalf("truncated to %d of %d bytes: no error", cut, len(b))
		}
	}
}

func TestCodecRejectsUnknownValues(t *testing.T) {
	_, err := AppendBatch(nil, []Msg{{Kind: MsgData, Packet: &Packet{Values: []any{struct{}{}}}}})
	if err == nil {
		t.Fatal("a struct value was encoded")
	}
}

func FuzzDecodeBatch(f *testing.F) {
	b, _ := AppendBatch(nil, sampleBatch())
	f.Add(b)
	f.Add([]byte{1, 1, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		msgs, err := DecodeBatch(data)
		if err != nil {
			return
		}
		again, err := AppendBatch(nil, msgs)
		if err != nil {
			t.Fatalf("decoded batch does not re-encode: %v", err)
		}
		if _, err := DecodeBatch(again); err != nil {
			t.Fatalf("re-encoded batch does not decode: %v", err)
		}
	})
}
