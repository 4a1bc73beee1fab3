package contexts_test

import (
	"fmt"

	"github.com/dpclsh/dpclsh/contexts"
)

func Example() {
	all := contexts.All(256)
	root, _ := contexts.Single(256, 0)
	head, _ := contexts.Parse(256, "0-127")
	rest, _ := all.Difference(root)
	c, _ := rest.Intersect(head)
	fmt.Println(c, c.Count())

	s, _ := c.Sample(5, 42)
	fmt.Println(s.Count(), "ranks sampled")

	ctx, _ := contexts.New(c.Complement(), &contexts.Aggregation{Filter: "sum"})
	fmt.Println(ctx)
	// Output:
	// 1-127 127
	// 6 ranks sampled
	// ctx{0,128-255} (129 of 256) filter=sum sync=waitforall
}
