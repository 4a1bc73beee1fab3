// Package netreduce is the Lua module netreduce: the MRNet-style reduction tree on its
// own (netreduce.new, net:stream, s:send, s:recv). It keeps its directory's name and
// imports the tree (package netreduce at the repository root) as tree.
//
// It registers itself with the kernel (package script) from init; script/std imports it.
// It imports the kernel, script/luavm and script/packetvalue; a filter object reaches it
// through script.FilterSource, so it does not import script/filter.
package netreduce
