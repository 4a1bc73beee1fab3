-- lib.lua: the prelude loaded into every dpclsh session. Everything here is a plain global
-- function, documented for help() with sethelp.

local floor, huge = math.floor, math.huge
local concat, insert, sort = table.concat, table.insert, table.sort
local format, rep = string.format, string.rep

function printf(fmt, ...)
  io.write(format(fmt, ...))
end
sethelp(printf, "printf(fmt, ...)\nWrites string.format(fmt, ...) without a newline.")

-- key_less orders keys as the printer does: numbers, then strings, then the rest.
local rank = { number = 1, string = 2, boolean = 3 }
local function key_less(a, b)
  local ra, rb = rank[type(a)] or 4, rank[type(b)] or 4
  if ra ~= rb then return ra < rb end
  if ra <= 2 then return a < b end
  return tostring(a) < tostring(b)
end

function keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = k end
  sort(out, key_less)
  return out
end
sethelp(keys, "keys(t) -> array\nThe keys of t, sorted (numbers, then strings, then the rest).")

function values(t)
  local out = {}
  for i, k in ipairs(keys(t)) do out[i] = t[k] end
  return out
end
sethelp(values, "values(t) -> array\nThe values of t in the order of keys(t).")

function map(t, f)
  local out = {}
  for k, v in pairs(t) do out[k] = f(v, k) end
  return out
end
sethelp(map, "map(t, f) -> table\nA table with the same keys, each value replaced by f(value, key).")

function keep(t, pred)
  local out = {}
  if #t > 0 then
    for _, v in ipairs(t) do
      if pred(v) then out[#out + 1] = v end
    end
    return out
  end
  for k, v in pairs(t) do
    if pred(v, k) then out[k] = v end
  end
  return out
end
sethelp(keep, "keep(t, pred) -> table\nThe entries for which pred(value, key) is true; an array stays an array, in order.\n(Not named filter: that is the aggregation-filter module.)")

function reduce(t, f, init)
  local acc = init
  for _, v in ipairs(values(t)) do acc = f(acc, v) end
  return acc
end
sethelp(reduce, "reduce(t, f, init) -> value\nFolds f(acc, value) over the values of t in key order, starting from init.")

function sorted(t, less)
  local out = {}
  for i, v in ipairs(t) do out[i] = v end
  if less then sort(out, less) else sort(out) end
  return out
end
sethelp(sorted, "sorted(array [, less]) -> array\nA sorted copy of an array; less(a, b) as table.sort takes it.")

function sum(t)
  local s = 0
  for _, v in pairs(t) do s = s + v end
  return s
end
sethelp(sum, "sum(t) -> number\nThe sum of the values of t.")

function count(t)
  local n = 0
  for _ in pairs(t) do n = n + 1 end
  return n
end
sethelp(count, "count(t) -> number\nThe number of entries of t (# counts only the array part).")

function top(t, n)
  local out = {}
  for k, v in pairs(t) do out[#out + 1] = { key = k, value = v } end
  sort(out, function(a, b)
    if a.value ~= b.value then return a.value > b.value end
    return key_less(a.key, b.key)
  end)
  for i = (n or 10) + 1, #out do out[i] = nil end
  return out
end
sethelp(top, "top(t [, n]) -> array\nThe n (default 10) entries of t with the largest values, as {key=, value=},\nlargest first; ties in key order.")

-- Histograms, drawn the way bpftrace prints @hist and lhist: one line per bucket from the
-- lowest to the highest non-empty one, a count, and a bar scaled to the largest bucket.
local BAR = 52

local function draw(buckets, lo, hi, label)
  local maxc = 0
  for i = lo, hi do
    if (buckets[i] or 0) > maxc then maxc = buckets[i] end
  end
  local lines = {}
  for i = lo, hi do
    local c = buckets[i] or 0
    local bar = maxc > 0 and floor(c * BAR / maxc) or 0
    lines[#lines + 1] = format("%-16s%8d |%s%s|", label(i), c, rep("@", bar), rep(" ", BAR - bar))
  end
  return concat(lines, "\n") .. "\n"
end

local function numbers(t)
  local out = {}
  for _, v in pairs(t) do
    if type(v) ~= "number" then error("histogram: number expected, got " .. type(v), 3) end
    out[#out + 1] = v
  end
  return out
end

local suffixes = { "", "K", "M", "G", "T", "P", "E" }
local function pow2label(e)
  local unit = 1
  while e >= 10 * unit and unit < #suffixes do unit = unit + 1 end
  return format("%d%s", 2 ^ (e - 10 * (unit - 1)), suffixes[unit])
end

-- hist bucket: -1 for negatives, 0 for 0, 1 for 1, k+1 for [2^k, 2^(k+1)).
local function pow2bucket(v)
  if v < 0 then return -1 end
  v = floor(v)
  if v < 1 then return 0 end
  local b = 1
  while v >= 2 do v = v / 2; b = b + 1 end
  return b
end

local function pow2name(b)
  if b == -1 then return "(..., 0)" end
  if b == 0 then return "[0]" end
  if b == 1 then return "[1]" end
  return format("[%s, %s)", pow2label(b - 1), pow2label(b))
end

function format_hist(t)
  local buckets, lo, hi = {}, huge, -huge
  for _, v in ipairs(numbers(t)) do
    local b = pow2bucket(v)
    buckets[b] = (buckets[b] or 0) + 1
    if b < lo then lo = b end
    if b > hi then hi = b end
  end
  if lo > hi then return "" end
  return draw(buckets, lo, hi, pow2name)
end
sethelp(format_hist, "format_hist(t) -> string\nThe text hist(t) prints.")

function hist(t)
  io.write(format_hist(t))
end
sethelp(hist, "hist(t)\nPrints a power-of-two histogram of the numbers in t, as bpftrace prints @hist:\n[0], [1], [2, 4), [4, 8) ... with K/M/G for powers of 1024, negatives in (..., 0).")

function format_lhist(t, min, max, step)
  if type(min) ~= "number" or type(max) ~= "number" or type(step) ~= "number" then
    error("lhist(t, min, max, step): numbers expected", 2)
  end
  if step <= 0 or max <= min then
    error(format("lhist: need min < max and step > 0, got %s, %s, %s", min, max, step), 2)
  end
  local nb = math.ceil((max - min) / step)
  local buckets, lo, hi = {}, huge, -huge
  for _, v in ipairs(numbers(t)) do
    local b
    if v < min then b = -1 elseif v >= max then b = nb else b = floor((v - min) / step) end
    buckets[b] = (buckets[b] or 0) + 1
    if b < lo then lo = b end
    if b > hi then hi = b end
  end
  if lo > hi then return "" end
  return draw(buckets, lo, hi, function(b)
    if b == -1 then return format("(..., %s)", min) end
    if b == nb then return format("[%s, ...)", max) end
    return format("[%s, %s)", min + b * step, math.min(min + (b + 1) * step, max))
  end)
end
sethelp(format_lhist, "format_lhist(t, min, max, step) -> string\nThe text lhist prints.")

function lhist(t, min, max, step)
  io.write(format_lhist(t, min, max, step))
end
sethelp(lhist, "lhist(t, min, max, step)\nPrints a linear histogram of the numbers in t as bpftrace's lhist does: buckets\n[min, min+step) ... up to max, with (..., min) and [max, ...) for the values outside.")
