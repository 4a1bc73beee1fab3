package dpclsh

import _ "embed"

// Limpio is the source of limpio.lua, the MPI profiling module run after the prelude: it
// sets the global limpio and package.loaded.limpio, so require("limpio") returns it.
//
//go:embed limpio.lua
var Limpio string
