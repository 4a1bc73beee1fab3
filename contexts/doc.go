// Package contexts implements probe contexts (DPCL on BG/L, section 4): sets of MPI ranks
// with their algebra, and a Context that pairs such a set with an optional aggregation
// spec. It imports only the standard library; the runtime resolves an Aggregation to a
// reduction-tree filter, and the reduction tree decides which of its nodes serve a set.
//
// Usage:
//
//	all := contexts.All(1024)
//	head, _ := contexts.Parse(1024, "0-127,200")
//	c, _ := all.Intersect(head)              // merge = Union, invert = Complement
//	s, _ := c.Sample(10, 42)                 // exactly floor(#c*10/100 + 0.5) ranks
//	fmt.Println(s)                           // compact form, e.g. "3,17,40-41,..."
//	ctx, _ := contexts.New(s, &contexts.Aggregation{Filter: "sum"})
//
// Choices where DESIGN.md is silent:
//
//   - Set, its compact spec (Parse, String) and Sample live in the leaf package
//     contexts/ranks, the rank-set vocabulary of the project, shared with the runtime's
//     commands; the reduction tree, standard library only (DESIGN.md section 1), keeps a
//     bitmap of back-ends and the runtime converts at install. This package names them
//     (Set, None, All, Parse...) and adds the selections and the Context.
//   - IONodeGroup assumes ranks are assigned to I/O nodes in consecutive groups (64 per
//     I/O node by default, as on the LLNL machine); TorusBox places rank r at
//     (r mod X, r/X mod Y, r/(X·Y)) and lets a box wrap around the torus.
//   - An Aggregation needs exactly one of a filter name or an opaque handle; the sync mode
//     defaults to waitforall, and a timeout goes with sync "timeout" only.
//
// Errors: those the package makes start "contexts: " and are an *Error (wrapping the cause) or
// one of its own types carrying the rank, address or position it concerns; each has
// Package and Unprefixed, which the Lua host uses to name the Lua function instead.
package contexts
