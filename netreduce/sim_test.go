package netreduce

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// randomTopology draws a tree of 1-5 levels with fan-outs 1-16 and at most maxBack back-ends.
func randomTopology(rng *rand.Rand, maxBack int) *Topology {
	for {
		levels := 1 + rng.Intn(5)
		frontier := 1
		var fields []string
		for l := 0; l < levels; l++ {
			fans := make([]string, frontier)
			next := 0
			for i := range fans {
				f := 1 + rng.Intn(16)
				fans[i] = fmt.Sprint(f)
				next += f
			}
			if next > maxBack {
				break
			}
			fields = append(fields, strings.Join(fans, ","))
			frontier = next
		}
		if len(fields) == 0 {
			continue
		}
		t, err := Generate("g:" + strings.Join(fields, ":"))
		if err != nil {
			panic(err)
		}
		return t
	}
}

// sim drives the pure state machines of a whole tree in one goroutine, delivering the
// messages of randomly chosen links (each link stays FIFO), so every interleaving the
// real transports could produce is reachable from a seed.
type sim struct {
	topo   *Topology
	nodes  map[int]*Node
	host   *backendHost
	links  map[[2]int][]Msg // (from, to) -> FIFO
	active [][2]int         // links with messages, in no particular order
	pos    map[[2]int]int   // index in active
	rng    *rand.Rand
	app    []Msg
}

func newSim(topo *Topology, h BackendHandler, seed int64) *sim {
	s := &sim{topo: topo, nodes: map[int]*Node{}, links: map[[2]int][]Msg{}, pos: map[[2]int]int{},
		rng: rand.New(rand.NewSource(seed))}
	s.host = newBackendHost(topo, h, func(r int, err error) { panic(fmt.Sprintf("back-end %d: %v", r, err)) })
	for r := topo.Backends(); r < topo.Size(); r++ {
		s.nodes[r] = NewNode(topo, r)
	}
	return s
}

func (s *sim) enqueue(m Msg) {
	k := [2]int{int(m.From), int(m.To)}
	if len(s.links[k]) == 0 {
		s.pos[k] = len(s.active)
		s.active = append(s.active, k)
	}
	s.links[k] = append(s.links[k], m)
}

// post injects an application message at the front-end.
func (s *sim) post(m Msg) {
	m.From, m.To = -1, int32(s.topo.Root())
	s.enqueue(m)
}

// run delivers messages in random link order until nothing is in flight.
func (s *sim) run() {
	for len(s.active) > 0 {
		k := s.active[s.rng.Intn(len(s.active))]
		q := s.links[k]
		n := 1 + s.rng.Intn(len(q))
		batch := q[:n]
		s.links[k] = q[n:]
		if len(s.links[k]) == 0 {
			s.drop(k)
		}
		for _, m := range batch {
			s.deliver(m)
		}
	}
}

func (s *sim) drop(k [2]int) {
	i := s.pos[k]
	last := s.active[len(s.active)-1]
	s.active[i], s.pos[last] = last, i
	s.active = s.active[:len(s.active)-1]
	delete(s.pos, k)
}

func (s *sim) deliver(m Msg) {
	to := int(m.To)
	switch {
	case to < 0:
		s.app = append(s.app, m)
	case s.topo.IsBackend(to):
		if s.nodes[int(m.From)] != nil {
			s.host.Deliver(m, s.enqueue)
		}
	default:
		node := s.nodes[to]
		if node == nil {
			return
		}
		node.Step(m)
		for _, o := range node.Take() {
			s.enqueue(o)
		}
	}
}

// data returns and forgets the packets that reached the application.
func (s *sim) data(t *testing.T) []*Packet {
	var out []*Packet
	for _, m := range s.app {
		switch m.Kind {
		case MsgData:
			out = append(out, m.Packet)
		case MsgFault:
			t.Fatalf("filter fault at rank %d: %s", m.Origin, m.Text)
		}
	}
	s.app = nil
	return out
}
