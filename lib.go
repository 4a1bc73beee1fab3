// Package dpclsh holds the Lua prelude (lib.lua) that every dpclsh session loads. It lives at
// the module root because go:embed cannot reach files above a package's directory.
package dpclsh

import _ "embed"

// Prelude is the source of lib.lua.
//
//go:embed lib.lua
var Prelude string
