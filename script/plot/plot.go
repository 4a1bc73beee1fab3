package plot

import (
	"fmt"
	"image/color"
	"io"
	"path/filepath"
	"strings"

	"github.com/dpclsh/dpclsh/script"
	"github.com/dpclsh/dpclsh/script/fileout"
	lua "github.com/yuin/gopher-lua"
	gonumplot "gonum.org/v1/plot"
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
One line with points per series (x and y of equal length); log_x/log_y use log scales
(all values must then be positive). Writes file (.svg or .png) and returns its name;
the file is written whole or not at all (as dpcl.write_file), else "cannot write FILE: REASON".`, Fn: plotLines},
			{Name: "bars", Doc: `plot.bars{file=, title=, y_label=, labels = {...}, series = {{name=, values={...}}, ...}} -> file
Grouped bars: one group per label, one bar per series in each group (values has one
number per label). Writes file (.svg or .png) and returns its name.`, Fn: plotBars},
		},
	})
}

// plotSize is the figure's size: 12 x 8 cm unless width_cm / height_cm say otherwise.
func plotSize(L *lua.LState, t *lua.LTable) (vg.Length, vg.Length) {
	w, h := 12.0, 8.0
	if v, ok := t.RawGetString("width_cm").(lua.LNumber); ok && v > 0 {
		w = float64(v)
	}
	if v, ok := t.RawGetString("height_cm").(lua.LNumber); ok && v > 0 {
		h = float64(v)
	}
	return vg.Length(w) * vg.Centimeter, vg.Length(h) * vg.Centimeter
}

// newPlot makes a plot with the table's title and axis labels, and checks its file name.
func newPlot(L *lua.LState, t *lua.LTable) (*gonumplot.Plot, string) {
	file, ok := t.RawGetString("file").(lua.LString)
	if !ok || file == "" {
		L.ArgError(1, "file (a .svg or .png name) is required")
	}
	switch strings.ToLower(filepath.Ext(string(file))) {
	case ".svg", ".png":
	default:
		L.ArgError(1, fmt.Sprintf("file %q: the extension must be .svg or .png", string(file)))
	}
	p := gonumplot.New()
	p.Title.Text = optString(t, "title")
	p.X.Label.Text = optString(t, "x_label")
	p.Y.Label.Text = optString(t, "y_label")
	p.Legend.Top = true
	return p, string(file)
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

func plotLines(L *lua.LState) int {
	t := L.CheckTable(1)
	p, file := newPlot(L, t)
	logX, logY := lua.LVAsBool(t.RawGetString("log_x")), lua.LVAsBool(t.RawGetString("log_y"))
	if logX {
		p.X.Scale, p.X.Tick.Marker = gonumplot.LogScale{}, gonumplot.LogTicks{}
	}
	if logY {
		p.Y.Scale, p.Y.Tick.Marker = gonumplot.LogScale{}, gonumplot.LogTicks{}
	}
	for i, s := range seriesOf(L, t) {
		name := optString(s, "name")
		what := fmt.Sprintf("series[%d]", i+1)
		xs := numbers(L, s.RawGetString("x"), what+".x", logX)
		ys := numbers(L, s.RawGetString("y"), what+".y", logY)
		if len(xs) != len(ys) {
			L.ArgError(1, fmt.Sprintf("%s: %d x values for %d y values", what, len(xs), len(ys)))
		}
		pts := make(plotter.XYs, len(xs))
		for j := range xs {
			pts[j].X, pts[j].Y = xs[j], ys[j]
		}
		l, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			L.RaiseError("plot.lines: %s: %v", what, err)
		}
		l.Color, sc.Color = plotutil.Color(i), plotutil.Color(i)
		sc.Shape = plotutil.Shape(i)
		p.Add(l, sc)
		if name != "" {
			p.Legend.Add(name, l, sc)
		}
	}
	return savePlot(L, p, t, file)
}

func plotBars(L *lua.LState) int {
	t := L.CheckTable(1)
	p, file := newPlot(L, t)
	lt, ok := t.RawGetString("labels").(*lua.LTable)
	if !ok || lt.Len() == 0 {
		L.ArgError(1, "labels must be a non-empty array of strings")
	}
	labels := make([]string, lt.Len())
	for i := range labels {
		labels[i] = lua.LVAsString(lt.RawGetInt(i + 1))
	}
	series := seriesOf(L, t)
	w := vg.Points(40 / float64(len(series)))
	for i, s := range series {
		what := fmt.Sprintf("series[%d].values", i+1)
		vals := numbers(L, s.RawGetString("values"), what, false)
		if len(vals) != len(labels) {
			L.ArgError(1, fmt.Sprintf("%s: %d values for %d labels", what, len(vals), len(labels)))
		}
		b, err := plotter.NewBarChart(plotter.Values(vals), w)
		if err != nil {
			L.RaiseError("plot.bars: %s: %v", what, err)
		}
		b.LineStyle.Width = vg.Length(0)
		b.Color = plotutil.Color(i)
		b.Offset = w * vg.Length(float64(i)-float64(len(series)-1)/2)
		p.Add(b)
		if name := optString(s, "name"); name != "" {
			p.Legend.Add(name, b)
		}
	}
	p.NominalX(labels...)
	return savePlot(L, p, t, file)
}

// savePlot draws the figure, then writes it whole or not at all (plot.Save would
// truncate the old figure before drawing the new one, and leave a partial file when a
// write fails).
func savePlot(L *lua.LState, p *gonumplot.Plot, t *lua.LTable, file string) int {
	p.BackgroundColor = color.White
	w, h := plotSize(L, t)
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(file)), ".")
	img, err := p.WriterTo(w, h, format)
	if err != nil {
		L.RaiseError("plot: drawing %s: %v", file, err)
	}
	err = fileout.WriteFunc(file, fileout.Public, func(out io.Writer) error {
		_, err := img.WriteTo(out)
		return err
	})
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	L.Push(lua.LString(file))
	return 1
}
