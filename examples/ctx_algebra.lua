-- Probe contexts without a running job: the node-set algebra of DPCL on BG/L (section 4).
-- Run with: dpclsh examples/ctx_algebra.lua [RANKS]
-- Every constructor takes an application or, as here, a plain number of ranks.

local n = tonumber(arg and arg[1]) or 1024

local function show(label, ...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
  print(string.format("%-12s %s", label, table.concat(parts, " ")))
end

local all = ctx.all(n)                         -- the default context: every rank
show("all:", all)

-- Merge (+), intersect (*), difference (-) and invert (unary -).
local head = ctx.ranks(n, "0-127")
local workers = (all - ctx.single(n, 0)) * head
show("workers:", workers)
show("the rest:", -workers)

-- Membership from a function of the rank (the paper's function pointer).
local leaders = ctx.where(n, function(rank) return rank % 64 == 0 end)
show("leaders:", leaders)

-- The ranks behind one I/O node (64 per I/O node unless told otherwise) and a torus box.
show("I/O node 2:", ctx.ionode(n, 2))
show("8 per I/O:", ctx.ionode(n, 2, 8))
show("torus box:", ctx.box(n, {8, 8, 16}, {0, 0, 0}, {1, 1, 1}))

-- A reproducible 10% sample: exactly floor(#workers * 10 / 100 + 0.5) ranks.
local sample = workers:sample(10, 42)
show("sample:", sample)
show("members:", table.concat(sample:list(), " "))

-- In-place edits; everything else returns a new context.
local c = workers:copy()
c:add(500):add("600-603"):remove("1-100")
show("edited:", c)
show("contains 2?", c:contains(2), "#c =", #c)
local count = 0
for _ in c:ranks() do count = count + 1 end
show("iterated:", count, "ranks")

-- An aggregation travels with the context: sum the probe's values on the way up.
local summed = leaders:aggregate{filter = "sum", sync = "timeout", timeout = 0.005}
show("aggregated:", summed)

-- Set laws hold whatever the size.
show("De Morgan:", -(leaders + head) == (-leaders) * (-head))

-- Contexts of different sizes do not mix.
local ok, err = pcall(function() return all + ctx.all(n + 1) end)
show("mixing:", ok, (err:gsub("^.-:%d+: ", "")))
