package main

import (
	"bytes"
	"path/filepath"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

const limpioMessagesChunk = `
local app = dpcl.launch(EXE, {nodes = NODES, per_io = 64, args = {"400", "2"}, quiet = true})
local prof = limpio.profile(app, {per_rank = false, top_ranks = 8})
app:start()
local st = app:wait()
assert(st.exited == NODES, "not every rank exited: " .. tostring(st.exited))
prof:callsites()
local s = prof:stats()
MESSAGES, DELIVERED = s.messages, s.delivered
app:close()
`

// frontEndMessages profiles imbalance on n ranks as dpclsh profile does by default (no
// per-rank rows, the top 8 ranks chosen in the tree) and returns the messages the
// front-end received and the ranks' packets merged into them.
func frontEndMessages(t *testing.T, n int) (messages, delivered int) {
	t.Helper()
	var out bytes.Buffer
	s, err := newSession(false, 0, &out, &out)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.L.SetGlobal("EXE", lua.LString(filepath.Join("..", "..", "examples", "apps", "bin", "imbalance.elf")))
	s.L.SetGlobal("NODES", lua.LNumber(n))
	if err := s.DoString(limpioMessagesChunk, "front-end messages"); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	return int(s.L.GetGlobal("MESSAGES").(lua.LNumber)), int(s.L.GetGlobal("DELIVERED").(lua.LNumber))
}

// TestProfileFrontEndMessagesIndependentOfRanks: a profile's rows, callsites and top ranks
// are reduced in the tree, so the front-end receives the same number of messages from 16
// ranks as from 64 (and fewer than 16), while the ranks' packets merged into them grow
// with the ranks.
func TestProfileFrontEndMessagesIndependentOfRanks(t *testing.T) {
	m16, d16 := frontEndMessages(t, 16)
	m64, d64 := frontEndMessages(t, 64)
	t.Logf("16 ranks: %d messages (%d packets merged); 64 ranks: %d messages (%d packets merged)", m16, d16, m64, d64)
	if m16 == 0 || m16 != m64 {
		t.Errorf("the front-end received %d messages from 16 ranks and %d from 64, want the same number", m16, m64)
	}
	if m16 >= 16 {
		t.Errorf("the front-end received %d messages from 16 ranks: not reduced in the tree", m16)
	}
	if d64 <= d16 {
		t.Errorf("packets merged: %d from 16 ranks, %d from 64: each rank's should be in", d16, d64)
	}
}
