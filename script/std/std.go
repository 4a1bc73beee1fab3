// Package std gathers the Lua modules of dpclsh: importing it registers every module with
// the kernel (package script), so a session made afterwards has them all. cmd/dpclsh and
// the tests that run whole scripts import it; the kernel alone has only the host functions
// (print, help, ...) and the module tables it is given.
//
// Each module registers from its own init a description (functions, docs, types) and no
// session's data: what a module keeps for a session hangs on the Session under a Key.
// Listing the modules here, rather than in script.Options, keeps every existing caller of
// script.NewSession unchanged and makes the set of modules one import.
package std

import (
	_ "github.com/dpclsh/dpclsh/script/bgl"       // bgl.partition, bgl.run
	_ "github.com/dpclsh/dpclsh/script/ctx"       // ctx.all, ctx.ranks, ... and the Context type
	_ "github.com/dpclsh/dpclsh/script/dpcl"      // dpcl, probe: applications, probes, C modules
	_ "github.com/dpclsh/dpclsh/script/filter"    // filter.load, and the "lua" filter kind of netreduce
	_ "github.com/dpclsh/dpclsh/script/netreduce" // netreduce.new, netreduce.topology
	_ "github.com/dpclsh/dpclsh/script/plot"      // plot.lines, plot.bars
	_ "github.com/dpclsh/dpclsh/script/ppc"       // ppc.decode, ppc.disasm, ppc.encode
)
