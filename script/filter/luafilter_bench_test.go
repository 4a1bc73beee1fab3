package filter

import (
	"github.com/dpclsh/dpclsh/script"
	"testing"

	"github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/script/luavm"
	lua "github.com/yuin/gopher-lua"
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
	f, err := LoadLuaFilter("../../examples/filters/topk.lua", 0)
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
	f, err := LoadLuaFilter("../../examples/filters/topk.lua", 0)
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

// BenchmarkConcat is a loop of short concatenations, in a session (each a .. b is a call
// of the size check) and in a plain gopher-lua state (the VM's own concatenation).
func BenchmarkConcat(b *testing.B) {
	const src = `local n = ... local s = "" for i = 1, n do s = "k" .. (i % 10) .. "v" end return s`
	b.Run("gopher", func(b *testing.B) {
		L := lua.NewState()
		defer L.Close()
		fn, err := L.LoadString(src)
		if err != nil {
			b.Fatal(err)
		}
		if err := L.CallByParam(lua.P{Fn: fn, Protect: true}, lua.LNumber(b.N)); err != nil {
			b.Fatal(err)
		}
	})
	b.Run("dpclsh", func(b *testing.B) {
		s := script.NewSession()
		defer s.Close()
		fn, err := s.Load(src, "concat.lua")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Call(fn, lua.LNumber(b.N)); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkPatterns is a loop of ordinary pattern calls (find, match, gmatch, gsub on a
// short line), in a plain gopher-lua state (package pm) and in a sandbox under a budget
// (luavm's pattern.go, each step counted).
func BenchmarkPatterns(b *testing.B) {
	const src = `local n = ... local line, k = "rank=12 time=3.5e-3 func=MPI_Allreduce", 0
for i = 1, n do
  k = k + #line:match("func=([%w_]+)") + (line:find("time=", 1, true) or 0) + select(2, line:gsub("%d", "#"))
  for key, v in line:gmatch("(%a+)=(%S+)") do k = k + #v end
end
return k`
	b.Run("gopher", func(b *testing.B) {
		L := lua.NewState()
		defer L.Close()
		fn, err := L.LoadString(src)
		if err != nil {
			b.Fatal(err)
		}
		if err := L.CallByParam(lua.P{Fn: fn, Protect: true}, lua.LNumber(b.N)); err != nil {
			b.Fatal(err)
		}
	})
	b.Run("dpclsh", func(b *testing.B) {
		L := luavm.NewSandbox()
		defer L.Close()
		fn, err := L.LoadString(src)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := luavm.CallWithBudget(L, luavm.Limits{Memory: luavm.DefaultMemory}, nil, fn, lua.LNumber(b.N)); err != nil {
			b.Fatal(err)
		}
	})
}
