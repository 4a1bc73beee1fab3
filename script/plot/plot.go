package plot

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/dpclsh/dpclsh/script"
	"github.com/dpclsh/dpclsh/script/fileout"
	lua "github.com/yuin/gopher-lua"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

func init() {
	script.RegisterModule(script.Module{
		Name: "plot",
		Doc: `plot — line and bar charts of the script's own data, written as SVG or PNG (gonum/plot).
The file's extension picks the format (.svg, .png). Experiments under examples/experiments
use it for their figures.`,
		Funcs: []script.Function{
			{Name: "lines", Doc: `plot.lines{file=, title=, x_label=, y_label=, log_x=, log_y=, series = {{name=, x={...}, y={...}}, ...}} -> file
One line with points per series (x and y of equal length), each with its own dash and
marker. log_x/log_y = true use log scales (all values must then be positive), false
linear ones; left out, an axis is logarithmic when its values are positive and span two
decades or more. The legend sits right of the data; the figure is 800 x 500 pixels
unless width_cm/height_cm say otherwise. Writes file (.svg or .png) and returns its name;
the file is written whole or not at all (as dpcl.write_file), else "cannot write FILE: REASON".`, Fn: plotLines},
			{Name: "bars", Doc: `plot.bars{file=, title=, y_label=, labels = {...}, series = {{name=, values={...}}, ...}} -> file
Grouped bars: one group per label, one bar per series in each group (values has one
number per label). log_y as for plot.lines (left out: logarithmic when the values are not
negative and the positive ones span two decades); on a log axis a zero bar is left out.
Writes file (.svg or .png) and returns its name.`, Fn: plotBars},
		},
	})
}

// plotSize is the figure's size: 800 x 500 pixels unless width_cm / height_cm say otherwise.
func plotSize(t *lua.LTable) (vg.Length, vg.Length) {
	w, h := pixels(defaultWidthPx), pixels(defaultHeightPx)
	if v, ok := t.RawGetString("width_cm").(lua.LNumber); ok && v > 0 {
		w = vg.Length(v) * vg.Centimeter
	}
	if v, ok := t.RawGetString("height_cm").(lua.LNumber); ok && v > 0 {
		h = vg.Length(v) * vg.Centimeter
	}
	return w, h
}

// newFigureOf makes a figure with the table's title and axis labels, and checks its file name.
func newFigureOf(L *lua.LState, t *lua.LTable) (*figure, string) {
	file, ok := t.RawGetString("file").(lua.LString)
	if !ok || file == "" {
		L.ArgError(1, "file (a .svg or .png name) is required")
	}
	switch strings.ToLower(filepath.Ext(string(file))) {
	case ".svg", ".png":
	default:
		L.ArgError(1, fmt.Sprintf("file %q: the extension must be .svg or .png", string(file)))
	}
	f := newFigure()
	f.plot.Title.Text = optString(t, "title")
	f.plot.X.Label.Text = optString(t, "x_label")
	f.plot.Y.Label.Text = optString(t, "y_label")
	return f, string(file)
}

func optString(t *lua.LTable, key string) string {
	if s, ok := t.RawGetString(key).(lua.LString); ok {
		return string(s)
	}
	return ""
}

// numbers reads an array of numbers; what names it in errors.
func numbers(L *lua.LState, v lua.LValue, what string, positive bool) []float64 {
	t, ok := v.(*lua.LTable)
	if !ok {
		L.ArgError(1, fmt.Sprintf("%s must be an array of numbers, got %s", what, script.Describe(v)))
	}
	out := make([]float64, t.Len())
	for i := range out {
		n, ok := t.RawGetInt(i + 1).(lua.LNumber)
		if !ok {
			L.ArgError(1, fmt.Sprintf("%s[%d] is %s, not a number", what, i+1, script.Describe(t.RawGetInt(i+1))))
		}
		if positive && n <= 0 {
			L.ArgError(1, fmt.Sprintf("%s[%d] is %v: a log scale needs positive values", what, i+1, float64(n)))
		}
		out[i] = float64(n)
	}
	return out
}

// seriesOf returns the series array of a plot table, and the name of each.
func seriesOf(L *lua.LState, t *lua.LTable) []*lua.LTable {
	st, ok := t.RawGetString("series").(*lua.LTable)
	if !ok || st.Len() == 0 {
		L.ArgError(1, "series must be a non-empty array of tables")
	}
	out := make([]*lua.LTable, st.Len())
	for i := range out {
		s, ok := st.RawGetInt(i + 1).(*lua.LTable)
		if !ok {
			L.ArgError(1, fmt.Sprintf("series[%d] is %s, not a table", i+1, script.Describe(st.RawGetInt(i+1))))
		}
		out[i] = s
	}
	return out
}

