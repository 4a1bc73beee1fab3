// Package packetvalue converts the values of netreduce packets to Lua and back: numbers,
// strings, arrays and equivalence classes (see ToLua, FromLua). The kernel and the modules
// (filter, netreduce, dpcl) share it; it imports netreduce and gopher-lua only, so it sits
// below the kernel.
package packetvalue
