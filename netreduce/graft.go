package netreduce

// Graft returns upper with per[i] new back-ends under each of its back-ends i, which
// become internal nodes: a job's tree is the levels a user describes (comm nodes above
// the I/O-node daemons) with the machine's own level (compute nodes per I/O node) below.
// The new back-ends are numbered depth-first, so those of upper's back-end i come
// before those of back-end i+1.
func Graft(upper *Topology, per []int) (*Topology, error) {
	if len(per) != upper.Backends() {
		return nil, errorf("graft: the topology has %d back-ends for %d groups", upper.Backends(), len(per))
	}
	g := &builder{}
	var walk func(r, parent int) error
	walk = func(r, parent int) error {
		id, err := g.add(parent)
		if err != nil {
			return err
		}
		if upper.IsBackend(r) {
			if per[r] < 1 {
				return errorf("graft: back-end %d gets %d children", r, per[r])
			}
			for range per[r] {
				if _, err := g.add(id); err != nil {
					return err
				}
			}
			return nil
		}
		for _, c := range upper.Children(r) {
			if err := walk(c, id); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(upper.Root(), -1); err != nil {
		return nil, err
	}
	return g.topology("graft")
}
