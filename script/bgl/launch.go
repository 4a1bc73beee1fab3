package bgl

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"

	machine "github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/runtime"
	"github.com/dpclsh/dpclsh/script"
	lua "github.com/yuin/gopher-lua"
)

// JobTypeName is the Lua type of a job bgl.launch started; dpcl.attach accepts one.
const JobTypeName = "bgl.Job"

const bglLaunchDoc = `bgl.launch(exe, {nodes =, per_io =, args = {...}, env = {...}, workdir =, label =, seed =, memory_mb =, disk_quota_mb =, listen =, secret_file =, quiet =}) -> Job
Starts a static PowerPC ELF running, without a tool (the options of bgl.run). Its output goes
to the session's (quiet = true: discarded). The job advances only in job:run(virtual_s) and job:wait(), or, once a tool
attached (dpcl.attach(job)), as the tool's application is waited on. listen = "127.0.0.1:PORT"
(port 0: any; job:address() tells) publishes the job's proctable and debug interface so that
another dpclsh attaches to it while job:run/job:wait run it (dpcl.attach(addr, {secret_file =}));
the secret comes from secret_file, else DPCLSH_COMM_SECRET. Methods: job:run(virtual_s) ->
"time"|"done"|"idle", job:wait() -> status (the highest rank status), job:now() -> ns,
job:address(), job:proctable(), job:close().`

var jobMethods = []script.Function{
	{Name: "run", Doc: `job:run(virtual_s) -> "time"|"done"|"idle"
Advances the job by virtual_s virtual seconds (serving a tool that attaches over listen).`, Fn: jobRun},
	{Name: "wait", Doc: "job:wait() -> status\nRuns the job to its end; status is the highest rank status.", Fn: jobWait},
	{Name: "now", Doc: "job:now() -> ns\nThe job's virtual time.", Fn: func(L *lua.LState) int {
		L.Push(lua.LNumber(script.CheckObject[*Job](L, 1, JobTypeName).j.Now()))
		return 1
	}},
	{Name: "address", Doc: "job:address() -> \"host:port\" | nil\nWhere tools attach (listen), nil without.", Fn: jobAddress},
	{Name: "proctable", Doc: "job:proctable() -> {{rank=, node=, ionode=, pid=, exe=}, ...}\nThe MPIR proctable (0-based).", Fn: jobProctable},
	{Name: "close", Doc: "job:close()\nEnds the job (and stops publishing it).", Fn: func(L *lua.LState) int {
		if err := script.CheckObject[*Job](L, 1, JobTypeName).Close(); err != nil {
			L.RaiseError("job:close: %v", err)
		}
		return 0
	}},
}

// Job is a job bgl.launch started: the machine, and the publisher tools attach through.
type Job struct {
	j      *machine.Job
	pub    *runtime.Publisher
	status []int
	closed bool
}

// Machine is the running job, for dpcl.attach; an error once it is closed.
func (jb *Job) Machine() (*machine.Job, error) {
	if jb.closed {
		return nil, errors.New("the job is closed")
	}
	return jb.j, nil
}

// Close ends the job.
func (jb *Job) Close() error {
	if jb.closed {
		return nil
	}
	jb.closed = true
	if jb.pub != nil {
		jb.pub.Close()
	}
	return jb.j.Close()
}

func checkJob(L *lua.LState) *Job {
	jb := script.CheckObject[*Job](L, 1, JobTypeName)
	if jb.closed {
		L.RaiseError("the job is closed")
	}
	if t := jb.j.Tool(); t != "" {
		L.RaiseError("the job has a tool attached (%s): it runs as the tool's application is waited on", t)
	}
	return jb
}

