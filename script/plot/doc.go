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
//
// What is drawn differently from gonum's defaults, so a figure reads without zooming and
// hides no data: 800 x 500 pixels (layout.go); the legend in a column right of the axes,
// never over a series; a margin around title and labels, and a title wider than the plot
// wrapped onto more lines, never cut by the edges; an axis left unspecified is
// logarithmic when its values span two decades (logaxis.go), labelled 0.01, 1, 100 rather
// than 1e+02, from the decade below the data (gonum's LogTicks starts above it for values
// under 1); series that coincide keep apart by dash pattern and by marker size; bars rise
// from the axis's bottom (bars.go), so they work on a log axis, where gonum's BarChart,
// which starts at 0, cannot be drawn.
package plot
