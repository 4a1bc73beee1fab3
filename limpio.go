package dpclsh

import _ "embed"

// Limpio is the source of limpio.lua, the MPI profiling module run after the prelude: it
// sets the global limpio and package.loaded.limpio, so require("limpio") returns it.
// LimpioTrace (limpio_trace.lua) adds limpio.trace, limpio.segment and the help texts.
//
// Decisions:
//   - Written in Lua over the public API (app:array, app:stack, probe.func(), probe.send of
//     arrays): two installs per tool (entry and exit points of every MPI_* function), so no
//     Go was needed; the per-call work is in the PowerPC snippets, not in Lua.
//   - Profile data stays in rank memory and is read once per rank by the front-end
//     (prof:snapshot()). Table I's equivalence classes group ranks with identical call
//     counts in Lua at the front-end; their percentages are the class's summed times over
//     the class's summed run time. The run time of a rank is from MPI_Init's entry to its
//     last instrumented exit.
//   - Traces are 50 events of 5 int64 (function, start, end, count, peer) per buffer, sent
//     with the slot count when the buffer fills and at MPI_Finalize's exit. Count and peer
//     are arguments 1 and 3 of the point-to-point calls (elements, not bytes; -1 peer for
//     the rest). max_events is per rank; what is past it is counted, not recorded.
//   - The exclude list comes from opts.exclude and opts.env.MPIINSTR_EXCLUDE (dpclsh profile
//     passes the host's MPIINSTR_EXCLUDE); dpcl.launch has no env option yet.
//   - The timeline SVG is written as text: the plot module draws lines and bars, not spans.
//
//go:embed limpio.lua
var Limpio string

// LimpioTrace is the source of limpio_trace.lua, run after Limpio.
//
//go:embed limpio_trace.lua
var LimpioTrace string
