-- Shared pieces of the experiments: the benchmark of seed 000 section 5 (every rank
-- sends a fixed number of one-integer messages through the tool's tree) and CSV output.
-- Every time here is virtual: it comes from the cost model of the tool's processes and
-- links (app:costs()) and from the simulated machine, so each run prints the same bytes.
local C = {}

-- C.loop runs step() once per iteration: a probe on its entry sends one message each.
C.loop = "runtime/testdata/bin/loop.elf"

-- C.receive runs the benchmark: o.nodes ranks, o.msgs messages each (one integer), with
-- o.per_io, o.partition, o.mapping, o.topology, o.costs (dpcl.launch's) and o.filter. It
-- returns the receive time (first to last arrival at the front-end), the latency of the
-- first message and the handle's counts.
function C.receive(o)
  local app = dpcl.launch(C.loop, {nodes = o.nodes, per_io = o.per_io or 8, topology = o.topology,
    partition = o.partition, mapping = o.mapping, costs = o.costs, args = {tostring(o.msgs)}, quiet = true})
  local first = {}
  local h = app:install(app:points("step", "entry"), probe.send(probe.timebase()), {
    filter = o.filter,
    callback = function(m)
      if first.time == nil then first.time, first.sent = m.time_ns, m.value * 10 / 7 end
    end,
  })
  h:activate()
  local activate = app:last_command()
  app:start()
  app:wait()
  local s = h:stats()
  app:close()
  return {receive_ns = s.last - s.first, first = s.first, last = s.last, busy = s.busy, sent = s.sent,
    delivered = s.delivered, latency_ns = first.time - first.sent, activate = activate}
end

-- C.csv writes rows (arrays) under a header (array of column names) to path, whole or not
-- at all (dpcl.write_file raises "cannot write PATH: REASON").
function C.csv(path, header, rows)
  local out = {table.concat(header, ","), "\n"}
  for _, r in ipairs(rows) do
    local cells = {}
    for i, v in ipairs(r) do
      cells[i] = type(v) == "number" and string.format("%.6g", v) or tostring(v)
    end
    out[#out + 1] = table.concat(cells, ",") .. "\n"
  end
  dpcl.write_file(path, out)
  return path
end

-- C.figure draws a plot (kind "lines" or "bars", spec as plot.lines/plot.bars take it)
-- twice: as spec.file, an SVG for papers, and as a PNG beside it for pages that show
-- images (the README's figures). Returns the SVG's name.
function C.figure(kind, spec)
  local svg = plot[kind](spec)
  local png = {}
  for k, v in pairs(spec) do png[k] = v end
  png.file = svg:gsub("%.svg$", ".png")
  plot[kind](png)
  return svg
end

-- C.dir is where an experiment writes: opts.dir (created when missing), or the current
-- directory.
function C.dir(opts)
  local dir = (opts and opts.dir) or "."
  assert(os.mkdir(dir))
  return dir
end

return C
