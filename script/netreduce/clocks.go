package netreduce

import (
	tree "github.com/dpclsh/dpclsh/netreduce"
	lua "github.com/yuin/gopher-lua"
)

// clockHostsDefaults describe the hosts when a script gives no numbers: a seeded skew
// range of 1.2 ms (NTP-disciplined cluster nodes), 50 µs links (gigabit Ethernet through
// a switch), 10 µs per message written, up to 20 µs of other traffic.
var clockHostsDefaults = tree.ClockHosts{Seed: 1, RangeNs: 1_200_000, LinkNs: 50_000, SendNs: 10_000, JitterNs: 20_000}

// netMeasureClocks is net:measure_clocks{...}: MRNet's clock-skew detection over the
// tree's own links (tree.ClockHosts.MeasureClocks), with the seeded truth next to it.
func netMeasureClocks(L *lua.LState) int {
	n := checkNet(L).net
	h := clockHostsDefaults
	rounds := 3
	if opts := L.OptTable(2, nil); opts != nil {
		num := func(key string, scale float64, into *int64) {
			switch v := opts.RawGetString(key).(type) {
			case lua.LNumber:
				if !(v >= 0) {
					L.ArgError(2, key+" must be a non-negative number")
				}
				*into = int64(float64(v) * scale)
			case *lua.LNilType:
			default:
				L.ArgError(2, key+" must be a number, got "+v.Type().String())
			}
		}
		num("seed", 1, &h.Seed)
		num("range_us", 1e3, &h.RangeNs)
		num("link_us", 1e3, &h.LinkNs)
		num("send_us", 1e3, &h.SendNs)
		num("jitter_us", 1e3, &h.JitterNs)
		r := int64(rounds)
		num("rounds", 1, &r)
		if r < 1 {
			L.ArgError(2, "rounds must be at least 1")
		}
		rounds = int(r)
	}
	topo := n.Topology()
	measured, truth := L.NewTable(), L.NewTable()
	for b, ns := range h.MeasureClocks(topo, rounds) {
		measured.RawSetInt(b, lua.LNumber(float64(ns)/1e3))
	}
	for b, ns := range h.Offsets(topo)[:topo.Backends()] {
		truth.RawSetInt(b, lua.LNumber(float64(ns)/1e3))
	}
	L.Push(measured)
	L.Push(truth)
	return 2
}
