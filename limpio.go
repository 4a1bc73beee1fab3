package dpclsh

import _ "embed"

// Limpio is the source of limpio.lua, the MPI profiling module run after the prelude: it
// sets the global limpio and package.loaded.limpio, so require("limpio") returns it.
//
//go:embed limpio.lua
var Limpio string

// LimpioTrace is the source of limpio_trace.lua (limpio.trace), run after Limpio.
//
//go:embed limpio_trace.lua
var LimpioTrace string
