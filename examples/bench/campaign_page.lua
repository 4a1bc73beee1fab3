-- campaign_page: the web page's part of the fault campaign. Lua has no HTTP client, so
-- cmd/dpclsh's TestCampaignWebPage drives it: this script opens the page of a 4-rank
-- loop.elf job with a counting probe, prints "url: URL", and serves page calls until the
-- file arg[1] exists; the test sends the page hostile requests meanwhile. Then the job
-- runs, and the last line says whether it and the probe ran to their end:
--   job: 4 exited, 0 running, counted 100 of 100
--   dpclsh examples/bench/campaign_page.lua DONEFILE
local done = assert(arg[1], "usage: campaign_page.lua DONEFILE")
local app = dpcl.launch("runtime/testdata/bin/loop.elf", {nodes = 4, per_io = 8, args = {"10"}, quiet = true})
local counted = 0
app:install(app:points("tick", "entry"), probe.send(1), {filter = "sum",
  callback = function(m) counted = counted + m.value end}):activate()
print("url: " .. app:serve())
io.stdout:flush()
local function exists(path)
  local f = io.open(path)
  if f then f:close() end
  return f ~= nil
end
-- dpcl.sleep runs the page's calls between its steps; the job has not started, so its
-- virtual time stands still.
while not exists(done) do dpcl.sleep(0.001) end
app:start()
local st = app:wait(60)
print(string.format("job: %d exited, %d running, counted %d of %d", st.exited, st.running, counted, 10 * (1 + 2 + 3 + 4)))
app:close()
