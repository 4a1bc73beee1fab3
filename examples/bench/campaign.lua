-- campaign: a fault campaign against the shell, the machine and the tree. Each category
-- generates its cases and runs them one by one under pcall:
--   malformed inputs  damaged ELFs, bad rank specs, send formats and topologies
--   hostile programs  programs that exhaust memory, files, descriptors, fork, fault
--                     (the report names function, file:line, callers), look at getcwd
--   MPI misuse        wrong ranks, tags, counts, communicators; deadlock, abort; Isend
--                     and Irecv floods past the node's memory
--   tool faults       bad calls of the tool API on a live job
--   Lua sandbox       filters past their memory or instruction budget (in the call, init,
--                     file chunk, a back-end), yields inside pcall in coroutines, what a
--                     filter's sandbox refuses
--   C modules         truncated, x86, unlinkable objects; module code that faults or loops
--   TCP faults        tree processes killed under a live stream
--   data loss         probe messages counted against what the program did; writes that
--                     fail (a full device, a missing directory) say so
--   determinism       the same run twice gives the same output, time and message order;
--                     ranks see only the environment the launch names
-- The web page (app:serve) is the category "web page" of cmd/dpclsh's TestCampaignWebPage:
-- Lua has no HTTP client, so that Go test sends the hostile requests to the page that
-- examples/bench/campaign_page.lua serves, and logs the row in this table's form.
-- Each case ends one of three ways:
--   held   the shell, the tree and the rest of the job kept running, and any error names
--          what was wrong (file:line, rank, module, the call);
--   broke  the shell, the tree or the job did not keep running (a rank that should end
--          did not within its bound), or a result silently changed (a count, a sum, an
--          output, a control flow other than what the program does);
--   neither ("not held") everything kept running but an error is missing or does not
--          name the problem.
-- A case that ends the host ends the campaign: its exit status says so. Lost counts
-- messages sent and never delivered.
--   dpclsh examples/bench/campaign.lua [reduced|full] [inproc|tcp] [-v]
-- prints per category: cases tried, held, broke, messages lost, then every case that broke
-- or did not hold and why. Files go to a fresh directory under $TMPDIR, removed at the end.
local M = {}

M.order = {"malformed inputs", "hostile programs", "MPI misuse", "tool faults", "Lua sandbox",
  "C modules", "TCP faults", "data loss", "determinism"}

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