// lineSeries is one series of plot.lines as read from the script.
type lineSeries struct {
	name   string
	xs, ys []float64
}

func plotLines(L *lua.LState) int {
	t := L.CheckTable(1)
	f, file := newFigureOf(L, t)
	var series []lineSeries
	var allX, allY []float64
	for i, s := range seriesOf(L, t) {
		what := fmt.Sprintf("series[%d]", i+1)
		xs := numbers(L, s.RawGetString("x"), what+".x", lua.LVAsBool(t.RawGetString("log_x")))
		ys := numbers(L, s.RawGetString("y"), what+".y", lua.LVAsBool(t.RawGetString("log_y")))
		if len(xs) != len(ys) {
			L.ArgError(1, fmt.Sprintf("%s: %d x values for %d y values", what, len(xs), len(ys)))
		}
		series = append(series, lineSeries{name: optString(s, "name"), xs: xs, ys: ys})
		allX, allY = append(allX, xs...), append(allY, ys...)
	}
	p := f.plot
	logX := wantLog(t.RawGetString("log_x"), allX, false)
	logY := wantLog(t.RawGetString("log_y"), allY, false)
	for i, s := range series {
		pts := make(plotter.XYs, len(s.xs))
		for j := range s.xs {
			pts[j].X, pts[j].Y = s.xs[j], s.ys[j]
		}
		l, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			L.RaiseError("plot.lines: series[%d]: %v", i+1, err)
		}
		// Series that coincide stay apart: each has its own dash pattern and glyph, and
		// earlier series have larger glyphs, so a later one's point sits inside, not on top.
		l.Color, sc.Color = plotutil.Color(i), plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i)
		sc.Shape = plotutil.Shape(i)
		sc.Radius = vg.Points(3 + math.Min(4, 0.8*float64(len(series)-1-i)))
		p.Add(l, sc)
		if s.name != "" {
			f.legend.Add(s.name, l, sc)
		}
	}
	if logX {
		lo, hi := positiveRange(allX)
		setLog(&p.X, lo, hi)
	}
	if logY {
		lo, hi := positiveRange(allY)
		setLog(&p.Y, lo, hi)
	}
	return savePlot(L, f, t, file)
}

func plotBars(L *lua.LState) int {
	t := L.CheckTable(1)
	f, file := newFigureOf(L, t)
	p := f.plot
	lt, ok := t.RawGetString("labels").(*lua.LTable)
	if !ok || lt.Len() == 0 {
		L.ArgError(1, "labels must be a non-empty array of strings")
	}
	labels := make([]string, lt.Len())
	for i := range labels {
		labels[i] = lua.LVAsString(lt.RawGetInt(i + 1))
	}
	series := seriesOf(L, t)
	values := make([][]float64, len(series))
	var all []float64
	for i, s := range series {
		what := fmt.Sprintf("series[%d].values", i+1)
		values[i] = numbers(L, s.RawGetString("values"), what, false)
		if len(values[i]) != len(labels) {
			L.ArgError(1, fmt.Sprintf("%s: %d values for %d labels", what, len(values[i]), len(labels)))
		}
		all = append(all, values[i]...)
	}
	logY := wantLog(t.RawGetString("log_y"), all, true)
	if logY {
		if lo, _ := positiveRange(all); lo == 0 {
			L.ArgError(1, "log_y: no positive value to draw on a log scale")
		}
	}
	for i, s := range series {
		b := &barSeries{values: values[i], index: i, count: len(series), color: plotutil.Color(i), log: logY}
		p.Add(b)
		if name := optString(s, "name"); name != "" {
			f.legend.Add(name, b)
		}
	}
	p.NominalX(labels...)
	if logY {
		lo, hi := positiveRange(all)
		setLog(&p.Y, lo, hi)
		// Bars rise from the axis's bottom: a decade below the least keeps it visible.
		p.Y.Min = math.Pow(10, math.Floor(math.Log10(lo/2)))
	}
	return savePlot(L, f, t, file)
}

// savePlot draws the figure, then writes it whole or not at all (plot.Save would
// truncate the old figure before drawing the new one, and leave a partial file when a
// write fails).
func savePlot(L *lua.LState, f *figure, t *lua.LTable, file string) int {
	f.plot.BackgroundColor = color.White
	w, h := plotSize(t)
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(file)), ".")
	img, err := f.writerTo(w, h, format)
	if err != nil {
		L.RaiseError("plot: drawing %s: %v", file, err)
	}
	err = script.WriteFile(script.SessionOf(L), file, fileout.Public, func(out io.Writer) error {
		_, err := img.WriteTo(out)
		return err
	})
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	L.Push(lua.LString(file))
	return 1
}
