package script

import (
	"testing"

	"github.com/dpclsh/dpclsh/netreduce"
)

func topkWave(n int) []*netreduce.Packet {
	wave := make([]*netreduce.Packet, n)
	for i := range wave {
		wave[i] = &netreduce.Packet{Src: int32(i), Count: 1, Values: []any{int64(i * 37 % 101)}}
	}
	return wave
}

// BenchmarkLuaFilterWave is one call of the topk example filter on a wave of 64 packets
// from back-ends: the per-wave cost of a Lua filter in a tree node.
func BenchmarkLuaFilterWave(b *testing.B) {
	f, err := LoadLuaFilter("../examples/filters/topk.lua", 0)
	if err != nil {
		b.Fatal(err)
	}
	tr, err := newLuaTransform(f.Spec(map[string]any{"k": 5.0}), netreduce.NodeInfo{})
	if err != nil {
		b.Fatal(err)
	}
	wave := topkWave(64)
	for b.Loop() {
		if _, err := tr.Filter(wave); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLuaFilterNode is the set-up of the topk filter in one tree node (stream,
// node), paid once per node when a stream is created.
func BenchmarkLuaFilterNode(b *testing.B) {
	f, err := LoadLuaFilter("../examples/filters/topk.lua", 0)
	if err != nil {
		b.Fatal(err)
	}
	spec := f.Spec(map[string]any{"k": 5.0})
	for b.Loop() {
		tr, err := newLuaTransform(spec, netreduce.NodeInfo{})
		if err != nil {
			b.Fatal(err)
		}
		tr.Close()
	}
}
