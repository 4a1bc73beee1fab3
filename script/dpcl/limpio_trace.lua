-- limpio_trace.lua: limpio.trace, timestamped MPI events buffered in each rank's memory (a
-- probe array of EVENTS records) and sent by the rank in one message when the buffer fills
-- and when the rank reaches _exit: never one message per event. The batches are decoded
-- in Go (app:event_log), which also writes the Perfetto JSON: no Lua runs per event.
-- Loaded after limpio.lua and limpio_bytes.lua.
local limpio = limpio
local format, concat = string.format, table.concat

local Trace = {}

-- A Trace reads its events from the Go log only when a script asks (tr.events): writing
-- Perfetto JSON needs no Lua table per event.
function Trace.__index(tr, k)
  if k == "events" then
    local n = tr.log:count()
    if tr.cached ~= n then tr.event_list, tr.cached = tr.log:events(), n end
    return tr.event_list
  elseif k == "messages" then
    return tr.log:messages()
  end
  return Trace[k]
end

-- calls are the MPI functions whose arguments a trace records besides the bytes they move
-- (limpio.message_bytes, sized as the report sizes them): the argument positions
-- (probe.arg) of the peer (dest, source or root), tag, communicator and request (where
-- MPI_Isend/MPI_Irecv put the handle; the first one MPI_Wait/MPI_Waitall complete, nreq of
-- them), and MPI_Sendrecv's source and receive tag (rpeer, rtag). kind says which calls
-- start ("send") and end ("recv", "irecv" at its wait, "sendrecv" both) a message's flow
-- in tr:perfetto.
local SEND = {peer = 3, tag = 4, comm = 5, kind = "send"}
local ISEND = {peer = 3, tag = 4, comm = 5, req = 6, kind = "send"}
-- A receive's bytes are its buffer's count x type (message_bytes counts sent bytes only):
-- sized as MPI_Send's, whose count and type sit in the same arguments.
local RECV = {peer = 3, tag = 4, comm = 5, kind = "recv", bytes_as = "MPI_Send"}
local IRECV = {peer = 3, tag = 4, comm = 5, req = 6, kind = "irecv", bytes_as = "MPI_Send"}
local ALLREDUCE = {comm = 5}
local GATHER = {peer = 6, comm = 7}
local ALLGATHER = {comm = 6}
-- MPI_Sendrecv's arguments past the eighth are on the caller's stack, the first at 8(r1)
-- at the entry (SysV PPC32).
local function stack(off) return {stack = off} end
local calls = {
  MPI_Sendrecv = {peer = 3, tag = 4, rpeer = stack(8), rtag = stack(12), comm = stack(16), kind = "sendrecv"},
  MPI_Sendrecv_replace = {peer = 3, tag = 4, rpeer = 5, rtag = 6, comm = 7, kind = "sendrecv"},
  MPI_Send = SEND, MPI_Ssend = SEND, MPI_Rsend = SEND, MPI_Bsend = SEND,
  MPI_Isend = ISEND, MPI_Issend = ISEND, MPI_Ibsend = ISEND, MPI_Irsend = ISEND,
  MPI_Recv = RECV, MPI_Irecv = IRECV,
  MPI_Wait = {req = 0, one_request = true, kind = "wait"},
  MPI_Waitall = {nreq = 0, req = 1, kind = "wait"},
  MPI_Bcast = {peer = 3, comm = 4},
  MPI_Reduce = {peer = 5, comm = 6},
  MPI_Allreduce = ALLREDUCE, MPI_Scan = ALLREDUCE, MPI_Exscan = ALLREDUCE,
  MPI_Gather = GATHER, MPI_Scatter = GATHER,
  MPI_Allgather = ALLGATHER, MPI_Alltoall = ALLGATHER,
  MPI_Barrier = {comm = 0},
}

-- CUR is the layout of what the entry probe keeps for the exit's record: the return
-- address, then the arguments, each absent unless the function's layout has it.
local CUR = {"lr", "bytes", "peer", "tag", "comm", "req", "nreq", "rpeer", "rtag"}

-- arg reads an argument at the entry: a register's (probe.arg) or a stack slot's.
local function arg(at)
  if type(at) == "table" then return probe.load(probe.sp(), "int", at.stack) end
  return probe.arg(at)
end

