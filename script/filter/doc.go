// Package filter is the Lua module filter (filter.load, filter.builtins, f:apply) and the
// runtime of Lua filters: a filter file runs on every node of a reduction tree, in pooled
// sandboxed states (script/luavm) under an instruction and memory budget. Its init
// registers the "lua" filter kind with netreduce, so `dpclsh comm` processes run Lua
// filters too, and registers the module with the kernel (package script); script/std
// imports it.
//
// It imports the kernel, script/luavm and script/packetvalue, and no other module. A filter
// object's Go value (*LuaFilter) satisfies script.FilterSource, which is how streams and
// probes take it without importing this package.
package filter
