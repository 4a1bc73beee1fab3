package script

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/dpclsh/dpclsh/bgl/shard"
)

// A sharded session (mpiexec -n P dpclsh --shards SCRIPT.lua) is one of P processes that
// all run the same script: dpcl.launch spreads its job's psets over them and the tool
// runs whole in each (runtime.Options.Shard), and only process 0's streams get output.
// What does not run across shards yet refuses, naming itself (RefuseSharded).
var shardKey = NewKey[shard.Exchanger]("shard")

// SetShard makes s one process of a sharded run.
func SetShard(s *Session, ex shard.Exchanger) { shardKey.Set(s, ex) }

// ShardOf is the exchanger of the sharded run s belongs to; nil for a session alone.
func ShardOf(s *Session) shard.Exchanger {
	ex, _ := shardKey.Get(s)
	return ex
}

// RefuseSharded raises an error naming what (a Lua function) when L's session is a
// sharded run's: it does not run across shards yet.
func RefuseSharded(L *lua.LState, what string) {
	if ShardOf(SessionOf(L)) != nil {
		L.RaiseError("%s does not run across shards yet (run without --shards)", what)
	}
}