-- Each generator adds cases {name, fn} to list; fn returns held, why, lost, broke.
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
  -- A fault names the code: function, file:line and the callers, from DWARF.
  add("mpicrash.elf: rank 3 faults in deref", function()
    local r = bgl.run("bgl/testdata/bin/mpicrash.elf", {nodes = 4, per_io = 8})
    return r.status ~= 0 and says(r.errors, "rank 3: uncaught signal 11", "in deref (src/mpicrash.c:8)",
      "called from step (src/mpicrash.c:16) <- main (src/mpicrash.c:26)"), r.errors:sub(1, 300), 0
  end)
  -- The rank sees the job's directory as /job, never the host's path.
  add("getcwd and /job paths", function()
    writefile(d .. "/inside.txt", "inside\n")
    local r = bgl.run("bgl/testdata/bin/sandbox.elf", {workdir = d})
    local out = r.output .. r.errors
    return says(out, "getcwd: /job\n", "read /job/inside.txt: 7 inside") and not says(out, d), out:sub(1, 200), 0
  end)
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
  -- Requests and messages nobody completes count against the node's memory: the call
  -- past it fails with MPI_ERR_NO_MEM naming rank and call, and the job ends.
  for _, f in ipairs({{"isendflood", "MPI_Isend"}, {"irecvflood", "MPI_Irecv"}}) do
    add(f[1] .. ", 16 MiB nodes", function()
      local r = bgl.run(misuse, {nodes = 2, per_io = 8, args = {f[1]}, memory_mb = 16})
      return r.status == 34 and says(r.errors, "rank ", f[2], "MPI_ERR_NO_MEM", "of 16 MiB"), r.errors:sub(1, 240), 0
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
-- delivers every tick and the job ends normally. The call's error must say every string
-- of want, if given.
local function toolcase(bad, want)
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
    local ticks = 20 * (1 + 2 + 3 + 4)
    local held = not ok and type(err) == "string" and #err > 0 and st.exited == 4
    if held and want then held = says(err, unpack(want)) end
    return held, tostring(err), math.max(0, ticks - got.n), st.exited ~= 4 or got.n > ticks
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

-- filterjob runs loop.elf on 4 ranks with two probes on tick: one counts with the built-in
-- sum, the other goes through the filter file path. It returns the counted ticks (want:
-- 10 iterations * (1+2+3+4)), the job's status, the second probe's state and its first
-- failure reason, or the error install raised.
local ticks = 10 * (1 + 2 + 3 + 4)
local function filterjob(path, budget)
  local app = dpcl.launch(loop, {nodes = 4, per_io = 8, args = {"10"}, quiet = true})
  local got = {n = 0}
  local good = app:install(app:points("tick", "entry"), probe.send(1), {filter = "sum",
    callback = function(m) got.n = got.n + m.value end})
  good:activate()
  local ok, bad = pcall(function()
    return app:install(app:points("tick", "entry"), probe.send(1), {filter = filter.load(path, {budget = budget}),
      callback = function() end})
  end)
  if ok then bad:activate() end
  app:start()
  local st = app:wait(60)
  local state, why = ok and bad.state, not ok and tostring(bad) or nil
  if ok then
    local reasons = {}
    for _, r in pairs(bad:stats().failed) do reasons[#reasons + 1] = r end
    table.sort(reasons)
    why = reasons[1]
  end
  app:close()
  return got.n, st, state, why
end

-- filtercase writes a filter whose file holds chunk at top level, init as init's body and
-- body as the filter function's, runs it beside a counting probe and wants it to fail
-- with an error that names the file and says want, while the job and the counting probe
-- run to their end. The case breaks when they do not (the job hung, or a count changed).
local function filtercase(o, name, parts, want, budget)
  return function()
    local path = o.dir .. "/" .. name .. ".lua"
    writefile(path, (parts.chunk or "") .. "\nreturn {name = " .. string.format("%q", name) ..
      (parts.init and (", init = function(params)\n" .. parts.init .. "\nend") or "") ..
      ", filter = function(state, packets)\n" .. (parts.body or "return {#packets}") .. "\nend}\n")
    local n, st, state, why = filterjob(path, budget or 1e9)
    local kept = st.exited == 4 and st.running == 0 and n == ticks
    return kept and state ~= "active" and says(why, path .. ":", want),
      string.format("%s (counted %d of %d, %d exited)", tostring(why), n, ticks, st.exited),
      math.max(0, ticks - n), not kept
  end
end

local catastrophic = 'string.find(string.rep("a", 30), string.rep("a*", 30) .. "c")'

-- The coroutine scenarios of the issue, with what Lua 5.2 prints for each (gopher-lua's
-- own messages where it has them): a yield inside pcall or xpcall inside a coroutine
-- reaches the resumer and the call completes on a later resume. A different result is a
-- silently changed control flow: the case breaks.
local function show(...)
  local t = {}
  for i = 1, select("#", ...) do t[i] = tostring((select(i, ...))) end
  return table.concat(t, " ")
end
local coroutines = {
  {"yield inside pcall", "true 1 | true true 2 | false can not resume a dead thread", function()
    local co = coroutine.create(function() local ok, v = pcall(function() return coroutine.yield(1) end) return ok, v end)
    return show(coroutine.resume(co)) .. " | " .. show(coroutine.resume(co, 2)) .. " | " .. show(coroutine.resume(co))
  end},
  {"error after a yield inside xpcall", "true 2 | true false handled: boom x", function()
    local co = coroutine.create(function(a)
      return xpcall(function() local r = coroutine.yield(a + 1) error("boom " .. r, 0) end,
        function(m) return "handled: " .. m end)
    end)
    return show(coroutine.resume(co, 1)) .. " | " .. show(coroutine.resume(co, "x"))
  end},
  {"nested pcalls, yields both ways (wrap)", "outer 1 2 | inner 3 | after 4 | true true 4 5 6", function()
    local co = coroutine.wrap(function(...)
      local out = {pcall(function(...)
        local a = coroutine.yield("outer", ...)
        local ok, b, c = pcall(function() local x, y = coroutine.yield("inner", a) return x, y end)
        return ok, b, c, coroutine.yield("after", b)
      end, ...)}
      return show(unpack(out, 1, 5))
    end)
    return show(co(1, 2)) .. " | " .. show(co(3)) .. " | " .. show(co(4, 5)) .. " | " .. show(co(6, 7))
  end},
  {"resumed with fewer values than the yield takes", "only nil true nil nil", function()
    local co = coroutine.wrap(function()
      local a, b = coroutine.yield()
      local ok, c, d = pcall(coroutine.yield)
      return show(a, b, ok, c, d)
    end)
    co() co("only")
    return co()
  end},
  {"return pcall(f) with f yielding", "y | true done", function()
    local co = coroutine.wrap(function() return pcall(function() coroutine.yield("y") return "done" end) end)
    return show(co()) .. " | " .. show(co())
  end},
  {"yield outside a coroutine, through pcall", "false can not yield from outside of a coroutine", function()
    return show(pcall(coroutine.yield, 1))
  end},
  {"wrap: error caught inside pcall between yields", "1 2 caught two 3 end", function()
    local gen = coroutine.wrap(function()
      for i = 1, 3 do
        local ok, err = pcall(function() coroutine.yield(i) if i == 2 then error("two", 0) end end)
        if not ok then coroutine.yield("caught " .. err) end
      end
      return "end"
    end)
    return show(gen(), gen(), gen(), gen(), gen())
  end},
}

function gen.sandbox(add, o)
  -- Filters that allocate far past their 64 MiB budget fail their own probe only.
  local hogs = {
    {"string.rep .. i, kept in a table", "local t = {} for i = 1, 1000 do t[i] = string.rep(\"x\", 60 * 2^20) .. i end return {#t}",
      "memory budget exceeded: string concatenation of 60 MiB"},
    {"table growth", "local t = {} for i = 1, 1e8 do t[i] = {i, i, i, i, i, i, i, i} end return {#t}", "memory budget exceeded"},
    {"string.rep, kept", "local t = {} for i = 1, 1000 do t[i] = string.rep(\"y\", 10 * 2^20) end return {#t}",
      "memory budget exceeded: string.rep of 10 MiB"},
    {"table.concat, kept", "local p = {string.rep(\"x\", 2^20)} for i = 1, 4 do p[#p + 1] = p[1] end local t = {} for i = 1, 100 do t[i] = table.concat(p) end return {#t}",
      "memory budget exceeded: table.concat of 5 MiB"},
  }
  for i, h in ipairs(hogs) do
    if not o.reduced or i <= 2 then
      add("filter allocates past its budget: " .. h[1], filtercase(o, "hog" .. i, {body = h[2]}, h[3]))
    end
  end
  -- A pattern that backtracks 30^30 ways, in each place a filter file runs code.
  local bt = "budget exceeded: more than 1000000 Lua instructions in one call"
  add("catastrophic pattern in a filter call", filtercase(o, "bt_filter", {body = "return {" .. catastrophic .. " or 0}"}, bt, 1e6))
  add("catastrophic pattern in a filter's init", filtercase(o, "bt_init", {init = "return {" .. catastrophic .. "}"}, bt, 1e6))
  add("catastrophic pattern in a filter file's chunk", function()
    local path = o.dir .. "/bt_chunk.lua"
    writefile(path, "local x = " .. catastrophic .. "\nreturn {filter = function(s, p) return {#p} end}\n")
    local ok, err = pcall(filter.load, path)
    return not ok and says(err, path .. ":1: budget exceeded: more than 20000000 Lua instructions"), tostring(err), 0
  end)
  add("catastrophic pattern in a back-end callback", function()
    local net = netreduce.new{topology = "b:2^2"}
    net:on_backend(function() return string.find(string.rep("a", 30), string.rep("a*", 30) .. "c") end)
    local st = net:stream(net:broadcast(), {up = "sum"})
    st:send("%d", 1)
    local ok, err = pcall(st.recv, st, 5)
    net:on_backend(function() return 1 end)
    st:send("%d", 1)
    local v = st:recv(5)
    net:close()
    return not ok and says(err, "back-end ", "budget exceeded") and v == 4, tostring(err), 4 - (v or 0), v ~= 4
  end)
  -- Yields inside protected calls inside coroutines, in the campaign's own session.
  for i, c in ipairs(coroutines) do
    if not o.reduced or i % 2 == 1 then
      add("coroutine: " .. c[1], function()
        local ok, got = pcall(c[3])
        if not ok then return false, "raised: " .. tostring(got), 0 end
        return got == c[2], got, 0, got ~= c[2]
      end)
    end
  end
  -- What a filter's sandbox leaves out is refused by name, at the filter's line.
  local refused = {{"os", "os.execute(\"true\")"}, {"io", "io.open(\"/etc/passwd\")"}, {"require", "require(\"os\")"},
    {"loadstring", "loadstring(\"return 1\")()"}, {"dofile", "dofile(\"/etc/passwd\")"}, {"print", "print(#packets)"},
    {"coroutine", "coroutine.wrap(function() end)()"}, {"collectgarbage", "collectgarbage()"}}
  for i, r in ipairs(refused) do
    if not o.reduced or i <= 4 then
      add("filter calls " .. r[2], function()
        local path = o.dir .. "/refuse_" .. r[1] .. ".lua"
        writefile(path, "return {filter = function(state, packets)\n" .. r[2] .. "\nreturn {1}\nend}\n")
        local ok, err = pcall(function() return filter.load(path):apply({{1}}) end)
        return not ok and says(err, path .. ":2: " .. r[1] .. " is not available in the sandbox"), tostring(err), 0
      end)
    end
  end
end

-- A C module loaded by app:load_module: made at campaign time from the example module
-- (cut short), by the host's C compiler (an x86 object), or prebuilt and refused by design.
local msgstats = "examples/cmodules/msgstats.o"
local faulty = "examples/bench/campaign/faulty.o"

-- x86object compiles a one-line C file with the host's cc; without one it marks a copy
-- of the example module as x86-64 (e_machine 62), which the loader must refuse the same.
local function x86object(dir)
  local src, obj = dir .. "/x86.c", dir .. "/x86.o"
  writefile(src, "int twice(int x) { return 2 * x; }\n")
  if os.execute("cc -c -o " .. shq(obj) .. " " .. shq(src) .. " 2>/dev/null") ~= 0 then
    local b = readfile(msgstats)
    writefile(obj, b:sub(1, 0x12) .. "\0\62" .. b:sub(0x15))
  end
  return obj
end

-- modulecase runs the module function fn on every rank's tick (probe.rank() as its
-- argument; faulty.o misbehaves on rank 1 only), with no filter, and a counting probe on
-- step. It holds when the other ranks run to their end and see every tick, rank 1 stops
-- where check says, and the job can be closed; it breaks when a rank other than 1 does not
-- end or a count changes.
local function modulecase(fn, check)
  return function()
    local app = dpcl.launch(loop, {nodes = 4, per_io = 8, args = {"10"}, quiet = true})
    local mod = app:load_module(faulty)
    local events = {}
    app:on("fault", function(ev) events[#events + 1] = ev end)
    local got = {}
    app:install(app:points("tick", "entry"), probe.send(probe.call(mod, fn, probe.rank())), {
      callback = function(m) got[m.rank] = (got[m.rank] or 0) + 1 end}):activate()
    app:start()
    -- The other ranks end within a few virtual milliseconds.
    local st = app:wait(0.5)
    local pc = app:process(1):pc()
    local held, why = check(st, events, pc, mod)
    app:close()
    local lost, changed = 0, st.exited ~= 3
    for r = 0, 3 do
      if r ~= 1 then
        lost = lost + math.max(0, 10 * (r % 4 + 1) - (got[r] or 0))
        changed = changed or (got[r] or 0) > 10 * (r % 4 + 1)
      end
    end
    return held and not changed and lost == 0, why, lost, changed or lost > 0
  end
end

function gen.cmodules(add, o)
  local good = readfile(msgstats)
  local cuts = o.reduced and {0, 52, math.floor(#good / 2)} or {0, 1, 16, 52, 100, math.floor(#good / 2), #good - 1}
  local bad = {}
  for _, n in ipairs(cuts) do
    local p = o.dir .. "/msgstats_cut" .. n .. ".o"
    writefile(p, good:sub(1, n))
    bad[#bad + 1] = {"object cut at " .. n .. " bytes", p, "truncated"}
  end
  bad[#bad + 1] = {"x86-64 object", x86object(o.dir), "not a 32-bit big-endian PowerPC object"}
  bad[#bad + 1] = {"undefined symbol", "probes/cobj/testdata/undefined.o", "no_such_function_anywhere: undefined symbol"}
  bad[#bad + 1] = {"-fpic object (GOT16)", "probes/cobj/testdata/counters-fpic.o", "R_PPC_GOT16"}
  bad[#bad + 1] = {"small data (-msdata=sysv)", "probes/cobj/testdata/counters-sdata.o", "small data"}
  bad[#bad + 1] = {".bss larger than the region", "probes/cobj/testdata/toobig.o", ".bss: 33554432 bytes"}
  bad[#bad + 1] = {"not an ELF file", "examples/cmodules/msgstats.c", "not an ELF object"}
  for i, b in ipairs(bad) do
    if not o.reduced or i <= #cuts + 3 or i % 2 == 0 then
      add(b[1], toolcase(function(app) app:load_module(b[2]) end, {b[2], b[3]}))
    end
  end
  add("module loaded twice", toolcase(function(app)
    app:load_module(msgstats)
    app:load_module(msgstats)
  end, {msgstats, "module msgstats is already loaded"}))
  -- A module function that faults kills its rank, as a fault in the program would.
  add("module function faults on rank 1", modulecase("crash_on", function(st, events, pc, mod)
    local ev = events[1]
    local msg = ev and ev.message or "no fault event"
    return st.faulted == 1 and #events == 1 and ev.rank == 1 and says(msg, "rank 1", "signal 11", "faulty", "crash_on"), msg
  end))
  -- The runtime does not bound module code (nor a program's): the rank runs until the
  -- tool stops it, and the tool sees it inside the module.
  add("module function loops on rank 1", modulecase("spin_on", function(st, events, pc, mod)
    local inside = pc:num() >= mod.base:num() and pc:num() < mod.base:num() + mod.size
    return st.running == 1 and #events == 0 and inside,
      string.format("rank 1 at pc %s, module at %s (%d bytes), %d running", tostring(pc), tostring(mod.base), mod.size, st.running)
  end))
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
          string.format("sum %s then %s, %d lost back-ends", tostring(before), tostring(after), gone), lost,
          (before or 0) > nb or (after or 0) > nb - gone
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
    return lost == 0, string.format("program %d, sent %d, delivered %d, received %d", want, st.sent, st.delivered, got.n), lost,
      got.n > want
  end
end

function gen.data(add, o)
  for _, n in ipairs(o.reduced and {4} or {1, 8, 64}) do
    for _, f in ipairs({"sum", "none"}) do
      add(string.format("%d ranks, filter %s", n, f), datacase(n, o.reduced and 10 or 50, f ~= "none" and f or nil))
    end
  end
  -- A write that fails says so; nothing is left under the final name.
  add("dpcl.write_file to /dev/full", function()
    local ok, err = pcall(dpcl.write_file, "/dev/full", "data")
    return not ok and says(err, "cannot write /dev/full: "), tostring(err), 0, ok
  end)
  add("dpcl.write_file into a missing directory", function()
    local p = o.dir .. "/missing/out.csv"
    local ok, err = pcall(dpcl.write_file, p, "data")
    local f = io.open(p)
    if f then f:close() end
    return not ok and not f and says(err, "cannot write " .. p), tostring(err), 0, ok or f ~= nil
  end)
  add("limpio trace to /dev/full", function()
    local limpio = require("limpio")
    local app = dpcl.launch("examples/apps/bin/ring.elf", {nodes = 2, quiet = true, args = {"2"}})
    local tr = limpio.trace(app)
    app:start()
    app:wait(60)
    app:close()
    local ok, err = pcall(function() tr:perfetto("/dev/full") end)
    return not ok and says(err, "cannot write /dev/full: "), tostring(err), 0, ok
  end)
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
        return same, same and "identical" or "outputs differ", 0, not same
      end)
    end
  end
  -- Ranks see the environment the launch names and nothing of the host's.
  add("ranks see no host variable", function()
    local r = bgl.run("bgl/testdata/bin/printenv.elf", {})
    return r.output == "0 variables\n", r.output:sub(1, 200), 0, r.output ~= "0 variables\n"
  end)
  add("env and export reach the ranks", function()
    local app = dpcl.launch("bgl/testdata/bin/printenv.elf", {env = {A = "1"}, export = {"PATH"}, quiet = true})
    local env = app:env()
    app:close()
    local ok = env.A == "1" and env.PATH == os.getenv("PATH") and #(function() local k = {} for n in pairs(env) do k[#k + 1] = n end return k end)() == 2
    return ok, "A=" .. tostring(env.A) .. " PATH " .. (env.PATH == os.getenv("PATH") and "exported" or "missing"), 0, not ok
  end)
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
    return a == b and #a > 0, a == b and "identical" or "message order differs", 0, a ~= b
  end)
end

local generators = {{"malformed inputs", gen.malformed}, {"hostile programs", gen.hostile},
  {"MPI misuse", gen.mpi}, {"tool faults", gen.tool}, {"Lua sandbox", gen.sandbox},
  {"C modules", gen.cmodules}, {"TCP faults", gen.tcp},
  {"data loss", gen.data}, {"determinism", gen.determinism}}

-- run executes the campaign and returns {[category] = {tried=, held=, broke=, lost=,
-- failed={...}, broken={...}}}.
function M.run(opts)
  opts = opts or {}
  local o = {reduced = opts.reduced, transport = opts.transport or "inproc", dir = mkworkdir()}
  local res = {}
  for _, g in ipairs(generators) do
    local cat = {tried = 0, held = 0, broke = 0, lost = 0, failed = {}, broken = {}}
    res[g[1]] = cat
    local cases = {}
    g[2](function(name, fn) cases[#cases + 1] = {name, fn} end, o)
    for _, c in ipairs(cases) do
      cat.tried = cat.tried + 1
      if opts.verbose then opts.verbose(string.format("%s | %s | ...", g[1], c[1])) end
      -- An error the case raises reached the script: the shell kept running, but the case
      -- did not get the error it wanted.
      local ok, held, why, lost, broke = pcall(c[2])
      if not ok then
        held, why, lost, broke = false, "raised: " .. tostring(held), 0, false
      end
      local verdict = broke and "broke" or held and "held" or "NOT HELD"
      if broke then
        cat.broke = cat.broke + 1
        cat.broken[#cat.broken + 1] = c[1] .. ": " .. tostring(why)
      elseif held then
        cat.held = cat.held + 1
      else
        cat.failed[#cat.failed + 1] = c[1] .. ": " .. tostring(why)
      end
      if opts.verbose then
        opts.verbose(string.format("%s | %s | %s | lost %d | %s", g[1], verdict, c[1],
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
  out(string.format("%-18s %6s %6s %6s %6s", "category", "tried", "held", "broke", "lost"))
  local t = {tried = 0, held = 0, broke = 0, lost = 0}
  for _, name in ipairs(M.order) do
    local c = res[name]
    out(string.format("%-18s %6d %6d %6d %6d", name, c.tried, c.held, c.broke, c.lost))
    t.tried, t.held, t.broke, t.lost = t.tried + c.tried, t.held + c.held, t.broke + c.broke, t.lost + c.lost
  end
  out(string.format("%-18s %6d %6d %6d %6d", "total", t.tried, t.held, t.broke, t.lost))
  for _, name in ipairs(M.order) do
    for _, f in ipairs(res[name].broken) do out("broke: " .. name .. ": " .. f) end
    for _, f in ipairs(res[name].failed) do out("not held: " .. name .. ": " .. f) end
  end
end

if arg and arg[0] and arg[0]:match("campaign%.lua$") then
  M.report(M.run{reduced = arg[1] ~= "full", transport = arg[2],
    verbose = arg[3] == "-v" and function(line) io.stderr:write(line, "\n") end or nil})
end
return M
