package plot

import (
	"image/color"
	"math"

	gonumplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// barSeries is one series of grouped bars, one per category, drawn from the axis's
// bottom so that it works on a log axis too (gonum's BarChart starts every bar at 0,
// which a log scale cannot place). On a log axis a zero bar is not drawn.
type barSeries struct {
	values []float64
	index  int // of this series among count, left to right in each group
	count  int
	color  color.Color
	log    bool
}

func (b *barSeries) Plot(c draw.Canvas, p *gonumplot.Plot) {
	trX, trY := p.Transforms(&c)
	// A group takes 70 % of the distance between categories, shared by its bars.
	width := (trX(1) - trX(0)) * 0.7 / vg.Length(b.count)
	offset := width * vg.Length(float64(b.index)-float64(b.count-1)/2)
	for i, v := range b.values {
		if b.log && v <= 0 {
			continue
		}
		base := c.Min.Y
		if !b.log {
			base = trY(math.Max(0, p.Y.Min))
		}
		x := trX(float64(i)) + offset - width/2
		top := trY(v)
		pts := []vg.Point{{X: x, Y: base}, {X: x, Y: top}, {X: x + width, Y: top}, {X: x + width, Y: base}}
		c.FillPolygon(b.color, c.ClipPolygonY(pts))
	}
}

// DataRange spans the categories and, on a linear axis, 0 to the largest value; on a
// log axis the positive values.
func (b *barSeries) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = -0.5, float64(len(b.values))-0.5
	if b.log {
		ymin, ymax = positiveRange(b.values)
		return
	}
	for _, v := range b.values {
		ymin, ymax = math.Min(ymin, v), math.Max(ymax, v)
	}
	return
}

// Thumbnail is the series' entry in the legend: a filled square.
func (b *barSeries) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(b.color, []vg.Point{
		{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y},
		{X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y},
	})
}
