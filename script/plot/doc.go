// Package plot is the Lua module plot: line and bar charts of a script's own data, written
// as SVG or PNG with gonum/plot. gonum's package of the same name is imported as gonumplot,
// so this package keeps its directory's name.
//
// It registers itself with the kernel (package script) from init; script/std imports it.
// It imports the kernel and script/fileout only, and no other module.
package plot
