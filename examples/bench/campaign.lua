-- campaign: a fault campaign against the shell, the machine and the tree. Each category
-- generates its cases (damaged ELFs, hostile programs, MPI misuse, tool misuse, killed
-- comm processes, probe traffic, repeated runs) and runs them one by one under pcall; a
-- case holds when the shell, the tree and the rest of the job kept running and any error
-- names what was wrong. Lost counts messages sent and never delivered.
--   dpclsh examples/bench/campaign.lua [reduced|full] [inproc|tcp] [-v]
-- prints per category: cases tried, cases held, messages lost, then every case that did
-- not hold and why. Files go to a fresh directory under $TMPDIR, removed at the end.
local M = {}

M.order = {"malformed inputs", "hostile programs", "MPI misuse", "tool faults", "TCP faults",
  "data loss", "determinism"}

local function shq(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function mkworkdir()
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir -p " .. shq(dir)) == 0, "campaign: cannot create " .. dir)
  return dir
end

local function readfile(path)
  local f = assert(io.open(path, "rb"))
  local b = f:read("*a")
  f:close()
  return b
end

local writefile = dpcl.write_file

-- says reports whether text mentions every pattern (plain find).
local function says(text, ...)
  if type(text) ~= "string" or text == "" then return false end
  for _, p in ipairs({...}) do
    if not text:find(p, 1, true) then return false end
  end
  return true
end

-- Each generator adds cases {name, fn} to list; fn returns held, why, lost.
local gen = {}

local hello = "bgl/testdata/bin/hello.elf"
local hostile = "bgl/testdata/bin/hostile.elf"
local misuse = "bgl/testdata/bin/mpimisuse.elf"
local loop = "runtime/testdata/bin/loop.elf"

-- runs reports a bgl.run that either loads and runs, or fails with an error that names
-- a field or an offset of the file.
local function loadcase(path, want)
  return function()
    local ok, r = pcall(bgl.run, path, {quiet = true})
    if ok then return true, "loaded and ran (status " .. r.status .. ")", 0 end
    return says(r, want) or says(r, "offset"), r, 0
  end
end

function gen.malformed(add, o)
  local good = readfile(hello)
  local cuts = o.reduced and {0, 3, 30, 51, 200} or {0, 1, 3, 4, 10, 16, 17, 24, 30, 40, 44, 50, 51, 52, 60, 100, 200, 1000, 4096}
  for _, n in ipairs(cuts) do
    local p = o.dir .. "/cut" .. n .. ".elf"
    writefile(p, good:sub(1, n))
    add("ELF cut at " .. n .. " bytes", loadcase(p, "ppc: load ELF"))
  end
  -- Header fields set to all ones, one at a time: e_type .. e_shstrndx.
  local fields = {{0x10, 2}, {0x12, 2}, {0x14, 4}, {0x18, 4}, {0x1c, 4}, {0x20, 4}, {0x24, 4},
    {0x28, 2}, {0x2a, 2}, {0x2c, 2}, {0x2e, 2}, {0x30, 2}, {0x32, 2}}
  for i, f in ipairs(fields) do
    if not o.reduced or i % 3 == 1 then
      local p = o.dir .. string.format("/field%x.elf", f[1])
      writefile(p, good:sub(1, f[1]) .. string.rep("\255", f[2]) .. good:sub(f[1] + f[2] + 1))
      add(string.format("ELF header bytes 0x%x..0x%x set to ff", f[1], f[1] + f[2] - 1), loadcase(p, "ppc: load ELF"))
    end
  end
  local ranks = {"0-", "5-2", "a", "0,,1", "99", "-1", "0-3x", "1-99999999999"}
  for i, spec in ipairs(ranks) do
    if not o.reduced or i <= 2 then
      add("rank spec " .. string.format("%q", spec), function()
        local ok, err = pcall(ctx.ranks, 16, spec)
        return not ok and says(err, string.format("%q", spec), "offset"), tostring(err), 0
      end)
    end
  end
  -- Bad formats on a live tree: refused, and the stream still reduces afterwards.
  local formats = {{"%q", 1}, {"%d %d", 1}, {"%", 1}, {"%s", 1}, {"%d", "x"}, {"%f %s", 1.5}}
  for i, f in ipairs(formats) do
    if not o.reduced or i <= 2 then
      add("send format " .. string.format("%q", f[1]), function()
        local net = netreduce.new{topology = "b:2^2"}
        net:on_backend(function() return 1 end)
        local st = net:stream(net:broadcast(), {up = "sum"})
        local ok, err = pcall(st.send, st, f[1], f[2])
        st:send("%d", 1)
        local v = st:recv(5)
        net:close()
        return not ok and says(err, "netreduce: ", "%") and v == 4, tostring(err), 4 - (v or 0)
      end)
    end
  end
  local specs = {"", "b:", "b:0", "b:4^", "k:0@5", "x:1", "g:2:a", "flat:-1", "bgl:1:0:2", "b:2^99"}
  for i, spec in ipairs(specs) do
    if not o.reduced or i <= 4 then
      add("topology " .. string.format("%q", spec), function()
        local ok, err = pcall(netreduce.topology, spec)
        return not ok and says(err, string.format("%q", spec)), tostring(err), 0
      end)
    end
  end
end

-- hostile runs hostile.elf in one mode and wants every rank's output to mention want.
local function hostilecase(args, opts, want)
  return function()
    local r = bgl.run(hostile, {nodes = opts.nodes or 1, per_io = 8, args = args, workdir = opts.dir,
      memory_mb = opts.memory_mb, disk_quota_mb = opts.disk_quota_mb})
    local out = r.output .. r.errors
    return says(out, want), out:sub(1, 200), 0
  end
end

function gen.hostile(add, o)
  local d = o.dir
  writefile(d .. "/files.in", "x")
  os.execute("mkfifo " .. shq(d .. "/pipe") .. " 2>/dev/null")
  local cases = {
    {"malloc until NULL, MAP_FIXED 2.5 GiB (64 MiB nodes)", {"memory"}, {nodes = 2, memory_mb = 64}, "Cannot allocate memory"},
    {"fork and execve", {"fork"}, {}, "one process per node"},
    {"stdin read without input", {"stdin"}, {}, "stdin: 0 bytes, EOF"},
    {"open a FIFO in the workdir", {"fifo", "pipe"}, {}, "open pipe: Permission denied"},
    {"1 GiB file, 8 MiB quota", {"bigfile", "1024"}, {disk_quota_mb = 8}, "Disk quota exceeded"},
    {"1 TiB sparse file", {"sparse"}, {}, "Disk quota exceeded"},
    {"descriptors until EMFILE (8 ranks)", {"files"}, {nodes = 8}, "1021 open, then Too many open files"},
  }
  if not o.reduced then
    cases[#cases + 1] = {"malloc until NULL (512 MiB nodes)", {"memory"}, {nodes = 1}, "totalram 512 MiB"}
    cases[#cases + 1] = {"descriptors until EMFILE (64 ranks)", {"files"}, {nodes = 64}, "1021 open, then Too many open files"}
  end
  for _, c in ipairs(cases) do
    c[3].dir = d
    add(c[1], hostilecase(c[2], c[3], c[4]))
  end
  for _, f in ipairs({{"segv", "signal 11"}, {"abort", "signal 6"}, {"trap", "signal 5"}}) do
    add(f[1] .. ".elf", function()
      local r = bgl.run("bgl/testdata/bin/" .. f[1] .. ".elf", {workdir = d})
      return says(r.errors, f[2], "pc 0x"), r.errors, 0
    end)
  end
end

function gen.mpi(add, o)
  local modes = {"rank", "tag", "count", "comm", "type", "root", "truncate", "request", "noinit",
    "init2", "afterfin"}
  for _, n in ipairs(o.reduced and {2} or {2, 7}) do
    for _, m in ipairs(modes) do
      add(string.format("%s on %d ranks", m, n), function()
        local r = bgl.run(misuse, {nodes = n, per_io = 8, args = {m}})
        return r.status ~= 0 and says(r.errors, "rank ", "MPI_ERR_"), r.errors:sub(1, 200), 0
      end)
    end
    -- messages nobody receives before MPI_Finalize: MPICH finishes, so must the job
    add(string.format("unreceived on %d ranks", n), function()
      local r = bgl.run(misuse, {nodes = n, per_io = 8, args = {"unreceived"}})
      return r.status == 0 and says(r.errors, "never received", "rank 0 -> rank 1"), r.errors:sub(1, 200), 0
    end)
  end
  for _, p in ipairs({"deadlock", "abort"}) do
    for _, n in ipairs(o.reduced and {2} or {1, 2, 7}) do
      add(string.format("%s.elf on %d ranks", p, n), function()
        local ok, r = pcall(bgl.run, "bgl/testdata/mpi/bin/" .. p .. ".elf", {nodes = n, per_io = 8})
        if not ok then return says(r, "rank"), r, 0 end
        return r.status ~= 0 and says(r.errors, "rank"), r.errors:sub(1, 200), 0
      end)
    end
  end
end

-- toolcase launches loop.elf, makes one bad call, then checks that a good probe still
-- delivers every tick and the job ends normally.
local function toolcase(bad)
  return function()
    local app = dpcl.launch(loop, {nodes = 4, per_io = 8, args = {"20"}, quiet = true})
    local ok, err = pcall(bad, app)
    local got = {n = 0}
    local h = app:install(app:points("tick", "entry"), probe.send(1), {filter = "sum",
      callback = function(m) got.n = got.n + m.value end})
    h:activate()
    app:start()
    local st = app:wait(60)
    app:close()
    local want = 20 * (1 + 2 + 3 + 4)
    local held = not ok and type(err) == "string" and #err > 0 and st.exited == 4
    return held, tostring(err), want - got.n
  end
end

function gen.tool(add, o)
  local bad = {
    {"install on no points", function(app) app:install({}, probe.send(1)) end},
    {"points of a missing function", function(app) app:install(app:points("no_such_fn", "entry"), probe.send(1)) end},
    {"unknown point kind", function(app) app:points("tick", "middle") end},
    {"unknown filter", function(app) app:install(app:points("tick", "entry"), probe.send(1), {filter = "no_such_filter"}) end},
    {"remove twice", function(app)
      local h = app:install(app:points("tick", "entry"), probe.send(1))
      h:remove()
      h:remove()
    end},
    {"activate a removed probe", function(app)
      local h = app:install(app:points("step", "entry"), probe.send(1))
      h:remove()
      h:activate()
    end},
    {"variable of unknown type", function(app) app:var("quaternion") end},
    {"unknown event", function(app) app:on("teleport", function() end) end},
    {"process of a rank out of range", function(app) app:process(99) end},
  }
  for i, b in ipairs(bad) do
    if not o.reduced or i % 2 == 1 then add(b[1], toolcase(b[2])) end
  end
end

-- count parses a rank list spec ("0-3,8") into a number of ranks.
local function count(spec)
  local n = 0
  for a, b in tostring(spec):gmatch("(%d+)%-?(%d*)") do
    n = n + (b ~= "" and tonumber(b) - tonumber(a) + 1 or 1)
  end
  return n
end

function gen.tcp(add, o)
  local specs = o.reduced and {"b:2^2"} or {"b:2^2", "b:4^2", "b:2^3"}
  for _, spec in ipairs(specs) do
    local _, nb = netreduce.topology(spec)
    for victim = nb, nb + (o.reduced and 0 or 2) do
      add(string.format("%s over %s, kill tree node %d", spec, o.transport, victim), function()
        local net = netreduce.new{topology = spec, transport = o.transport}
        net:on_backend(function() return 1 end)
        local s = net:stream(net:broadcast(), {up = "sum"})
        s:send("%d", 1)
        local before = s:recv(5)
        local kok, kerr = pcall(net.kill, net, victim)
        s:send("%d", 1)
        local after = s:recv(5)
        local gone = count(net:lost())
        net:close()
        local lost = (nb - (before or 0)) + (nb - gone - (after or 0))
        return before == nb and after == nb - gone and (kok or says(kerr, tostring(victim))),
          string.format("sum %s then %s, %d lost back-ends", tostring(before), tostring(after), gone), lost
      end)
    end
  end
end

-- datacase sends one message per tick from every rank and compares what arrives with
-- what the program does (iters * (rank % 4 + 1) ticks per rank).
local function datacase(nodes, iters, filter, fn, kind)
  return function()
    local app = dpcl.launch(loop, {nodes = nodes, per_io = 8, args = {tostring(iters)}, quiet = true})
    local got = {n = 0}
    local h = app:install(app:points(fn or "tick", kind or "entry"), probe.send(1), {filter = filter,
      callback = function(m) got.n = got.n + (m.value or 0) end})
    h:activate()
    app:start()
    app:wait(120)
    local st = h:stats()
    app:close()
    local want = 0
    for r = 0, nodes - 1 do want = want + (fn and 1 or iters * (r % 4 + 1)) end
    local lost = math.max(st.sent - st.delivered, want - got.n)
    return lost == 0, string.format("program %d, sent %d, delivered %d, received %d", want, st.sent, st.delivered, got.n), lost
  end
end

function gen.data(add, o)
  for _, n in ipairs(o.reduced and {4} or {1, 8, 64}) do
    for _, f in ipairs({"sum", "none"}) do
      add(string.format("%d ranks, filter %s", n, f), datacase(n, o.reduced and 10 or 50, f ~= "none" and f or nil))
    end
  end
  -- Sends just before a rank ends: at main's return and at the entry of _exit.
  if not o.reduced then
    for _, p in ipairs({{"main", "exit"}, {"_exit", "entry"}}) do
      add(string.format("16 ranks, one send at %s %s", p[1], p[2]), datacase(16, 5, nil, p[1], p[2]))
    end
  end
end

function gen.determinism(add, o)
  local progs = {{hello, {}}, {"bgl/testdata/bin/ranks.elf", {}}, {"bgl/testdata/mpi/bin/p2p_order.elf", {}},
    {hostile, {"memory"}}}
  for i, p in ipairs(progs) do
    if not o.reduced or i <= 2 then
      add(p[1] .. " twice", function()
        local a = bgl.run(p[1], {nodes = 7, per_io = 8, args = p[2], memory_mb = 32, seed = 5})
        local b = bgl.run(p[1], {nodes = 7, per_io = 8, args = p[2], memory_mb = 32, seed = 5})
        local same = a.output == b.output and a.errors == b.errors and a.status == b.status and a.time_ns == b.time_ns
        return same, same and "identical" or "outputs differ", 0
      end)
    end
  end
  add("probe traffic twice", function()
    local function once()
      local app = dpcl.launch(loop, {nodes = 8, per_io = 8, args = {"10"}, quiet = true})
      local seq = {}
      local h = app:install(app:points("step", "entry"), probe.send(1), {
        callback = function(m) seq[#seq + 1] = m.rank .. "@" .. m.time_ns end})
      h:activate()
      app:start()
      app:wait(60)
      app:close()
      return table.concat(seq, " ")
    end
    local a, b = once(), once()
    return a == b and #a > 0, a == b and "identical" or "message order differs", 0
  end)
end

local generators = {{"malformed inputs", gen.malformed}, {"hostile programs", gen.hostile},
  {"MPI misuse", gen.mpi}, {"tool faults", gen.tool}, {"TCP faults", gen.tcp},
  {"data loss", gen.data}, {"determinism", gen.determinism}}

-- run executes the campaign and returns {[category] = {tried=, held=, lost=, failed={...}}}.
function M.run(opts)
  opts = opts or {}
  local o = {reduced = opts.reduced, transport = opts.transport or "inproc", dir = mkworkdir()}
  local res = {}
  for _, g in ipairs(generators) do
    local cat = {tried = 0, held = 0, lost = 0, failed = {}}
    res[g[1]] = cat
    local cases = {}
    g[2](function(name, fn) cases[#cases + 1] = {name, fn} end, o)
    for _, c in ipairs(cases) do
      cat.tried = cat.tried + 1
      local ok, held, why, lost = pcall(c[2])
      if not ok then
        held, why, lost = false, "raised: " .. tostring(held), 0
      end
      if held then cat.held = cat.held + 1 else cat.failed[#cat.failed + 1] = c[1] .. ": " .. tostring(why) end
      if opts.verbose then
        opts.verbose(string.format("%s | %s | %s | lost %d | %s", g[1], held and "held" or "NOT HELD", c[1],
          lost or 0, tostring(why):gsub("\n", " "):sub(1, 160)))
      end
      cat.lost = cat.lost + (lost or 0)
    end
  end
  os.execute("rm -rf " .. shq(o.dir))
  return res
end

function M.report(res, out)
  out = out or print
  out(string.format("%-18s %6s %6s %6s", "category", "tried", "held", "lost"))
  local t = {tried = 0, held = 0, lost = 0}
  for _, name in ipairs(M.order) do
    local c = res[name]
    out(string.format("%-18s %6d %6d %6d", name, c.tried, c.held, c.lost))
    t.tried, t.held, t.lost = t.tried + c.tried, t.held + c.held, t.lost + c.lost
  end
  out(string.format("%-18s %6d %6d %6d", "total", t.tried, t.held, t.lost))
  for _, name in ipairs(M.order) do
    for _, f in ipairs(res[name].failed) do out("not held: " .. name .. ": " .. f) end
  end
end

if arg and arg[0] and arg[0]:match("campaign%.lua$") then
  M.report(M.run{reduced = arg[1] ~= "full", transport = arg[2],
    verbose = arg[3] == "-v" and function(line) io.stderr:write(line, "\n") end or nil})
end
return M
