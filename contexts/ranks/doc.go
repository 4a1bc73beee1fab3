// Package ranks is dpclsh's vocabulary of rank sets: Set, a bitset over [0, n) with its
// algebra, and the compact rank spec ("0-127,200") that Parse reads and String prints.
// It is a leaf (standard library only) so that probe contexts, the reduction tree and the
// runtime share one type and one parser.
//
// Usage:
//
//	all := ranks.All(1024)
//	head, _ := ranks.Parse(1024, "0-127,200")
//	c, _ := all.Intersect(head)
//	s, _ := c.Sample(10, 42)  // exactly floor(#c*10/100 + 0.5) ranks
//	fmt.Println(s)            // "3,17,40-41,..."
//
// Choices:
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
//
// Errors: those the package makes start "ranks: " and are an *Error (wrapping the cause) or
// one of its own types carrying the rank, address or position it concerns; each has
// Package and Unprefixed, which the Lua host uses to name the Lua function instead.
package ranks
