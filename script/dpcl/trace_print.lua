-- dpcl.trace's front-end half: what the tree delivers is merged into the front-end's copy
-- of each map, which prints in bpftrace's format. trace.go runs it with trace.lua's module
-- table, which it extends.
local T = ...

-- key_id is a key as result.maps indexes it or, with printed, as it prints between the
-- brackets. A call stack part ({frames = {...}}) is its frames one a line; printed, each
-- is indented on a line of its own, as bpftrace prints ustack.
function T.key_id(key, printed)
  local parts = {}
  for j, k in ipairs(key) do
    if type(k) == "table" then
      if printed then
        local lines = {}
        for i, f in ipairs(k.frames) do lines[i] = "    " .. f .. "\n" end
        parts[j] = "\n" .. table.concat(lines)
      else
        parts[j] = table.concat(k.frames, "\n")
      end
    else
      parts[j] = type(k) == "number" and string.format("%d", k) or k
    end
  end
  return table.concat(parts, ", ") .. ""
end

-- stack_key names the frames a rank sent for a stack part, once per distinct stack.
local function stack_key(m, flat, at)
  local pcs = {}
  for d = 1, m.stack.depth do pcs[d] = flat[at + d - 1] end
  local id = table.concat(pcs, " ")
  m.stack.named = m.stack.named or {}
  local k = m.stack.named[id]
  if not k then
    k = {frames = m.app:symbolize(pcs)}
    m.stack.named[id] = k
  end
  return k
end

-- new_map is an empty copy of a map at the front-end: entries by key id, and the events
-- not kept.
function T.new_map()
  return {entries = {}, overflow = 0}
end

-- merge folds the entries of a merged message into into, a front-end copy of map m.
function T.merge(into, m, flat)
  local stride = m.fixed + 1 + m.width
  local entries = into.entries
  for i = 1, #flat, stride do
    local slot = flat[i + m.fixed]
    if slot == (m.stack and m.inner or m.slots) then
      into.overflow = into.overflow + flat[i + m.fixed + 1]
    else
      local key = {}
      local rank = m.ranked == 1 and flat[i] or nil
      for j, part in ipairs(m.parts) do
        if part.kind == "rank" then key[j] = rank
        elseif part.kind == "ustack" then key[j] = stack_key(m, flat, i + m.ranked)
        else
          local idx = T.idiv(slot, part.stride) % part.range
          key[j] = part.kind == "int" and idx or part.names[idx + 1]
        end
      end
      local id = T.key_id(key)
      local vals = {}
      for j = 1, m.width do vals[j] = flat[i + m.fixed + j] end
      local have = entries[id]
      if not have then
        entries[id] = {key = key, vals = vals}
      else
        for j = 1, m.width do
          if j == 2 and m.agg == "min" then have.vals[j] = math.min(have.vals[j], vals[j])
          elseif j == 2 and m.agg == "max" then have.vals[j] = math.max(have.vals[j], vals[j])
          else have.vals[j] = have.vals[j] + vals[j] end
        end
      end
    end
  end
end

