package bgl

import (
	"bytes"
	"fmt"

	machine "github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/script"
	lua "github.com/yuin/gopher-lua"
)

func init() {
	script.RegisterModule(script.Module{
		Name: "bgl",
		Doc: `bgl — the simulated Blue Gene/L machine without a tool: partitions, plain runs, and
jobs a tool may attach to while they run (bgl.launch; dpcl.attach).
Ranks map to compute nodes in order, compute node n to I/O node n // per_io; every file
call is shipped to the I/O node and confined to the working directory.`,
		Funcs: []script.Function{
			{Name: "partition", Doc: `bgl.partition{nodes = N, per_io = K} -> Partition
N compute nodes (1..65536) and one I/O node per K (8..64, default 64). Fields: nodes, per_io,
ionodes, shape ({X, Y, Z} torus). Methods: p:ionode(rank), p:coord(rank) -> x, y, z,
p:ranks(ionode) -> {first, ..., last}, p:hops(a, b) (torus distance). Accepted by the ctx
constructors in place of an application.`, Fn: bglPartition},
			{Name: "run", Doc: `bgl.run(exe, {nodes =, per_io =, args = {...}, env = {...}, workdir =, label =, seed =, memory_mb =, disk_quota_mb =}) -> result
Runs a static PowerPC ELF to its end (env: "NAME=value" strings; default none). result.status is the job status (the highest rank
status; 128+S for a rank killed by signal S); memory_mb is each node's memory (default
512), disk_quota_mb bounds the job's file growth in workdir (default 512); result.codes[rank], result.stdout[rank] and
result.stderr[rank] are per rank (0-based); result.output and result.errors are the merged
streams in the documented order; result.faults lists {rank=, pc=, signal=}; result.time_ns
and result.instructions measure the run.`, Fn: bglRun},
			{Name: "launch", Doc: bglLaunchDoc, Fn: bglLaunch},
		},
		Init: func(_ *script.Session, mod *lua.LTable) {
			mod.RawSetString("max_nodes", lua.LNumber(machine.MaxNodes))
			mod.RawSetString("default_per_io", lua.LNumber(machine.DefaultPerIO))
		},
	})
	script.RegisterType(script.Type{
		Name: partitionTypeName, Receiver: "part",
		Doc: "a Blue Gene/L partition: compute nodes, I/O nodes, torus",
		Meta: []script.Function{
			{Name: "__index", Doc: "p.field or p:method(...)", Fn: partitionIndex},
			{Name: "__tostring", Doc: "tostring(p)", Fn: func(L *lua.LState) int {
				L.Push(lua.LString(checkPartition(L, 1).String()))
				return 1
			}},
			{Name: "__len", Doc: "#p -> nodes", Fn: func(L *lua.LState) int {
				L.Push(lua.LNumber(checkPartition(L, 1).Nodes))
				return 1
			}},
		},
	})
}

const partitionTypeName = "bgl.Partition"

func checkPartition(L *lua.LState, n int) *machine.Partition {
	return script.CheckObject[*machine.Partition](L, n, partitionTypeName)
}

// optField returns integer field name of table t, or def when absent.
func optField(L *lua.LState, t *lua.LTable, name string, def int) int {
	v := t.RawGetString(name)
	if v == lua.LNil {
		return def
	}
	i, ok := script.LuaInt(v)
	if !ok {
		L.RaiseError("%s must be an integer, got %s", name, script.Describe(v))
	}
	return i
}

func bglPartition(L *lua.LState) int {
	t := L.CheckTable(1)
	p, err := machine.NewPartition(optField(L, t, "nodes", 1), optField(L, t, "per_io", machine.DefaultPerIO))
	if err != nil {
		L.RaiseError("bgl.partition: %s", script.ErrorReason(err, "bgl"))
	}
	L.Push(script.NewObject(L, partitionTypeName, p))
	return 1
}

var partitionMethods = map[string]lua.LGFunction{
	"ionode": func(L *lua.LState) int {
		p := checkPartition(L, 1)
		L.Push(lua.LNumber(p.IONodeOf(p.NodeOf(checkRank(L, p, 2)))))
		return 1
	},
	"coord": func(L *lua.LState) int {
		p := checkPartition(L, 1)
		c := p.Coord(p.NodeOf(checkRank(L, p, 2)))
		L.Push(lua.LNumber(c.X))
		L.Push(lua.LNumber(c.Y))
		L.Push(lua.LNumber(c.Z))
		return 3
	},
	"ranks": func(L *lua.LState) int {
		p := checkPartition(L, 1)
		io := script.CheckInt(L, 2, "ionode")
		if io < 0 || io >= p.IONodes() {
			L.ArgError(2, fmt.Sprintf("I/O node %d out of range 0..%d", io, p.IONodes()-1))
		}
		first, end := p.NodesOf(io)
		out := L.CreateTable(end-first, 0)
		for r := first; r < end; r++ {
			out.Append(lua.LNumber(r))
		}
		L.Push(out)
		return 1
	},
	"hops": func(L *lua.LState) int {
		p := checkPartition(L, 1)
		L.Push(lua.LNumber(p.Hops(checkRank(L, p, 2), checkRank(L, p, 3))))
		return 1
	},
}