func bglLaunch(L *lua.LState) int {
	script.RefuseSharded(L, "bgl.launch")
	exe := L.CheckString(1)
	opts := L.OptTable(2, nil)
	cfg := runConfig(L, exe, opts)
	s := script.SessionOf(L)
	cfg.Capture, cfg.Stdout, cfg.Stderr = false, s.Stdout(), s.Stderr()
	if opts != nil && lua.LVAsBool(opts.RawGetString("quiet")) {
		cfg.Stdout, cfg.Stderr = nil, nil
	}
	j, err := machine.Launch(cfg)
	if err != nil {
		L.RaiseError("bgl.launch: %s", script.ErrorReason(err, "bgl"))
	}
	jb := &Job{j: j, status: make([]int, j.Size())}
	j.OnEvent(func(ev machine.Event) {
		if ev.Kind == machine.EventExit || ev.Kind == machine.EventFault {
			jb.status[ev.Rank] = ev.Status
		}
	})
	if opts != nil {
		if addr, ok := opts.RawGetString("listen").(lua.LString); ok {
			secretFile := lua.LVAsString(opts.RawGetString("secret_file"))
			if jb.pub, err = publish(string(addr), secretFile, s); err != nil {
				j.Close()
				L.RaiseError("bgl.launch: listen: %v", err)
			}
		}
	}
	j.Start()
	s.OnClose(jb)
	ud := script.NewObject(L, JobTypeName, jb)
	L.Push(ud)
	return 1
}

func publish(addr, secretFile string, s *script.Session) (*runtime.Publisher, error) {
	secret, err := netreduce.LoadSecret(secretFile)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return runtime.Publish(ln, secret, s.Stderr()), nil
}

// runUntil advances the job, through its publisher when it has one.
func (jb *Job) runUntil(s *script.Session, limit uint64) machine.StopReason {
	stop := context.AfterFunc(s.Context(), jb.j.Pause)
	defer stop()
	if jb.pub != nil {
		return jb.pub.RunUntil(s.Context(), jb.j, limit)
	}
	return jb.j.RunUntil(limit)
}

func jobRun(L *lua.LState) int {
	jb := checkJob(L)
	secs := float64(L.CheckNumber(2))
	if !(secs >= 0) || math.IsInf(secs, 1) {
		L.ArgError(2, "virtual_s must be a non-negative number of virtual seconds")
	}
	s := script.SessionOf(L)
	r := jb.runUntil(s, jb.j.Now()+uint64(secs*1e9))
	if s.Context().Err() != nil {
		return script.Raise(L, s.StopError())
	}
	L.Push(lua.LString(r.String()))
	return 1
}

func jobWait(L *lua.LState) int {
	jb := checkJob(L)
	s := script.SessionOf(L)
	r := jb.runUntil(s, math.MaxUint64)
	if s.Context().Err() != nil {
		return script.Raise(L, s.StopError())
	}
	if r != machine.StopDone {
		L.RaiseError("job:wait: the job stopped (%v) before its end", r)
	}
	hi := 0
	for _, st := range jb.status {
		hi = max(hi, st)
	}
	L.Push(lua.LNumber(hi))
	return 1
}

func jobAddress(L *lua.LState) int {
	jb := script.CheckObject[*Job](L, 1, JobTypeName)
	if jb.pub == nil {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(lua.LString(jb.pub.Addr()))
	return 1
}

func jobProctable(L *lua.LState) int {
	jb := script.CheckObject[*Job](L, 1, JobTypeName)
	out := L.CreateTable(jb.j.Size(), 0)
	for _, e := range jb.j.Proctable() {
		t := L.CreateTable(0, 5)
		t.RawSetString("rank", lua.LNumber(e.Rank))
		t.RawSetString("node", lua.LNumber(e.Node))
		t.RawSetString("ionode", lua.LNumber(e.IONode))
		t.RawSetString("pid", lua.LNumber(e.Pid))
		t.RawSetString("exe", lua.LString(e.Exe))
		out.Append(t)
	}
	L.Push(out)
	return 1
}

func init() {
	script.RegisterType(script.Type{
		Name: JobTypeName, Receiver: "job",
		Doc:     "a job bgl.launch started, without a tool: the methods below",
		Methods: jobMethods,
		Meta: []script.Function{
			{Name: "__tostring", Doc: "tostring(job)", Fn: func(L *lua.LState) int {
				jb := script.CheckObject[*Job](L, 1, JobTypeName)
				L.Push(lua.LString(fmt.Sprintf("bgl.Job(%d ranks, %d ns)", jb.j.Size(), jb.j.Now())))
				return 1
			}},
		},
	})
}
