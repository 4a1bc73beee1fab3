-- dpcl.trace's compiler: trace.go parses and checks the program
-- (script/tracelang) and hands the tree to run(app, prog, opts). Every map lives in rank
-- memory as one probe array of slots (one slot per key, WIDTH values each, the first its
-- event count); each rank sends it at _exit's entry in chunks of at most 250 values, and
-- the "mapmerge" filter merges the ranks' maps by key on the way up the tree.
local T = {}
local unpack = table.unpack or unpack

-- idiv is integer division rounding toward zero, as C and bpftrace divide.
local function idiv(a, b)
  local q = a / b
  return q < 0 and math.ceil(q) or math.floor(q)
end
T.idiv = idiv

-- KEY_BOUND: an integer key part (arg1, rank % 8, ...) indexes its map directly, from 0
-- to KEY_BOUND - 1; an event whose key falls outside is counted in the map's overflow
-- slot and reported after the map, not kept.
T.KEY_BOUND = 256
-- MAX_SLOTS bounds the product of a map's key ranges (its slots in each rank's memory).
T.MAX_SLOTS = 4096
-- The front-end's half (merging what arrives, printing) is trace_print.lua, run with this
-- module as its argument.

-- STACKS is how many distinct call stacks a ustack-keyed map keeps per rank (a power of
-- two: a stack's hash picks where its search starts); events of further stacks are
-- counted in the overflow slot.
T.STACKS = 32

-- CHUNK is the number of values one send carries (probe.send takes at most 256).
T.CHUNK = 250
-- HIST_BUCKETS: (..., 0), [0], [1], [2, 4), ..., [2^62, 2^63).
T.HIST_BUCKETS = 65

local fail -- fail(prog, node, fmt, ...) raises "name:line:col: msg" with the line and a caret

local function source_line(prog, n)
  local i = 0
  for line in (prog.src .. "\n"):gmatch("([^\n]*)\n") do
    i = i + 1
    if i == n then return (line:gsub("\t", " ")) end
  end
  return ""
end

fail = function(prog, node, fmt, ...)
  local line = source_line(prog, node.line_no)
  local col = math.min(node.col, #line + 1)
  error(string.format("%s:%d:%d: %s\n%s\n%s^", prog.name, node.line_no, node.col,
    string.format(fmt, ...), line, string.rep(" ", col - 1)), 0)
end

-- width is the number of values a slot of aggregation agg holds.
local function width(m)
  if m.agg == "count" then return 1 end
  if m.agg == "hist" then return 1 + T.HIST_BUCKETS end
  if m.agg == "lhist" then return 1 + m.nbuckets + 2 end
  return 2
end

-- Compiler state: the program, the application, shared temporaries, maps by name.
local C = {}
C.__index = C

local function new_compiler(app, prog)
  local c = setmetatable({app = app, prog = prog, maps = {}, order = {}, vars = {},
    locals = {}, printfs = {}, installs = {}}, C)
  c.slot, c.ok, c.k, c.lg = app:var("int"), app:var("int"), app:var("int"), app:var("int")
  c.x, c.t = app:var("int64"), app:var("int64")
  -- the call stack walk's frames, links, hash and search
  c.frames, c.fr, c.nx, c.h, c.b, c.found = {}, app:var("int"), app:var("int"), app:var("int"), app:var("int"), app:var("int")
  local hz = math.floor(dpcl.timebase_hz)
  local a, b = 1000000000, hz
  while b ~= 0 do
    local r = a % b
    a = b
    b = r
  end
  c.ns_mul, c.ns_div = 1000000000 / a, hz / a
  return c
end

-- points expands one probe spec into groups of points, one group per function, in the
-- order the program lists its functions.
function C:groups(p)
  local ok, pts
  if p.kind == "line" then
    ok, pts = pcall(self.app.points, self.app, p.func .. ":" .. p.line)
  else
    ok, pts = pcall(self.app.points, self.app, p.func, p.kind)
  end
  if not ok then fail(self.prog, p, "probe '%s': %s", p.text, (tostring(pts):gsub("^[^\n:]*:%d+: ", ""))) end
  if #pts == 0 then fail(self.prog, p, "probe '%s' matches no point of the program", p.text) end
  local out, byfn = {}, {}
  for _, pt in ipairs(pts) do
    local g = byfn[pt.func]
    if not g then
      g = {func = pt.func, probe = p.text, points = {}}
      byfn[pt.func] = g
      out[#out + 1] = g
    end
    g.points[#g.points + 1] = pt
  end
  return out
end

-- domain adds value v to a key part's list of names, returning its index (0-based).
local function domain_index(d, v)
  if d.index[v] == nil then
    d.names[#d.names + 1] = v
    d.index[v] = #d.names - 1
  end
  return d.index[v]
end

-- declare_map records an aggregate statement's map and the names its func/probe keys take.
function C:declare_map(s, g)
  local m = self.maps[s.map]
  if not m then
    m = {name = s.map, agg = s.agg.name, parts = {}, pos = s, app = self.app}
    for i, k in ipairs(s.keys) do
      local kind = "int"
      local depth
      if k.name == "ustack" and (k.kind == "builtin" or k.kind == "call") then
        kind = "ustack"
        depth = k.kind == "call" and k.args[1].int or self.prog.ustack_depth
      elseif k.kind == "builtin" and (k.name == "func" or k.name == "probe") then kind = k.name
      elseif k.kind == "builtin" and k.name == "rank" then kind = "rank" end
      m.parts[i] = {kind = kind, names = {}, index = {}, depth = depth}
      if kind == "ustack" then m.stack = m.parts[i] end
    end
    if m.agg == "lhist" then
      m.lo, m.hi, m.step = s.agg.args[2].int, s.agg.args[3].int, s.agg.args[4].int
      m.nbuckets = idiv(m.hi - m.lo, m.step)
    end
    self.maps[s.map] = m
    self.order[#self.order + 1] = m
  end
  for i, part in ipairs(m.parts) do
    if part.kind == "func" then domain_index(part, g.func)
    elseif part.kind == "probe" then domain_index(part, g.probe) end
  end
end

-- layout gives each map its slots once every group is known: ranges and strides of the
-- varying key parts (rank is sent whole, as a fixed key part), the overflow slot last.
-- A call stack key part is outermost: each of the T.STACKS stacks a rank keeps owns
-- m.inner consecutive slots, and its frames sit in the map's table of stacks.
function C:layout(m)
  local slots = 1
  for _, part in ipairs(m.parts) do
    if part.kind ~= "rank" and part.kind ~= "ustack" then
      part.range = part.kind == "int" and T.KEY_BOUND or #part.names
      part.stride = slots
      slots = slots * part.range
    end
  end
  m.inner = slots
  if m.stack then
    m.stack.range, m.stack.stride = T.STACKS, slots
    slots = slots * T.STACKS
    local name = m.name == "" and "at" or m.name
    m.stack.frames = self.app:array("int", T.STACKS * m.stack.depth, "trace_stacks_" .. name)
    m.stack.hashes = self.app:array("int", T.STACKS, "trace_stack_hashes_" .. name)
  end
  if slots > T.MAX_SLOTS then
    fail(self.prog, m.pos, "@%s: its keys span %d slots in each rank's memory, more than %d (an integer key part takes %d)",
      m.name, slots, T.MAX_SLOTS, T.KEY_BOUND)
  end
  m.slots, m.width = slots, width(m)
  m.array = self.app:array("int64", (slots + 1) * m.width, "trace_" .. (m.name == "" and "at" or m.name))
end

-- exp compiles an expression of the program to a probe expression, in the group g.
function C:exp(e, g)
  local k = e.kind
  if k == "int" then return probe.int64(e.int) end -- 64-bit arithmetic, as bpftrace's
  if k == "local" then
    local v = self.locals[e.name]
    if not v then fail(self.prog, e, "$%s is read before this probe assigns it", e.name) end
    return v
  end
  if k == "map" then return self:var(e.name) end
  if k == "builtin" then return self:builtin(e) end
  if k == "unary" then
    local x = self:exp(e.x, g)
    if e.op == "-" then return -x end
    if e.op == "!" then return probe.lnot(x) end
    return x:bnot()
  end
  local x, y = self:exp(e.x, g), self:exp(e.y, g)
  local op = e.op
  if op == "+" then return x + y elseif op == "-" then return x - y
  elseif op == "*" then return x * y elseif op == "/" then return x / y
  elseif op == "%" then return x % y
  elseif op == "&&" then return probe.land(x, y) elseif op == "||" then return probe.lor(x, y)
  elseif op == "&" then return x:band(y) elseif op == "|" then return x:bor(y)
  elseif op == "^" then return x:bxor(y) elseif op == "<<" then return x:shl(y)
  elseif op == ">>" then return x:shr(y)
  elseif op == "==" then return x:eq(y) elseif op == "!=" then return x:ne(y)
  elseif op == "<" then return x:lt(y) elseif op == "<=" then return x:le(y)
  elseif op == ">" then return x:gt(y) elseif op == ">=" then return x:ge(y) end
  fail(self.prog, e, "operator %s", op)
end

local counters = {cycles = true, instructions = true, loads = true, stores = true,
  branches = true, fpops = true}

function C:builtin(e)
  local n = e.name
  if n == "rank" then return probe.rank() end
  if n == "retval" then return probe.retval() end
  -- nsecs is the time the point was reached (the trampoline reads it on arrival), so an
  -- interval between two probes does not grow with the registers the exit's code saves
  if n == "nsecs" then return probe.point_timebase() * probe.int64(self.ns_mul) / probe.int64(self.ns_div) end
  if counters[n] then return probe.counter(n) end
  local i = n:match("^arg(%d)$")
  if i then return probe.arg(tonumber(i)) end
  fail(self.prog, e, "builtin '%s' cannot be compiled here", n)
end

-- var is the per-rank variable @name (no keys, no aggregation).
function C:var(name)
  if not self.vars[name] then self.vars[name] = self.app:var("int64") end
  return self.vars[name]
end

-- narrow leaves in the int variable v the int64 variable t, which holds 0 <= t < 2^bits:
-- a probe expression only widens implicitly, and an array index is an int.
function C:narrow(v, t, bits)
  local s = {v:assign(0)}
  for b = bits - 1, 0, -1 do
    s[#s + 1] = probe.when(t:ge(probe.int64(2 ^ b)),
      probe.seq{t:assign(t - probe.int64(2 ^ b)), v:assign(v + 2 ^ b)})
  end
  return probe.seq(s)
end

-- bits is the number of bits that hold 0..n-1.
local function bits(n)
  local b = 0
  while 2 ^ b < n do b = b + 1 end
  return b
end

-- slot_code leaves in self.slot the slot of statement s's key in group g: func and probe
-- parts are constants of the group, integer parts are computed and range-checked (an
-- event outside goes to the overflow slot), the rank is sent whole.
function C:slot_code(m, s, g)
  local slot, ok, t, k = self.slot, self.ok, self.t, self.k
  local code = {slot:assign(0), ok:assign(1)}
  for i, part in ipairs(m.parts) do
    if part.kind == "func" then
      code[#code + 1] = slot:assign(slot + part.index[g.func] * part.stride)
    elseif part.kind == "probe" then
      code[#code + 1] = slot:assign(slot + part.index[g.probe] * part.stride)
    elseif part.kind == "ustack" then
      code[#code + 1] = self:stack_index(part)
      code[#code + 1] = probe.when(self.found:lt(0), ok:assign(0),
        slot:assign(slot + self.found * part.stride))
    elseif part.kind == "int" then
      code[#code + 1] = t:assign(self:exp(s.keys[i], g))
      code[#code + 1] = probe.when(probe.land(t:ge(0), t:lt(part.range)),
        probe.seq{self:narrow(k, t, bits(part.range)), slot:assign(slot + k * part.stride)},
        ok:assign(0))
    end
  end
  code[#code + 1] = probe.when(ok:eq(0), slot:assign(m.slots))
  return probe.seq(code)
end

-- walk_stack leaves in self.frames[1..depth] the call stack as probe.ustack(depth) sends
-- it: LR, then the LR each frame of the r1 back chain saved, a link followed only when it
-- is above the last (unsigned) and non-null; 0 from the first missing frame on.
function C:walk_stack(depth)
  local f, fr, nx = self.frames, self.fr, self.nx
  for d = #f + 1, depth do f[d] = self.app:var("int") end
  local sign = probe.int(-2147483648) -- flipping the sign bit orders addresses unsigned
  local code = {f[1]:assign(probe.lr()), fr:assign(probe.sp()), probe.when(f[1]:eq(0), fr:assign(0))}
  for d = 2, depth do
    code[#code + 1] = f[d]:assign(0)
    code[#code + 1] = probe.when(fr:ne(0), probe.seq{
      nx:assign(probe.load(fr, "int")),
      probe.when(nx:bxor(sign):gt(fr:bxor(sign)),
        probe.seq{f[d]:assign(probe.load(nx, "int", 4)), fr:assign(nx), probe.when(f[d]:eq(0), fr:assign(0))},
        fr:assign(0))})
  end
  return probe.seq(code)
end

-- stack_index leaves in self.found the index of the current call stack among the map's
-- kept stacks, taking a free one for a new stack, or -1 when none is left. The search
-- starts where the stack's hash points and compares hashes (a few instructions a step);
-- the frames are compared once, where it stops: a different stack with the same hash
-- (about one chance in 2^31 per pair) is an event not kept, never one filed elsewhere.
function C:stack_index(part)
  local depth, frames, hashes = part.depth, part.frames, part.hashes
  local f, h, k, b, found = self.frames, self.h, self.k, self.b, self.found
  local code = {self:walk_stack(depth), h:assign(0)}
  for d = 1, depth do code[#code + 1] = h:assign(h * 31 + f[d]) end
  code[#code + 1] = h:assign(h:bor(1)) -- a kept stack's hash is never 0, a free entry's is
  code[#code + 1] = found:assign(-1)
  for j = 0, T.STACKS - 1 do
    code[#code + 1] = probe.when(found:lt(0), probe.seq{
      k:assign((h:shr(4) + j):band(T.STACKS - 1)),
      probe.when(probe.lor(hashes[k]:eq(0), hashes[k]:eq(h)), found:assign(k))})
  end
  local claim, diff = {hashes[found]:assign(h)}, nil
  for d = 1, depth do
    claim[#claim + 1] = frames[b + (d - 1)]:assign(f[d])
    local x = frames[b + (d - 1)]:bxor(f[d])
    diff = diff and diff:bor(x) or x
  end
  code[#code + 1] = probe.when(found:ge(0), probe.seq{
    b:assign(found * depth),
    probe.when(hashes[found]:eq(0), probe.seq(claim),
      probe.when(diff:ne(0), found:assign(-1)))})
  return probe.seq(code)
end

-- hist_bucket leaves in lg the bucket of x less 2: -2 below zero, -1 for 0, log2(x) above.
function C:hist_bucket(x)
  local s = {self.t:assign(x), self.lg:assign(0)}
  for _, sh in ipairs({32, 16, 8, 4, 2, 1}) do
    s[#s + 1] = probe.when(self.t:ge(probe.int64(2 ^ sh)),
      probe.seq{self.t:assign(self.t:shr(sh)), self.lg:assign(self.lg + sh)})
  end
  return probe.when(x:lt(0), self.lg:assign(-2), probe.when(x:eq(0), self.lg:assign(-1), probe.seq(s)))
end

-- aggregate compiles @m[keys] = agg(x).
function C:aggregate(s, g)
  local m = self.maps[s.map]
  local a, w, x = m.array, m.width, self.x
  local base = self.slot * w
  -- the value first: a time read before the key's code measures less of the probe itself
  local code = {}
  if #s.agg.args > 0 then code[1] = x:assign(self:exp(s.agg.args[1], g)) end
  code[#code + 1] = self:slot_code(m, s, g)
  local n = a[base]
  local agg = m.agg
  if agg == "sum" or agg == "avg" or agg == "stats" then
    code[#code + 1] = a[base + 1]:assign(a[base + 1] + x)
  elseif agg == "min" then
    code[#code + 1] = probe.when(probe.lor(n:eq(0), x:lt(a[base + 1])), a[base + 1]:assign(x))
  elseif agg == "max" then
    code[#code + 1] = probe.when(probe.lor(n:eq(0), x:gt(a[base + 1])), a[base + 1]:assign(x))
  elseif agg == "hist" then
    code[#code + 1] = self:hist_bucket(x)
    local b = base + 3 + self.lg
    code[#code + 1] = a[b]:assign(a[b] + 1)
  elseif agg == "lhist" then
    code[#code + 1] = probe.when(x:lt(m.lo), self.lg:assign(0),
      probe.when(x:ge(m.hi), self.lg:assign(m.nbuckets + 1),
        probe.seq{self.t:assign((x - m.lo) / m.step + 1), self:narrow(self.lg, self.t, bits(m.nbuckets + 2))}))
    local b = base + 1 + self.lg
    code[#code + 1] = a[b]:assign(a[b] + 1)
  end
  code[#code + 1] = a[base]:assign(n + 1)
  return probe.seq(code)
end

-- stmt compiles one statement of a rank's probe.
function C:stmt(s, g)
  if s.kind == "aggregate" then return self:aggregate(s, g) end
  if s.kind == "store" then return self:var(s.map):assign(self:exp(s.x, g)) end
  if s.kind == "local" then
    local v = self.locals[s.var] or self.app:var("int64")
    local code = v:assign(self:exp(s.x, g))
    self.locals[s.var] = v
    return code
  end
  -- printf: the values travel with the format's number; the front-end formats them
  local args = {probe.int(#self.printfs)}
  for i = 2, #s.x.args do args[#args + 1] = self:exp(s.x.args[i], g) end
  self.printfs[#self.printfs + 1] = (s.x.args[1].str:gsub("%%l+", "%%"))
  return probe.send(unpack(args))
end

-- install compiles block b for group g and installs it on g's points.
function C:install(b, g)
  self.locals = {}
  local code = {}
  for _, s in ipairs(b.body) do code[#code + 1] = self:stmt(s, g) end
  local exp = probe.seq(code)
  if b.pred then exp = probe.when(self:exp(b.pred, g), exp) end
  local printfs = self.printfs
  local h = self.app:install(g.points, exp, {print = false, warn = false, callback = function(msg)
    local v = msg.values
    printf(printfs[v[1] + 1], unpack(v, 2))
  end})
  self.installs[#self.installs + 1] = h
end

-- collect installs each map's sends at _exit: per chunk of slots, the rank (when a key
-- part is the rank) and the chunk's values, merged by "mapmerge" on their way up.
function C:collect(m, result)
  local exits
  for _, name in ipairs({"_exit", "_Exit"}) do
    local ok, pts = pcall(self.app.points, self.app, name, "entry")
    if ok and #pts > 0 then exits = pts break end
  end
  if not exits then error("dpcl.trace: the program has no _exit, where ranks send their maps", 0) end
  m.handles = {}
  for _, ch in ipairs(self:chunks(m)) do
    local h = self.app:install(exits, probe.send(unpack(ch.vals)), {print = false, warn = false,
      filter = "mapmerge", params = ch.params,
      callback = function(msg)
        if result.frozen then return end -- interrupted: the maps were read from the ranks
        result.messages[m.name] = result.messages[m.name] + 1
        T.merge(result.final[m.name], m, msg.values[1])
      end})
    self.installs[#self.installs + 1] = h
    m.handles[#m.handles + 1] = h
  end
end

-- chunks lists the sends that carry map m from a rank: each {vals = the send's operands,
-- params = mapmerge's}. A send holds the key values the rank sends whole (its rank, a
-- stack's frames) and then a run of slots.
function C:chunks(m)
  if m.chunk_list then return m.chunk_list end
  m.ranked = 0
  for _, part in ipairs(m.parts) do if part.kind == "rank" then m.ranked = 1 end end
  local depth = m.stack and m.stack.depth or 0
  m.fixed = m.ranked + depth
  local list = {}
  -- the slots first..last of the array, as the map's slots from base on, after keys
  local function send(keys, first, last, base)
    local vals = {}
    if m.ranked == 1 then vals[1] = probe.rank() end
    for _, v in ipairs(keys) do vals[#vals + 1] = v end
    for i = first * m.width, (last + 1) * m.width - 1 do vals[#vals + 1] = m.array[i] end
    list[#list + 1] = {vals = vals, params = {agg = m.agg, width = m.width, fixed = m.fixed, base = base}}
  end
  local per = math.max(1, idiv(T.CHUNK - m.fixed, m.width))
  if not m.stack then
    for first = 0, m.slots, per do send({}, first, math.min(first + per, m.slots + 1) - 1, first) end
  else
    -- a stack map: per kept stack its frames as key values, then its slots, so the tree
    -- merges the ranks' entries by stack; the overflow slot goes alone, after zero frames
    for e = 0, T.STACKS - 1 do
      local frames = {}
      for d = 0, depth - 1 do frames[#frames + 1] = m.stack.frames[e * depth + d] end
      for first = 0, m.inner - 1, per do
        send(frames, e * m.inner + first, e * m.inner + math.min(first + per, m.inner) - 1, first)
      end
    end
    local zeros = {}
    for d = 1, depth do zeros[d] = probe.int(0) end
    send(zeros, m.slots, m.slots, m.inner)
  end
  m.chunk_list = list
  return list
end

-- interval makes an interval block's phase: every period of virtual time each live rank
-- sends the maps the block prints or clears, as it holds them then, through mapmerge (one
-- phase per chunk). When every chunk of a firing has arrived, the front-end takes the
-- merged maps as the ranks' state and runs the block. A firing that some rank missed
-- (it had exited: its map went up at _exit) is not run: what it would show prints at
-- the end instead.
function C:interval(b, result, out, tracer)
  local p = b.probes[1]
  local maps, seen = {}, {}
  for _, s in ipairs(b.body) do
    local call = s.x
    if (call.name == "print" or call.name == "clear") and not seen[call.args[1].name] then
      seen[call.args[1].name] = true
      maps[#maps + 1] = self.maps[call.args[1].name]
    end
  end
  local streams, firings, next_firing, stopped = 0, {}, 1, false
  local ranks = #self.app
  local function ready()
    while not stopped and not result.frozen and firings[next_firing] and firings[next_firing].arrived == streams do
      local f = firings[next_firing]
      firings[next_firing] = nil
      next_firing = next_firing + 1
      if f.missed then stopped = true break end
      for _, m in ipairs(maps) do
        result.cum[m.name] = f.maps[m.name]
        T.view(result, m)
      end
      local shown = {}
      for _, m in ipairs(maps) do shown[m.name] = T.maps_of(result, {m})[m.name] end
      tracer.intervals[#tracer.intervals + 1] = shown
      T.front(self, result, b, out)
    end
  end
  for _, m in ipairs(maps) do
    if m.profiles then fail(self.prog, p, "@%s counts profile samples, read when the job ends", m.name) end
    for _, ch in ipairs(self:chunks(m)) do
      streams = streams + 1
      local got = 0
      local ok, h = pcall(self.app.phase, self.app, T.interval_seconds(p), probe.send(unpack(ch.vals)), {
        print = false, warn = false, filter = "mapmerge", params = ch.params,
        callback = function(msg)
          got = got + 1
          local f = firings[got] or {arrived = 0, maps = {}}
          firings[got] = f
          f.arrived = f.arrived + 1
          if (msg.count or ranks) < ranks then f.missed = true end
          f.maps[m.name] = f.maps[m.name] or T.new_map()
          T.merge(f.maps[m.name], m, msg.values[1])
          ready()
        end})
      if not ok then fail(self.prog, p, "%s: %s", p.text, (tostring(h):gsub("^[^\n:]*:%d+: ", ""))) end
      self.phases[#self.phases + 1] = h
    end
  end
end

-- interval_seconds is an interval probe's period in virtual seconds.
function T.interval_seconds(p)
  return p.n * ({s = 1, ms = 1e-3, us = 1e-6})[p.unit]
end

-- sample starts the machine's sampler for a profile:hz:N block (the checker allows only
-- @m = count() and @m[func] = count() there): the samples are timer interrupts kept by
-- the machine and read at the end, not probe events sent through the tree.
function C:sample(b)
  local p = b.probes[1]
  local ok, prof = pcall(self.app.sample, self.app, {hz = p.n, stack = 1})
  if not ok then fail(self.prog, p, "%s: %s", p.text, (tostring(prof):gsub("^[^\n:]*:%d+: ", ""))) end
  for _, s in ipairs(b.body) do
    local m = self.maps[s.map]
    if not m then
      m = {name = s.map, agg = "count", parts = {}, pos = s, profiles = {}}
      if #s.keys == 1 then m.parts[1] = {kind = "func"} end
      self.maps[s.map] = m
      self.order[#self.order + 1] = m
    end
    m.profiles[#m.profiles + 1] = prof
  end
end

-- samples files a sampled map's counts: by the function each sample stopped in.
function T.samples(result, m)
  local entries = result.raw[m.name]
  for _, prof in ipairs(m.profiles) do
    for _, row in ipairs(prof:top(1e9)) do
      local key = #m.parts == 1 and {row.func} or {}
      local id = T.key_id(key)
      local e = entries[id] or {key = key, vals = {0}}
      e.vals[1] = e.vals[1] + row.samples
      entries[id] = e
    end
  end
end

-- const evaluates an integer expression of a BEGIN or END block (no rank's values there).
function T.const(prog, e)
  if e.kind == "int" then return e.int end
  if e.kind == "unary" then
    local x = T.const(prog, e.x)
    if e.op == "-" then return -x end
    if e.op == "!" then return x == 0 and 1 or 0 end
  elseif e.kind == "binary" then
    local x, y = T.const(prog, e.x), T.const(prog, e.y)
    local ops = {["+"] = x + y, ["-"] = x - y, ["*"] = x * y,
      ["=="] = x == y and 1 or 0, ["!="] = x ~= y and 1 or 0, ["<"] = x < y and 1 or 0,
      ["<="] = x <= y and 1 or 0, [">"] = x > y and 1 or 0, [">="] = x >= y and 1 or 0}
    if ops[e.op] then return ops[e.op] end
    if (e.op == "/" or e.op == "%") and y ~= 0 then
      return e.op == "/" and idiv(x, y) or x - idiv(x, y) * y
    end
  end
  fail(prog, e, "BEGIN and END compute with + - * / %% and comparisons of constants only")
end

-- front runs a BEGIN, END or interval block at the front-end. clear(@m) empties what
-- prints from now on: the ranks keep counting, so the front-end remembers the ranks'
-- state at the clear and later shows what was added since (T.view).
function T.front(c, result, b, out)
  for _, s in ipairs(b.body) do
    local call = s.x
    if call.name == "printf" then
      local args = {}
      for i = 2, #call.args do args[#args + 1] = T.const(c.prog, call.args[i]) end
      local text = string.format((call.args[1].str:gsub("%%l+", "%%")), unpack(args))
      -- whole lines go where the maps print (opts.out), so they keep their order
      if text:sub(-1) == "\n" then out(text:sub(1, -2)) else io.write(text) end
    elseif call.name == "print" then
      local m = c.maps[call.args[1].name]
      if m then T.print_map(out, result, m) end
    elseif call.name == "clear" then
      local name = call.args[1].name
      result.base[name] = result.cum[name]
      result.raw[name] = {}
      result.overflow[name] = nil
    elseif call.name == "exit" then
      return true
    end
  end
end

-- run compiles prog for app, installs it and, unless opts.run == false, runs the job.
function T.run(app, prog, opts)
  local out = opts.out or print
  local c = new_compiler(app, prog)
  local begins, ends, ranked, intervals = {}, {}, {}, {}
  for _, b in ipairs(prog.blocks) do
    local kind = b.probes[1].kind
    if kind == "BEGIN" then begins[#begins + 1] = b
    elseif kind == "END" then ends[#ends + 1] = b
    elseif kind == "profile" then c:sample(b)
    elseif kind == "interval" then intervals[#intervals + 1] = b
    else
      local groups = {}
      for _, p in ipairs(b.probes) do
        for _, g in ipairs(c:groups(p)) do groups[#groups + 1] = g end
      end
      ranked[#ranked + 1] = {block = b, groups = groups}
      for _, g in ipairs(groups) do
        for _, s in ipairs(b.body) do
          if s.kind == "aggregate" then c:declare_map(s, g) end
        end
      end
    end
  end
  -- per map: raw and overflow as they print; the ranks' merged state (cum) from the last
  -- complete collection, and the state at the last clear (base); final fills at _exit
  local result = {raw = {}, overflow = {}, messages = {}, cum = {}, base = {}, final = {}}
  for _, m in ipairs(c.order) do
    if not m.profiles then c:layout(m) end
    result.raw[m.name] = {}
    result.messages[m.name] = 0
    result.cum[m.name], result.base[m.name], result.final[m.name] = T.new_map(), T.new_map(), T.new_map()
  end
  for _, r in ipairs(ranked) do
    for _, g in ipairs(r.groups) do c:install(r.block, g) end
  end
  for _, m in ipairs(c.order) do
    if not m.profiles then c:collect(m, result) end
  end
  for _, h in ipairs(c.installs) do h:activate() end
  local tracer = {maps = {}, installs = c.installs, intervals = {}}
  c.phases = {}
  for _, b in ipairs(intervals) do c:interval(b, result, out, tracer) end
  tracer.phases = c.phases
  function tracer.finish()
    for _, m in ipairs(c.order) do
      if m.profiles then T.samples(result, m)
      else
        result.cum[m.name] = result.final[m.name]
        T.view(result, m)
      end
    end
    local stopped
    for _, b in ipairs(ends) do
      if stopped then break end
      stopped = T.front(c, result, b, out)
    end
    for _, m in ipairs(c.order) do T.print_map(out, result, m) end
    tracer.maps = T.maps_of(result, c.order)
    tracer.overflow = result.overflow
    -- per map: the merged messages the front-end received and the packets the ranks sent
    tracer.collections = {}
    for _, m in ipairs(c.order) do
      local sent = 0
      for _, h in ipairs(m.handles or {}) do sent = sent + h:stats().sent end
      tracer.collections[m.name] = {messages = result.messages[m.name], sent = sent, streams = #(m.handles or {})}
    end
    return tracer
  end
  -- interrupt stops a running job where it is (Ctrl-C of dpclsh trace): the ranks are
  -- held, their maps read from their memory (those that had exited too: their _exit
  -- sends wait in the tree for the others) and merged as the tree would, and the job
  -- ends; finish() then runs END and prints as at exit.
  function tracer.interrupt()
    result.frozen = true
    app:suspend()
    tracer.interrupted_at = app:now()
    for _, m in ipairs(c.order) do
      if not m.profiles then
        local into = T.new_map()
        T.gather(into, m, app)
        result.final[m.name] = into
      end
    end
    app:terminate()
  end
  for _, b in ipairs(begins) do
    if T.front(c, result, b, out) then break end
  end
  if opts.run == false then return tracer end
  app:start()
  tracer.status = app:wait()
  return tracer.finish()
end

return T
