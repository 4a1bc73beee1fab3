package netreduce

import "testing"

func TestGraft(t *testing.T) {
	upper, err := Generate("b:2^2")
	if err != nil {
		t.Fatal(err)
	}
	g, err := Graft(upper, []int{3, 3, 3, 1})
	if err != nil {
		t.Fatal(err)
	}
	if g.Backends() != 10 || g.Size() != 10+4+2+1 {
		t.Fatalf("%d back-ends, %d nodes", g.Backends(), g.Size())
	}
	// Back-ends 0-2 share a parent, 9 is alone under the last group, and each group's
	// parent sits under the comm node upper gave it.
	if p := g.Parent(0); g.Parent(2) != p || g.Parent(3) == p || len(g.Children(g.Parent(9))) != 1 {
		t.Fatalf("parents %d %d %d", g.Parent(0), g.Parent(2), g.Parent(3))
	}
	if g.Parent(g.Parent(0)) != g.Parent(g.Parent(3)) || g.Parent(g.Parent(0)) == g.Parent(g.Parent(6)) {
		t.Fatal("groups 0 and 1 must share a comm node, group 2 another")
	}
	if _, err := Graft(upper, []int{1, 1}); err == nil {
		t.Fatal("wrong group count accepted")
	}
}
