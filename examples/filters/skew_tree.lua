-- skew_tree: clock-skew detection inside the tool's tree (seed 004, section 3), run as a
-- filter on every tool process. Every process stamps what it receives with its own clock
-- (a packet's time). A process's output carries, for every daemon below it, the
-- cumulative skew between that daemon's clock and its own:
--   {send, depth, io1, c1, io2, c2, ...}
-- send: when the packet left, on the process's clock, as the cost model says (the wave's
-- packets handled one at a time from their arrival stamps, then the forward); depth: 0
-- at a daemon; c: this process's clock minus the daemon's, as estimated so far.
-- A parent estimates the local skew of the link a packet came over (its clock minus the
-- child's) as arrival - send - link time, the link's latency and transfer time
-- from the cost model (params.costs, as app:costs() gives it), and adds it to every
-- cumulative value in the packet. At the front-end (the reference clock) c is minus the
-- daemon's offset. params.per_io maps a rank to its I/O node.

local function bytes(nvalues) return 16 + 8 * nvalues end

return {
  name = "skew_tree",

  init = function(params)
    return { c = params.costs, per_io = params.per_io }
  end,

  filter = function(state, packets)
    local c = state.c
    local entries, depth, daemon = {}, 0, packets[1].rank ~= nil
    local recv, per, filt, fval, fwd
    -- A receive also scans every child connection (the event loop's poll) and, at a
    -- daemon, includes CIOD's carrying of the compute node's write. A daemon serves
    -- per_io compute nodes; every child of a comm node takes part in this stream (one
    -- rank per I/O node), so its wave has one packet per connection.
    if daemon then
      recv, per, filt, fval, fwd = c.daemon_recv_ns + c.ciod_ship_ns + state.per_io * c.daemon_poll_stream_ns,
        c.daemon_ns_per_byte, c.daemon_filter_ns, c.daemon_filter_value_ns, c.daemon_fwd_ns
    else
      recv, per, filt, fval, fwd = c.comm_recv_ns + #packets * c.comm_poll_conn_ns, c.comm_node_ns_per_byte,
        c.comm_filter_ns, c.comm_filter_value_ns, c.comm_fwd_ns
    end
    -- Replay this process's queue on its own clock: packets are handled one at a time in
    -- arrival order, each costing its receive and filter time.
    local order = {}
    for i, p in ipairs(packets) do order[i] = p end
    table.sort(order, function(a, b) return a.time < b.time end)
    local busy = order[1].time
    for _, p in ipairs(order) do
      busy = math.max(busy, p.time) + recv + per * bytes(#p) + filt + fval * #p
    end
    for _, p in ipairs(packets) do
      if p.rank ~= nil then
        entries[#entries + 1] = { math.floor(p.rank / state.per_io), 0 }
      else
        local link, lper
        if p[2] == 0 then
          link, lper = c.io_latency_ns, c.io_ns_per_byte
        else
          link, lper = c.comm_latency_ns, c.comm_ns_per_byte
        end
        local skew = p.time - p[1] - (link + lper * bytes(#p))
        for i = 3, #p, 2 do entries[#entries + 1] = { p[i], p[i + 1] + skew } end
        if p[2] + 1 > depth then depth = p[2] + 1 end
      end
    end
    table.sort(entries, function(a, b) return a[1] < b[1] end)
    local nout = 2 + 2 * #entries
    local out = { busy + fwd + per * bytes(nout), depth }
    for _, e in ipairs(entries) do
      out[#out + 1] = e[1]
      out[#out + 1] = e[2]
    end
    return out
  end,
}