-- arguments_code is what the entry of name stores of its arguments in cur, and a key
-- that is the same for every function whose code is the same.
local function arguments_code(app, name, cur, absent)
  local c = calls[name] or {}
  local b = limpio.message_bytes(app, c.bytes_as or name)
  local set, key = {}, {}
  for i = 2, #CUR do
    local field, e = CUR[i], nil
    if field == "bytes" then
      e = b or probe.int64(absent)
    elseif field == "nreq" and c.one_request then
      e = probe.int64(1)
    elseif c[field] then
      e = arg(c[field])
    elseif field ~= "rpeer" and field ~= "rtag" then -- read only for the calls that set them
      e = probe.int64(absent)
    end
    if e then
      set[#set + 1] = cur[i - 1]:assign(e)
      key[#key + 1] = set[#set]:tostring()
    end
  end
  return probe.seq(set), table.concat(key, ";")
end

-- install_arguments queues in batch, at the entry of every function names lists, the code
-- that stores its arguments: one install per distinct code, at the entries of the
-- functions that share it, so that no probe compares probe.func() against a list of ids.
local function install_arguments(app, batch, names, cur, absent, context)
  local groups, order = {}, {}
  for _, name in ipairs(names) do
    local code, key = arguments_code(app, name, cur, absent)
    if not groups[key] then
      groups[key], order[#order + 1] = {code = code, points = {}}, key
    end
    for _, p in ipairs(app:points(name, "entry")) do table.insert(groups[key].points, p) end
  end
  local handles = {}
  for _, key in ipairs(order) do
    batch:add(groups[key].points, groups[key].code, {context = context},
      function(h) handles[#handles + 1] = h end)
  end
  return handles
end

function limpio.trace(app, opts)
  opts = opts or {}
  -- Fails now, before the run, when the trace could not be written after it.
  if opts.path then limpio.check_write(opts.path, 1) end
  local max = opts.max_events or 100000
  local fns = app:functions("*")
  local kinds = {}
  for name, c in pairs(calls) do
    if c.kind then kinds[name] = c.kind end
  end
  local log = app:event_log(kinds)
  -- A record is log.fields in order; a batch is as many records as probe.send's 256
  -- values hold beside the two counts.
  local at = {}
  for i, name in ipairs(log.fields) do at[name] = i - 1 end
  local FIELDS = #log.fields
  local EVENTS = math.floor(254 / FIELDS)
  local f, now = probe.func(), probe.point_timebase()
  local exits = limpio.exit_points(app)
  local buf = app:array("int64", FIELDS * EVENTS, "limpio_trace")
  local ctr = app:array("int", 3, "limpio_trace_ctr") -- next slot, recorded, dropped
  local cur = app:array("int64", #CUR, "limpio_trace_cur") -- what the open call's entry read
  local timers = app:stack("int64", opts.depth or 16, "limpio_trace_timers")
  -- The call's start is pushed by limpio.clock_in after the arguments are stored, its end
  -- is the exit trampoline's arrival: the interval holds none of the trace's own code.
  local start = cur[0]:assign(probe.lr())
  local i = ctr[0]
  local record = {buf[i + at.func]:assign(f), buf[i + at.start]:assign(timers:pop()),
    buf[i + at.finish]:assign(now)}
  for k, name in ipairs(CUR) do record[#record + 1] = buf[i + at[name]]:assign(cur[k - 1]) end
  record[#record + 1] = ctr[0]:assign(i + FIELDS)
  record[#record + 1] = ctr[1]:assign(ctr[1] + 1)
  -- A batch is the buffer, how many of its values are in use, and the rank's dropped count.
  local flush = probe.seq{probe.send(buf, ctr[0], ctr[2]), ctr[0]:assign(0)}
  local finish = probe.seq{
    probe.when(ctr[1]:lt(max), probe.seq(record), probe.seq{timers:pop(), ctr[2]:assign(ctr[2] + 1)}),
    probe.when(ctr[0]:ge(FIELDS * EVENTS), flush),
  }
  local tr = setmetatable({app = app, log = log, fns = fns, buf = buf, ctr = ctr, max_events = max}, Trace)
  local batch = limpio.installs(app)
  tr.hooks = limpio.hooks(app, {exclude = opts.exclude, context = opts.context,
    warn = opts.warn, start = start, finish = finish, installs = batch})
  tr.arguments = install_arguments(app, batch, tr.hooks.names, cur, log.absent, opts.context)
  limpio.clock_in(batch, tr.hooks, timers, opts.context, function(h) tr.clock = h end)
  -- What is left in the buffer leaves at the rank's exit, after MPI_Finalize and whatever
  -- it excluded, while the rank still exists.
  batch:add(exits, flush, {context = opts.context, print = false}, function(h) tr.at_exit = h end)
  batch:run()
  log:attach(tr.hooks.finish)
  log:attach(tr.at_exit)
  return tr
end

-- dropped sums the events every rank left out past max_events, as its batches said.
function Trace:dropped()
  return self.log:dropped()
end

-- write_lines writes lines to path, whole or not at all, joined in chunks (one concat of a
-- huge table overflows the interpreter's registry), and returns the bytes written. A
-- failure names the user's call of the method that wrote.
local function write_lines(path, lines, head, tail, sep)
  sep = sep or "\n"
  local parts = {head}
  for i = 1, #lines, 512 do
    local chunk = concat(lines, sep, i, math.min(i + 511, #lines))
    if i + 512 <= #lines then chunk = chunk .. sep end
    parts[#parts + 1] = chunk
  end
  parts[#parts + 1] = tail
  return limpio.write_file(path, parts, 2)
end

-- perfetto writes Chrome trace JSON in Go (log:perfetto): a process per I/O node, a track
-- per rank, a slice per call with its arguments, a flow per point-to-point message.
function Trace:perfetto(path)
  local ok, res = pcall(self.log.perfetto, self.log, path)
  -- level 2 is perfetto's caller, the user's call.
  if not ok then error((tostring(res):gsub("^[%w_]+%.lua:%d+: ", "", 1)), 2) end
  return res
end

local function opt(v) return v == nil and "" or v end

function Trace:csv(path)
  local out = {}
  for i, e in ipairs(self.events) do
    out[i] = format("%d,%s,%.9f,%.9f,%s,%s,%s,%s,%s", e.rank, e.func, e.start / dpcl.timebase_hz,
      e.finish / dpcl.timebase_hz, opt(e.bytes), opt(e.peer), opt(e.tag), opt(e.comm), e.callsite)
  end
  write_lines(path, out, "rank,function,start_s,end_s,bytes,peer,tag,comm,callsite\n", #out > 0 and "\n" or "")
end

-- limpio.segment: heavy instrumentation on only between the from-th and to-th call of a
-- boundary function (§IV-D of the Limpio paper), decided in each rank: a probe at the
-- boundary's entry counts its calls in rank memory, and seg:guard(e) runs e only while
-- from <= count < to — from the from-th boundary call's entry up to the to-th's entry,
-- exactly, with no round trip to the tool. opts.on(seg) installs the guarded probes.
local Segment = {}
Segment.__index = Segment

function limpio.segment(app, opts)
  local b = opts.boundary or "MPI_Barrier"
  local pts = app:points(b, "entry")
  if #pts == 0 then error("limpio.segment: the program has no function " .. b, 2) end
  local from, to = opts.from or 1, opts.to or math.huge
  if to == math.huge then to = 2 ^ 31 - 1 end
  if from > to then error(format("limpio.segment: from %d is after to %d", from, to), 2) end
  local n = app:array("int", 1, "limpio_seg_" .. b)
  local seg = setmetatable({app = app, count = n, boundary = b, from = from, to = to,
    active = probe.land(n[0]:ge(from), n[0]:lt(to))}, Segment)
  seg.handle = app:install(pts, n[0]:assign(n[0] + 1), {context = opts.context, warn = false})
  seg.handle:activate()
  if type(opts.on) == "function" then opts.on(seg) end
  return seg
end

-- guard wraps a probe expression so that it runs only inside the segment.
function Segment:guard(e)
  return probe.when(self.active, e)
end

-- boundaries returns how many boundary calls rank has entered so far.
function Segment:boundaries(rank)
  return self.count:read(rank)[1]
end

local palette = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
  "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b"}

local function xml(s) return (s:gsub("&", "&amp;"):gsub("<", "&lt;")) end

-- svg writes a Fig 3-style timeline: one row per rank, time across, one colour per MPI
-- function, and a legend. Plain SVG text: the plot module draws lines and bars, not spans.
function Trace:svg(path, opts)
  opts = opts or {}
  local ev, t0, t1, nr = self.events, math.huge, -math.huge, self.app.size
  local colour, names = {}, {}
  for _, e in ipairs(ev) do
    t0, t1 = math.min(t0, e.start), math.max(t1, e.finish)
    if not colour[e.func] then
      names[#names + 1] = e.func
      colour[e.func] = palette[(#names - 1) % #palette + 1]
    end
  end
  if #ev == 0 then t0, t1 = 0, 1 end
  local w, left, row = opts.width or 1000, 60, math.max(2, math.min(16, math.floor(600 / nr)))
  local h = 40 + nr * row + 20 * math.ceil(#names / 4) + 20
  local scale = (w - left - 10) / math.max(1, t1 - t0)
  local out = {format('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">', w, h),
    format('<text x="%d" y="16">%s</text>', left, xml(opts.title or "MPI calls per rank over time"))}
  for r = 0, nr - 1, math.max(1, math.floor(nr / 16)) do
    out[#out + 1] = format('<text x="2" y="%d">rank %d</text>', 30 + r * row + row, r)
  end
  for _, e in ipairs(ev) do
    out[#out + 1] = format('<rect x="%.2f" y="%d" width="%.2f" height="%d" fill="%s"/>',
      left + (e.start - t0) * scale, 24 + e.rank * row, math.max(0.5, (e.finish - e.start) * scale),
      math.max(1, row - 1), colour[e.func])
  end
  local ly = 40 + nr * row
  for i, name in ipairs(names) do
    local x, y = left + ((i - 1) % 4) * 220, ly + 20 * math.floor((i - 1) / 4)
    out[#out + 1] = format('<rect x="%d" y="%d" width="12" height="12" fill="%s"/><text x="%d" y="%d">%s</text>',
      x, y, colour[name], x + 16, y + 10, xml(name))
  end
  out[#out + 1] = format('<text x="%d" y="%d">%.3f ms</text></svg>', left, h - 4, (t1 - t0) / dpcl.timebase_hz * 1e3)
  write_lines(path, out, "", "\n")
  return {events = #ev, functions = names}
end

sethelp(limpio.hooks, [[limpio.hooks(app, {start = exp, finish = exp, exclude = {...}, context = c, callback = fn, installs = batch}) -> {start = h, finish = h, names = {...}, entry = points, exit = points}
Installs exp at the entry (start) and at every exit (finish) of every MPI_* function of the
program, one install each; probe.func() tells which function fired. Excluded names (also
MPIINSTR_EXCLUDE of the job's environment, dpcl.launch{env = {MPIINSTR_EXCLUDE = "a,b"}},
comma-separated) are left out; a name the program lacks warns. With installs (a
limpio.installs(app) batch) both are queued there, active, for batch:run() to install with
whatever is queued after them; the handles are set then.]])
sethelp(limpio.clock_in, [[limpio.clock_in(batch, hooks, stack, context, done)
Queues in batch, at hooks.entry, the push of the time base on stack (app:stack of int64):
queued after every other entry probe, its read is the last thing done before the function
runs. Popped at the exit and taken from probe.point_timebase() (the exit trampoline's read
on arrival, before any probe's code), it times the function's own instructions, whatever
code a tool runs at the entry or the exit. limpio.profile and limpio.trace, each alone on
one job, time a call alike to the tick, unless its end waits for another rank, whose
arrival each tool's entry code delays by its own cost. done(h) receives the handle.]])
sethelp(limpio.trace, [[limpio.trace(app, {exclude =, context =, max_events = 100000, path =}) -> Trace
Timestamped MPI calls (rank, function, start and end as limpio.clock_in reads them,
callsite, and the bytes, peer, tag and communicator of the calls that have them) buffered
in each rank's memory and sent by the rank 21 at a time and at its exit (_exit), decoded
in Go. tr.events (built when read);
tr:perfetto(path) -> {events =, flows =, bytes =, dropped =, messages =} writes
Chrome/Perfetto JSON: a process per I/O node, a thread per rank named with its node and
torus coordinate, a slice per call whose args hold bytes, peer, tag, communicator and the
callsite file:line, and an arrow (flow) from each point-to-point send to its receive
(matched as MPI does: per source, tag and communicator, in order; an MPI_Irecv's at the
MPI_Wait/MPI_Waitall that completed its request); tr:csv(path); tr:svg(path) a timeline;
tr:dropped(). Files are written whole or not at all (dpcl.write_file); a path that cannot
be written raises "cannot write PATH: REASON" (path = is checked before the run).]])
sethelp(limpio.segment, [[limpio.segment(app, {boundary = "MPI_Barrier", from = k, to = m, on = fn(seg)}) -> Segment
Counts the boundary's calls in each rank; seg:guard(exp) runs exp only from the entry of the
k-th boundary call up to the entry of the m-th, decided in the rank. on(seg) installs the
guarded probes; seg:boundaries(rank) reads the count.]])
sethelp(limpio.exit_points, [[limpio.exit_points(app) -> points
The entry of _exit: where limpio's probes send what a rank still holds at the end (the
rank exists there; the runtime delivers what it sends). An error when the program has none.]])
sethelp(limpio.write_file, [[limpio.write_file(path, parts, depth) -> bytes
dpcl.write_file for limpio's own writers: "cannot write PATH: REASON" is raised at the
user's line, depth limpio functions above this call.]])
sethelp(limpio.check_write, [[limpio.check_write(path, depth)
dpcl.check_write for limpio's own writers, raising at the user's line as limpio.write_file.]])