-- gather merges into into map m as every rank of app holds it in memory now: the entries
-- a rank would send (its rank, the kept stack's frames, the slot, the values), in
-- mapmerge's form.
function T.gather(into, m, app)
  local depth = m.stack and m.stack.depth or 0
  for r = 0, #app - 1 do
    local vals = m.array:read(r)
    local frames = m.stack and m.stack.frames:read(r)
    local flat = {}
    for s = 0, m.slots do
      local at = s * m.width
      if vals[at + 1] ~= 0 then
        if m.ranked == 1 then flat[#flat + 1] = r end
        local slot = s
        if m.stack then
          local e = T.idiv(s, m.inner)
          for d = 1, depth do flat[#flat + 1] = s < m.slots and frames[e * depth + d] or 0 end
          slot = s < m.slots and s - e * m.inner or m.inner
        end
        flat[#flat + 1] = slot
        for j = 1, m.width do flat[#flat + 1] = vals[at + j] end
      end
    end
    T.merge(into, m, flat)
  end
end

-- view sets what map m prints: the ranks' merged state less the state at the last clear,
-- entry by entry (every aggregation an interval may clear adds up), events gone with it.
function T.view(result, m)
  local cum, base = result.cum[m.name], result.base[m.name]
  local shown = {}
  for id, e in pairs(cum.entries) do
    local b = base.entries[id]
    local vals = {}
    for j = 1, m.width do vals[j] = e.vals[j] - (b and b.vals[j] or 0) end
    if vals[1] ~= 0 then shown[id] = {key = e.key, vals = vals} end
  end
  result.raw[m.name] = shown
  local over = cum.overflow - base.overflow
  result.overflow[m.name] = over ~= 0 and over or nil
end

-- value is what a map entry shows: a number, a stats table, or bucket counts.
function T.value(m, vals)
  local n = vals[1]
  if m.agg == "count" then return n end
  if m.agg == "sum" or m.agg == "min" or m.agg == "max" then return vals[2] end
  if m.agg == "avg" then return T.idiv(vals[2], n) end
  if m.agg == "stats" then return {count = n, average = T.idiv(vals[2], n), total = vals[2]} end
  local b = {}
  for j = 2, #vals do b[j - 1] = vals[j] end
  return b
end

-- size_label writes a power of two as bpftrace does: 1K, 2M, ...
local function size_label(v)
  local units = {"", "K", "M", "G", "T", "P", "E"}
  local u = 1
  while v >= 1024 and v % 1024 == 0 and u < #units do v, u = v / 1024, u + 1 end
  return string.format("%d%s", v, units[u])
end

local function hist_label(i)
  if i == 1 then return "(..., 0)" end
  if i == 2 then return "[0]" end
  if i == 3 then return "[1]" end
  local lo = 2 ^ (i - 3)
  return string.format("[%s, %s)", size_label(math.floor(lo)), size_label(math.floor(lo * 2)))
end

local function lhist_label(m, i)
  if i == 1 then return string.format("(..., %d)", m.lo) end
  if i == m.nbuckets + 2 then return string.format("[%d, ...)", m.hi) end
  local lo = m.lo + (i - 2) * m.step
  return string.format("[%d, %d)", lo, lo + m.step)
end

-- print_buckets writes a hist or lhist from its lowest non-empty bucket to its highest.
local function print_buckets(out, m, b)
  local first, last, top = nil, nil, 0
  for i, c in ipairs(b) do
    if c > 0 then first = first or i; last = i; top = math.max(top, c) end
  end
  if not first then return end
  for i = first, last do
    local label = m.agg == "hist" and hist_label(i) or lhist_label(m, i)
    local bar = top > 0 and T.idiv(b[i] * 52, top) or 0
    out(string.format("%-16s%8d |%s%s|", label, b[i], string.rep("@", bar), string.rep(" ", 52 - bar)))
  end
end

local function key_text(m, e)
  if #m.parts == 0 then return "@" .. m.name end
  return "@" .. m.name .. "[" .. T.key_id(e.key, true) .. "]"
end

-- print_map writes map m as bpftrace does: scalar maps sorted by value, histograms by key.
function T.print_map(out, result, m)
  local list = {}
  for _, e in pairs(result.raw[m.name]) do list[#list + 1] = e end
  local function keyless(a, b)
    for j = 1, #a.key do
      local x, y = a.key[j], b.key[j]
      if type(x) == "table" then x, y = T.key_id({x}), T.key_id({y}) end
      if x ~= y then
        if type(x) == type(y) then return x < y end
        return type(x) == "number"
      end
    end
    return false
  end
  local scalar = m.agg ~= "hist" and m.agg ~= "lhist" and m.agg ~= "stats"
  table.sort(list, function(a, b)
    if scalar then
      local va, vb = T.value(m, a.vals), T.value(m, b.vals)
      if va ~= vb then return va < vb end
    end
    return keyless(a, b)
  end)
  for _, e in ipairs(list) do
    local v = T.value(m, e.vals)
    if m.agg == "hist" or m.agg == "lhist" then
      out(key_text(m, e) .. ":")
      print_buckets(out, m, v)
      out("")
    elseif m.agg == "stats" then
      out(string.format("%s: count %d, average %d, total %d", key_text(m, e), v.count, v.average, v.total))
    else
      out(string.format("%s: %d", key_text(m, e), v))
    end
  end
  if #list > 0 and scalar or m.agg == "stats" and #list > 0 then out("") end
  if result.overflow[m.name] then
    local why = string.format("a key part outside 0..%d", T.KEY_BOUND - 1)
    if m.stack then why = why .. string.format(", or a call stack past the %d each rank keeps", T.STACKS) end
    out(string.format("@%s: %d events not kept: %s", m.name, result.overflow[m.name], why))
  end
end

-- maps_of turns the front-end's copies into result.maps: printed key -> value.
function T.maps_of(result, order)
  local maps = {}
  for _, m in ipairs(order) do
    local t = {}
    for id, e in pairs(result.raw[m.name]) do t[id] = T.value(m, e.vals) end
    maps[m.name] = t
  end
  return maps
end


return T
