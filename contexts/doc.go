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
//   - A Set is a bitset over plain uint64 words with the bits beyond Size() kept zero.
//     Union, intersection, counting and iteration are word loops: at 1,048,576 ranks a
//     union is tens of microseconds and a full iteration about a millisecond (see
//     bench_test.go), so compressed forms would buy nothing a probe context needs.
//   - Sizes range over [0, MaxSize]; combining sets of different sizes is a *MismatchError
//     naming both sizes, while Equal simply reports false.
//   - The compact spec is decimal ranks and ascending inclusive ranges separated by commas;
//     blanks around items are allowed; overlaps and any order are accepted; "" is empty.
//     String prints every run of two or more ranks as "lo-hi", so Parse(String()) is the
//     identity. Errors are *SpecError values carrying the offending item and its byte offset.
//   - Sample uses selection sampling driven by PCG-DXSM with a fixed stream constant and the
//     user's seed, so a sample never changes across runs, machines or Go versions.
//   - IONodeGroup assumes ranks are assigned to I/O nodes in consecutive groups (64 per
//     I/O node by default, as on the LLNL machine); TorusBox places rank r at
//     (r mod X, r/X mod Y, r/(X·Y)) and lets a box wrap around the torus.
//   - An Aggregation needs exactly one of a filter name or an opaque handle; the sync mode
//     defaults to waitforall, and a timeout goes with sync "timeout" only.
package contexts
