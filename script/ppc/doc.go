// Package ppc is the Lua module ppc: decode, print and assemble single PowerPC 440 words.
// It keeps its directory's name and imports the instruction set (package ppc at the
// repository root) as isa.
//
// It registers itself with the kernel (package script) from init; script/std imports it.
// It imports the kernel only, and no other module.
package ppc
