package plot

import (
	"io"
	"strings"

	gonumplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The default figure is 800 x 500 pixels at the PNG writer's 96 dots per inch (about
// 21 x 13 cm in an SVG): read without zooming. The old 12 x 8 cm was 453 x 302 pixels.
const (
	defaultWidthPx  = 800
	defaultHeightPx = 500
	pngDPI          = 96
)

// pixels is a length of n pixels at pngDPI.
func pixels(n float64) vg.Length { return vg.Length(n) * vg.Inch / pngDPI }

// margin keeps the title and the axis labels clear of the figure's edges.
var margin = vg.Points(10)

// figure is a plot and its legend, drawn beside the data rather than over it: the
// legend's box sits in a column right of the axes, so no series is hidden under it.
type figure struct {
	plot   *gonumplot.Plot
	legend *gonumplot.Legend
}

func newFigure() *figure {
	p := gonumplot.New()
	p.Title.Padding = vg.Points(8)
	l := gonumplot.NewLegend()
	l.Top, l.Left = true, true
	l.Padding = vg.Points(4)
	return &figure{plot: p, legend: &l}
}

// areas splits the figure's canvas into the plot's part and the legend's column.
// The title is wrapped to the plot's part (it is centred there), so a long one stays
// inside the margins instead of running past both edges.
func (f *figure) areas(c draw.Canvas) (plotArea, legendArea draw.Canvas, hasLegend bool) {
	c = draw.Crop(c, margin, -margin, margin, -margin)
	lw := f.legend.Rectangle(c).Size().X
	if lw == 0 {
		f.plot.Title.Text = wrapText(f.plot.Title.TextStyle, f.plot.Title.Text, c.Size().X)
		return c, draw.Canvas{}, false
	}
	gap := vg.Points(12)
	plotArea = draw.Crop(c, 0, -(lw + gap), 0, 0)
	f.plot.Title.Text = wrapText(f.plot.Title.TextStyle, f.plot.Title.Text, plotArea.Size().X)
	legendArea = draw.Crop(c, c.Size().X-lw, 0, 0, 0)
	// The legend's top lines up with the top of the axes, below the title.
	legendArea.Max.Y = f.plot.DataCanvas(plotArea).Max.Y
	return plotArea, legendArea, true
}

// draw draws the plot, then its legend in its own column.
func (f *figure) draw(c draw.Canvas) {
	if f.plot.BackgroundColor != nil {
		c.SetColor(f.plot.BackgroundColor)
		c.Fill(c.Rectangle.Path())
	}
	plotArea, legendArea, hasLegend := f.areas(c)
	f.plot.Draw(plotArea)
	if hasLegend {
		f.legend.Draw(legendArea)
	}
}

// writerTo renders the figure at w x h in format ("svg" or "png").
func (f *figure) writerTo(w, h vg.Length, format string) (io.WriterTo, error) {
	cw, err := draw.NewFormattedCanvas(w, h, format)
	if err != nil {
		return nil, err
	}
	f.draw(draw.New(cw))
	return cw, nil
}

// wrapText breaks txt at spaces so that no line is wider than width in sty; a text that
// fits, or a single word wider than width, is left as it is. Wrapping a wrapped text
// changes nothing, so drawing a figure twice draws the same title.
func wrapText(sty text.Style, txt string, width vg.Length) string {
	if txt == "" || sty.Width(txt) <= width {
		return txt
	}
	var lines []string
	for _, para := range strings.Split(txt, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			switch {
			case line == "":
				line = word
			case sty.Width(line+" "+word) > width:
				lines, line = append(lines, line), word
			default:
				line += " " + word
			}
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}
