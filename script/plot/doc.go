// Package plot is the Lua module plot: line and bar charts of a script's own data, written
// as SVG or PNG with gonum/plot. gonum's package of the same name is imported as gonumplot,
// so this package keeps its directory's name.
//
// It registers itself with the kernel (package script) from init; script/std imports it.
// It imports the kernel and script/fileout only, and no other module.
//
// Plots use gonum.org/v1/plot, a dependency beyond gopher-lua on
// purpose: it writes both SVG and PNG with axes, log scales, legends and text layout
// that a hand-written SVG writer would have to reimplement, and it is pure Go (no cgo),
// so the shell still builds with Go alone. Only this package imports it.
package plot
