package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// perfettoEvent is one entry of a Chrome trace's traceEvents.
type perfettoEvent struct {
	Name string         `json:"name"`
	Ph   string         `json:"ph"`
	Pid  *int           `json:"pid"`
	Tid  *int           `json:"tid"`
	Ts   float64        `json:"ts"`
	Dur  float64        `json:"dur"`
	ID   *int           `json:"id"`
	Bp   string         `json:"bp"`
	Args map[string]any `json:"args"`
}

// readPerfetto decodes a trace file with encoding/json.
func readPerfetto(t *testing.T, path string) []perfettoEvent {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []perfettoEvent `json:"traceEvents"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s does not parse: %v", path, err)
	}
	return doc.TraceEvents
}

var (
	sendCalls = map[string]bool{"MPI_Send": true, "MPI_Isend": true, "MPI_Sendrecv": true}
	recvCalls = map[string]bool{"MPI_Recv": true, "MPI_Irecv": true}
	// a flow's end sits in the receive or in the wait that completed an MPI_Irecv
	flowEnds = map[string]bool{"MPI_Recv": true, "MPI_Wait": true, "MPI_Waitall": true, "MPI_Sendrecv": true}
)

// checkPerfetto checks a trace of src's program: every slice has its arguments and a
// callsite on a line of src that makes the call, every track is named, and every flow
// goes from a send to a receive of the same message. It returns the slices per name and
// the flows.
func checkPerfetto(t *testing.T, evs []perfettoEvent, src string) (map[string]int, int) {
	t.Helper()
	text, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	site := regexp.MustCompile(`^` + regexp.QuoteMeta(filepath.Base(src)) + `:(\d+)$`)
	type track struct{ pid, tid int }
	threads, procs := map[track]string{}, map[int]string{}
	slices := map[track][]perfettoEvent{}
	names := map[string]int{}
	starts, ends := map[int]perfettoEvent{}, map[int]perfettoEvent{}
	for _, e := range evs {
		if e.Pid == nil || e.Tid == nil && !strings.HasPrefix(e.Name, "process_") {
			t.Fatalf("an event without pid or tid: %+v", e)
		}
		switch e.Ph {
		case "M":
			switch e.Name {
			case "process_name":
				procs[*e.Pid], _ = e.Args["name"].(string)
			case "thread_name":
				threads[track{*e.Pid, *e.Tid}], _ = e.Args["name"].(string)
			}
		case "X":
			names[e.Name]++
			slices[track{*e.Pid, *e.Tid}] = append(slices[track{*e.Pid, *e.Tid}], e)
			m := site.FindStringSubmatch(fmt.Sprint(e.Args["callsite"]))
			if m == nil {
				t.Fatalf("%s on rank %d: callsite %v, want %s:LINE", e.Name, *e.Tid, e.Args["callsite"], filepath.Base(src))
			}
			n, _ := strconv.Atoi(m[1])
			if !callOnLines(lines, n, e.Name) {
				t.Errorf("%s on rank %d: callsite line %d does not call it: %q", e.Name, *e.Tid, n, lines[n-1])
			}
			if sendCalls[e.Name] || recvCalls[e.Name] {
				for _, k := range []string{"peer", "tag", "bytes", "communicator"} {
					if _, ok := e.Args[k]; !ok {
						t.Fatalf("%s on rank %d: no %s in args %v", e.Name, *e.Tid, k, e.Args)
					}
				}
			}
		case "s", "f":
			if e.ID == nil {
				t.Fatalf("a flow event without id: %+v", e)
			}
			at := starts
			if e.Ph == "f" {
				at = ends
				if e.Bp != "e" {
					t.Errorf("flow %d ends with binding point %q, want e", *e.ID, e.Bp)
				}
			}
			if _, dup := at[*e.ID]; dup {
				t.Fatalf("flow id %d has two %q events", *e.ID, e.Ph)
			}
			at[*e.ID] = e
		}
	}
	for tr, list := range slices {
		want := fmt.Sprintf("rank %d (node ", tr.tid)
		if !strings.HasPrefix(threads[tr], want) || !strings.HasSuffix(threads[tr], fmt.Sprintf("I/O node %d)", tr.pid)) {
			t.Errorf("rank %d (%d slices): thread name %q", tr.tid, len(list), threads[tr])
		}
		if procs[tr.pid] != fmt.Sprintf("I/O node %d", tr.pid) {
			t.Errorf("pid %d: process name %q", tr.pid, procs[tr.pid])
		}
	}
	enclosing := func(e perfettoEvent) (perfettoEvent, bool) {
		for _, s := range slices[track{*e.Pid, *e.Tid}] {
			if s.Ts <= e.Ts && e.Ts <= s.Ts+s.Dur {
				return s, true
			}
		}
		return perfettoEvent{}, false
	}
	for id, s := range starts {
		f, ok := ends[id]
		if !ok {
			t.Fatalf("flow %d starts on rank %d and never finishes", id, *s.Tid)
		}
		send, ok1 := enclosing(s)
		recv, ok2 := enclosing(f)
		if !ok1 || !ok2 || !sendCalls[send.Name] || !flowEnds[recv.Name] {
			t.Fatalf("flow %d: from %q on rank %d to %q on rank %d", id, send.Name, *s.Tid, recv.Name, *f.Tid)
		}
		if int(send.Args["peer"].(float64)) != *f.Tid {
			t.Errorf("flow %d: %s to rank %v arrives on rank %d", id, send.Name, send.Args["peer"], *f.Tid)
		}
		from := map[string]string{"MPI_Recv": "peer", "MPI_Sendrecv": "source"}[recv.Name]
		if src, ok := recv.Args[from].(float64); from != "" && (!ok || int(src) != *s.Tid) {
			t.Errorf("flow %d: from rank %d to a %s from %v", id, *s.Tid, recv.Name, recv.Args[from])
		}
	}
	for id, f := range ends {
		if _, ok := starts[id]; !ok {
			t.Errorf("flow %d finishes on rank %d and never starts", id, *f.Tid)
		}
	}
	return names, len(starts)
}

// callOnLines says whether the statement around line n (1-based; a call may span lines
// above it) calls name.
func callOnLines(lines []string, n int, name string) bool {
	for i := n; i >= max(1, n-3) && i <= len(lines); i-- {
		if strings.Contains(lines[i-1], name+"(") {
			return true
		}
	}
	return false
}

const jacobiTraceChunk = `
local app = dpcl.launch("examples/apps/bin/jacobi.elf", {nodes = 12, per_io = 8, args = {"32", "4"}, quiet = true})
local tr = limpio.trace(app)
app:start()
app:wait()
INFO = tr:perfetto(PATH)
app:close()
`

// TestTracePerfettoArgsNamesFlows: jacobi (MPI_Isend, MPI_Irecv, MPI_Waitall) traced from
// Lua, and ring (MPI_Send, MPI_Recv, MPI_Isend, MPI_Wait, MPI_Sendrecv) by exec --trace: the JSON
// decodes, every slice has its arguments and callsite, every track its name, and each
// point-to-point message one arrow from its send to its receive.
func TestTracePerfettoArgsNamesFlows(t *testing.T) {
	inRoot(t)
	path := filepath.Join(t.TempDir(), "jacobi.json")
	var out bytes.Buffer
	s, err := newSession(false, 0, &out, &out)
	if err != nil {
		t.Fatal(err)
	}
	s.L.SetGlobal("PATH", lua.LString(path))
	if err := s.DoString(jacobiTraceChunk, "trace"); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	s.Close()
	names, flows := checkPerfetto(t, readPerfetto(t, path), "examples/apps/jacobi.c")
	if names["MPI_Isend"] == 0 || flows != names["MPI_Isend"] || names["MPI_Irecv"] != names["MPI_Isend"] {
		t.Errorf("jacobi: %d flows for %d MPI_Isend and %d MPI_Irecv", flows, names["MPI_Isend"], names["MPI_Irecv"])
	}

	path = filepath.Join(t.TempDir(), "ring.json")
	var stdout, stderr bytes.Buffer
	st := runExec(context.Background(), []string{"--nodes", "4", "--trace", path, "examples/apps/bin/ring.elf", "16", "2"}, nil, &stdout, &stderr)
	if st != exitOK || !strings.Contains(stdout.String(), "ring: done") {
		t.Fatalf("exec --trace: status %d, stdout %q, stderr %q", st, stdout.String(), stderr.String())
	}
	names, flows = checkPerfetto(t, readPerfetto(t, path), "examples/apps/ring.c")
	// ring moves 16 ints a message; calls that move no buffer have no bytes.
	for _, e := range readPerfetto(t, path) {
		b, has := e.Args["bytes"]
		switch {
		case e.Ph != "X":
		case sendCalls[e.Name] || recvCalls[e.Name]:
			if b != 64.0 {
				t.Errorf("ring: %s on rank %d moves %v bytes, want 64", e.Name, *e.Tid, b)
			}
		case e.Name == "MPI_Init" || e.Name == "MPI_Wait" || e.Name == "MPI_Finalize":
			if has {
				t.Errorf("ring: %s on rank %d has bytes %v", e.Name, *e.Tid, b)
			}
		}
	}
	sends := names["MPI_Send"] + names["MPI_Isend"] + names["MPI_Sendrecv"]
	if names["MPI_Sendrecv"] == 0 || flows != sends {
		t.Errorf("ring: %d flows for %d sends", flows, sends)
	}
	slices := 0
	for _, n := range names {
		slices += n
	}
	want := fmt.Sprintf("dpclsh exec: trace: %d events, %d flows, ", slices, flows)
	if !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("exec --trace says %q, want it to start %q", stderr.String(), want)
	}
}
