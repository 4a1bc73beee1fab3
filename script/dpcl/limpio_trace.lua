-- limpio_trace.lua: limpio.trace, timestamped MPI events buffered in each rank's memory (a
-- probe array of EVENTS records) and sent by the rank in one message when the buffer fills
-- and when the rank reaches _exit: never one message per event. Loaded after limpio.lua.
local limpio = limpio
local format, concat = string.format, table.concat

local Trace = {}
Trace.__index = Trace

local FIELDS, EVENTS = 5, 50 -- func, start, end, count, peer; 250 values + 1 per message
-- p2p are the calls whose argument 1 is an element count and argument 3 the peer rank.
local p2p = {MPI_Send = true, MPI_Recv = true, MPI_Isend = true, MPI_Irecv = true,
  MPI_Ssend = true, MPI_Rsend = true, MPI_Bsend = true}

function limpio.trace(app, opts)
  opts = opts or {}
  -- Fails now, before the run, when the trace could not be written after it.
  if opts.path then limpio.check_write(opts.path, 1) end
  local max = opts.max_events or 100000
  local fns = app:functions("*")
  local is_p2p
  local f, tb = probe.func(), probe.timebase()
  for i, fn in ipairs(fns) do
    if p2p[fn.name] then
      local c = f:eq(i - 1)
      is_p2p = is_p2p and probe.lor(is_p2p, c) or c
    end
  end
  local exits = limpio.exit_points(app)
  local buf = app:array("int64", FIELDS * EVENTS, "limpio_trace")
  local ctr = app:array("int", 3, "limpio_trace_ctr") -- next slot, recorded, dropped
  local cur = app:array("int64", 2, "limpio_trace_cur")  -- count and peer of the open call
  local timers = app:stack("int64", opts.depth or 16, "limpio_trace_timers")
  local start = timers:push(tb)
  if is_p2p then
    start = probe.seq{timers:push(tb), probe.when(is_p2p,
      probe.seq{cur[0]:assign(probe.arg(1)), cur[1]:assign(probe.arg(3))},
      probe.seq{cur[0]:assign(0), cur[1]:assign(-1)})}
  end
  local i = ctr[0]
  local record = probe.seq{
    buf[i]:assign(f), buf[i + 1]:assign(timers:pop()), buf[i + 2]:assign(tb),
    buf[i + 3]:assign(cur[0]), buf[i + 4]:assign(cur[1]),
    ctr[0]:assign(i + FIELDS), ctr[1]:assign(ctr[1] + 1),
  }
  -- A batch is the buffer, how many of its values are in use, and the rank's dropped count.
  local flush = probe.seq{probe.send(buf, ctr[0], ctr[2]), ctr[0]:assign(0)}
  local finish = probe.seq{
    probe.when(ctr[1]:lt(max), record, probe.seq{timers:pop(), ctr[2]:assign(ctr[2] + 1)}),
    probe.when(ctr[0]:ge(FIELDS * EVENTS), flush),
  }
  local tr = setmetatable({app = app, events = {}, messages = 0, fns = fns, buf = buf, ctr = ctr,
    max_events = max, drops = {}}, Trace)
  local function receive(m) tr:receive(m) end
  tr.hooks = limpio.hooks(app, {exclude = opts.exclude, context = opts.context,
    warn = opts.warn, start = start, finish = finish, callback = receive})
  -- What is left in the buffer leaves at the rank's exit, after MPI_Finalize and whatever
  -- it excluded, while the rank still exists.
  tr.at_exit = app:install(exits, flush, {context = opts.context, callback = receive})
  tr.at_exit:activate()
  return tr
end

-- receive unpacks one batch: the buffer's values, how many of them are in use, and how
-- many events the rank has dropped so far.
function Trace:receive(m)
  local v = m.values
  local used, dropped = v[#v - 1], v[#v]
  self.messages = self.messages + 1
  if dropped > (self.drops[m.rank] or 0) then self.drops[m.rank] = dropped end
  local ev = self.events
  for k = 1, used, FIELDS do
    ev[#ev + 1] = {rank = m.rank, func = self.app:func_name(v[k]), start = v[k + 1],
      finish = v[k + 2], count = v[k + 3], peer = v[k + 4]}
  end
end

-- dropped sums the events every rank left out past max_events, as its batches said.
function Trace:dropped()
  local n = 0
  for _, d in pairs(self.drops) do n = n + d end
  return n
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

local function us(ticks) return ticks / dpcl.timebase_hz * 1e6 end

-- perfetto writes Chrome trace JSON: one thread (track) per rank, one complete slice per call.
function Trace:perfetto(path)
  local out, seen = {}, {}
  for _, e in ipairs(self.events) do
    if not seen[e.rank] then
      seen[e.rank] = true
      out[#out + 1] = format('{"name":"thread_name","ph":"M","pid":0,"tid":%d,"args":{"name":"rank %d"}}', e.rank, e.rank)
    end
    local args = ""
    if e.peer >= 0 then args = format(',"args":{"count":%d,"peer":%d}', e.count, e.peer) end
    out[#out + 1] = format('{"name":"%s","ph":"X","pid":0,"tid":%d,"ts":%.3f,"dur":%.3f%s}',
      e.func, e.rank, us(e.start), us(e.finish - e.start), args)
  end
  local bytes = write_lines(path, out, '{"displayTimeUnit":"ns","traceEvents":[\n', "\n]}\n", ",\n")
  return {events = #self.events, bytes = bytes, dropped = self:dropped(), messages = self.messages}
end

function Trace:csv(path)
  local out = {}
  for i, e in ipairs(self.events) do
    out[i] = format("%d,%s,%.9f,%.9f,%d,%d", e.rank, e.func, e.start / dpcl.timebase_hz,
      e.finish / dpcl.timebase_hz, e.count, e.peer)
  end
  write_lines(path, out, "rank,function,start_s,end_s,count,peer\n", #out > 0 and "\n" or "")
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
  seg.handle = app:install(pts, n[0]:assign(n[0] + 1), {context = opts.context})
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

sethelp(limpio.hooks, [[limpio.hooks(app, {start = exp, finish = exp, exclude = {...}, context = c, callback = fn}) -> {start = h, finish = h, names = {...}}
Installs exp at the entry (start) and at every exit (finish) of every MPI_* function of the
program, one install each; probe.func() tells which function fired. Excluded names (also
MPIINSTR_EXCLUDE of the job's environment, dpcl.launch{env = {MPIINSTR_EXCLUDE = "a,b"}},
comma-separated) are left out; a name the program lacks warns.]])
sethelp(limpio.trace, [[limpio.trace(app, {exclude =, context =, max_events = 100000, path =}) -> Trace
Timestamped MPI calls (rank, function, start, end, count and peer of point-to-point calls)
buffered in each rank's memory and sent by the rank 50 at a time and at its exit (_exit). tr.events;
tr:perfetto(path) -> {events =, bytes =, dropped =, messages =} writes Chrome/Perfetto JSON
(a track per rank, a slice per call); tr:csv(path); tr:svg(path) a timeline; tr:dropped().
Files are written whole or not at all (dpcl.write_file); a path that cannot be written
raises "cannot write PATH: REASON" (path = is checked before the run).]])
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