func checkRank(L *lua.LState, p *machine.Partition, n int) int {
	r := script.CheckInt(L, n, "rank")
	if r < 0 || r >= p.Nodes {
		L.ArgError(n, fmt.Sprintf("rank %d out of range 0..%d", r, p.Nodes-1))
	}
	return r
}

func partitionIndex(L *lua.LState) int {
	p := checkPartition(L, 1)
	key := L.CheckString(2)
	switch key {
	case "nodes":
		L.Push(lua.LNumber(p.Nodes))
	case "per_io":
		L.Push(lua.LNumber(p.PerIO))
	case "ionodes":
		L.Push(lua.LNumber(p.IONodes()))
	case "shape":
		t := L.CreateTable(3, 0)
		for _, d := range p.Shape {
			t.Append(lua.LNumber(d))
		}
		L.Push(t)
	default:
		fn, ok := partitionMethods[key]
		if !ok {
			L.Push(lua.LNil)
			return 1
		}
		L.Push(L.NewFunction(fn))
	}
	return 1
}

// runConfig reads bgl.run's options table.
func runConfig(L *lua.LState, exe string, opts *lua.LTable) machine.JobConfig {
	cfg := machine.JobConfig{Exe: exe, Nodes: 1, PerIO: machine.DefaultPerIO, Workdir: ".", Capture: true}
	if opts == nil {
		return cfg
	}
	cfg.Nodes = optField(L, opts, "nodes", 1)
	cfg.PerIO = optField(L, opts, "per_io", machine.DefaultPerIO)
	cfg.Seed = uint64(optField(L, opts, "seed", 0))
	cfg.MemoryMB = optField(L, opts, "memory_mb", machine.DefaultMemoryMB)
	cfg.DiskQuotaMB = optField(L, opts, "disk_quota_mb", machine.DefaultDiskQuotaMB)
	if w, ok := opts.RawGetString("workdir").(lua.LString); ok {
		cfg.Workdir = string(w)
	}
	cfg.Label = lua.LVAsBool(opts.RawGetString("label"))
	cfg.Args = stringList(L, opts, "args")
	cfg.Env = stringList(L, opts, "env")
	return cfg
}

// stringList reads the array field name of opts (absent: nil).
func stringList(L *lua.LState, opts *lua.LTable, name string) []string {
	var out []string
	switch a := opts.RawGetString(name).(type) {
	case *lua.LTable:
		for i := 1; i <= a.Len(); i++ {
			out = append(out, lua.LVAsString(a.RawGetInt(i)))
		}
	case *lua.LNilType:
	default:
		L.RaiseError("bgl.run: %s must be a table of strings, got %s", name, script.Describe(a))
	}
	return out
}

func bglRun(L *lua.LState) int {
	script.RefuseSharded(L, "bgl.run")
	exe := L.CheckString(1)
	cfg := runConfig(L, exe, L.OptTable(2, nil))
	if _, err := machine.NewPartition(cfg.Nodes, cfg.PerIO); err != nil {
		L.RaiseError("bgl.run: %s", script.ErrorReason(err, "bgl"))
	}
	var out, errs bytes.Buffer
	cfg.Stdout, cfg.Stderr = &out, &errs
	// Ctrl-C (and os.exit from a callback) pauses the machine and stops the chunk.
	s := script.SessionOf(L)
	res, err := machine.RunContext(s.Context(), cfg)
	if s.Context().Err() != nil {
		return script.Raise(L, s.StopError())
	}
	if res == nil {
		L.RaiseError("bgl.run: %s", script.ErrorText(err, "bgl"))
	}
	L.Push(runResultTable(L, res, out.String(), errs.String()))
	if err != nil {
		L.Push(lua.LString(err.Error()))
		return 2
	}
	return 1
}

func runResultTable(L *lua.LState, res *machine.RunResult, out, errs string) *lua.LTable {
	t := L.NewTable()
	t.RawSetString("status", lua.LNumber(res.ExitStatus()))
	codes, so, se := L.NewTable(), L.NewTable(), L.NewTable()
	for r, st := range res.Status {
		codes.RawSetInt(r, lua.LNumber(st))
		so.RawSetInt(r, lua.LString(res.Stdout[r]))
		se.RawSetInt(r, lua.LString(res.Stderr[r]))
	}
	faults := L.NewTable()
	for _, ev := range res.Exits {
		if ev.Signal != 0 {
			f := L.NewTable()
			f.RawSetString("rank", lua.LNumber(ev.Rank))
			f.RawSetString("pc", script.PushAddress(L, ev.PC))
			f.RawSetString("signal", lua.LNumber(ev.Signal))
			faults.Append(f)
		}
	}
	for k, v := range map[string]lua.LValue{"codes": codes, "stdout": so, "stderr": se, "faults": faults,
		"output": lua.LString(out), "errors": lua.LString(errs), "size": lua.LNumber(len(res.Status)),
		"time_ns": lua.LNumber(res.TimeNS), "instructions": lua.LNumber(res.Instructions)} {
		t.RawSetString(k, v)
	}
	return t
}
