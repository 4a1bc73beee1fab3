package plot

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/script/scripttest"
	lua "github.com/yuin/gopher-lua"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

func TestLogTicksArePlainNumbersFromTheDecadeBelow(t *testing.T) {
	var labels []string
	for _, tk := range (logTicks{}).Ticks(0.01, 10000) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got, want := strings.Join(labels, " "), "0.01 0.1 1 10 100 1000 10000"; got != want {
		t.Errorf("labels %q, want %q", got, want)
	}
	// Less than two decades: 2x and 5x labelled too, never a lone label.
	labels = nil
	for _, tk := range (logTicks{}).Ticks(1, 50) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got, want := strings.Join(labels, " "), "1 2 5 10 20 50"; got != want {
		t.Errorf("short axis labels %q, want %q", got, want)
	}
}

func TestAxisIsLogWhenValuesSpanTwoDecades(t *testing.T) {
	cases := []struct {
		flag   lua.LValue
		values []float64
		zeros  bool
		want   bool
	}{
		{lua.LNil, []float64{1, 10, 100, 1000}, false, true},
		{lua.LNil, []float64{1, 2, 50}, false, false},
		{lua.LNil, []float64{0, 1, 1000}, false, false},
		{lua.LNil, []float64{0, 1, 1000}, true, true},
		{lua.LNil, []float64{-1, 1, 1000}, true, false},
		{lua.LFalse, []float64{1, 1000}, false, false},
		{lua.LTrue, []float64{1, 2}, false, true},
	}
	for _, c := range cases {
		if got := wantLog(c.flag, c.values, c.zeros); got != c.want {
			t.Errorf("wantLog(%v, %v, zeros %v) = %v, want %v", c.flag, c.values, c.zeros, got, c.want)
		}
	}
}

func TestLegendSitsBesideTheData(t *testing.T) {
	f := newFigure()
	f.plot.Title.Text = "title"
	f.legend.Add("a long series name", &barSeries{color: color.Black})
	c := draw.New(vgimg.New(pixels(defaultWidthPx), pixels(defaultHeightPx)))
	plotArea, legendArea, ok := f.areas(c)
	if !ok {
		t.Fatal("no legend area for a legend with an entry")
	}
	data := f.plot.DataCanvas(plotArea)
	if legendArea.Min.X < data.Max.X {
		t.Errorf("legend starts at x=%v, inside the data area ending at x=%v", legendArea.Min.X, data.Max.X)
	}
	if plotArea.Max.Y > c.Max.Y-margin+1e-9 || plotArea.Min.X < c.Min.X+margin-1e-9 {
		t.Errorf("plot area %v reaches into the %v margin of %v", plotArea.Rectangle, margin, c.Rectangle)
	}
}

// barHeights reads a PNG and returns, for each run of columns holding the colour, the
// number of rows it fills.
func barHeights(t *testing.T, img image.Image, want color.Color) []int {
	t.Helper()
	wr, wg, wb, _ := want.RGBA()
	var heights []int
	in := false
	for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
		n := 0
		for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if r == wr && g == wg && b == wb {
				n++
			}
		}
		switch {
		case n > 0 && !in:
			heights, in = append(heights, n), true
		case n > 0 && n > heights[len(heights)-1]:
			heights[len(heights)-1] = n
		case n == 0:
			in = false
		}
	}
	return heights
}

func TestBarsOverDecadesAreAllVisible(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bars.png")
	out := scripttest.Run(t, `plot.bars{file = "`+file+`", title = "t", labels = {"1", "10", "100", "1000"},
  series = {{name = "no filter", values = {0.05, 0.6, 6, 70}}, {name = "sum", values = {0, 0.2, 1, 9}}}}`)
	if out != "" {
		t.Fatalf("plot.bars: %s", out)
	}
	fh, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	img, err := png.Decode(fh)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 800 || b.Dy() < 500 {
		t.Errorf("image %dx%d, want at least 800x500", b.Dx(), b.Dy())
	}
	// Four bars of the first series plus its legend square; on a linear axis the first
	// (0.05 of 70) would be under one pixel tall.
	h := barHeights(t, img, plotutil.Color(0))
	if len(h) != 5 {
		t.Fatalf("first series: %d runs of its colour (%v), want 4 bars and a legend square", len(h), h)
	}
	for i, v := range h[:4] {
		if v < 40 {
			t.Errorf("bar %d of the first series is %d pixels tall: lost on the axis", i, v)
		}
	}
	// The second series' zero is not drawn on a log axis: three bars and its square.
	if h := barHeights(t, img, plotutil.Color(1)); len(h) != 4 {
		t.Errorf("second series: %d runs of its colour (%v), want 3 bars and a legend square", len(h), h)
	}
}

// TestCoincidingSeriesStayVisible: two series with the same points (a filter that changes
// nothing, a rank that matches another) must both show; drawn alike, the second would
// cover the first entirely.
func TestCoincidingSeriesStayVisible(t *testing.T) {
	file := filepath.Join(t.TempDir(), "lines.png")
	out := scripttest.Run(t, `plot.lines{file = "`+file+`", title = "t",
  series = {{x = {1, 2, 3, 4}, y = {1, 3, 2, 4}}, {x = {1, 2, 3, 4}, y = {1, 3, 2, 4}}}}`)
	if out != "" {
		t.Fatalf("plot.lines: %s", out)
	}
	fh, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	img, err := png.Decode(fh)
	if err != nil {
		t.Fatal(err)
	}
	// Antialiased edges blend with the white page: a pixel counts as the first series'
	// when it is nearer its colour than the second's and clearly not white.
	near := func(c color.Color, r, g, b uint32) uint32 {
		cr, cg, cb, _ := c.RGBA()
		d := func(a, b uint32) uint32 { return max(a, b) - min(a, b) }
		return d(cr, r) + d(cg, g) + d(cb, b)
	}
	first := 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if d0 := near(plotutil.Color(0), r, g, b); d0 < near(plotutil.Color(1), r, g, b) && d0 < near(color.White, r, g, b) {
				first++
			}
		}
	}
	if first < 100 {
		t.Errorf("the first series shows in %d pixels under the second: hidden", first)
	}
}

// titleInk returns the box of the title's ink in a PNG: the first band of rows from the
// top that holds any pixel unlike the top-left corner's (the background), and the
// leftmost and rightmost such pixel in it.
func titleInk(img image.Image) (box image.Rectangle, found bool) {
	b := img.Bounds()
	bg := color.RGBAModel.Convert(img.At(b.Min.X, b.Min.Y))
	inkIn := func(y int) (minX, maxX int, inked bool) {
		minX, maxX = b.Max.X, b.Min.X-1
		for x := b.Min.X; x < b.Max.X; x++ {
			if color.RGBAModel.Convert(img.At(x, y)) != bg {
				minX, maxX, inked = min(minX, x), max(maxX, x), true
			}
		}
		return minX, maxX, inked
	}
	box = image.Rectangle{Min: b.Max, Max: b.Min} // empty; each row of ink widens it
	for y := b.Min.Y; y < b.Max.Y; y++ {
		minX, maxX, inked := inkIn(y)
		if !inked {
			if found {
				return box, true // the band ended
			}
			continue
		}
		found = true
		box.Min.X, box.Max.X = min(box.Min.X, minX), max(box.Max.X, maxX+1)
		box.Min.Y, box.Max.Y = min(box.Min.Y, y), y+1
	}
	return box, found
}

// TestTitleKeepsClearOfTheEdges: a figure's title, short or longer than the figure is
// wide, is drawn with a margin from the image's top, left and right edges, never cut by
// them.
func TestTitleKeepsClearOfTheEdges(t *testing.T) {
	minMargin := 8 // pixels
	titles := map[string]string{
		"short": "Fig. 7",
		"long": "jacobi on 4096 ranks: time in MPI per rank over the whole run, the sum filter against none, " +
			"a fan-out of 64 and one daemon per I/O node, in virtual seconds",
	}
	for name, title := range titles {
		file := filepath.Join(t.TempDir(), name+".png")
		out := scripttest.Run(t, `plot.lines{file = "`+file+`", title = "`+title+`", x_label = "ranks",
  series = {{name = "a", x = {1, 2, 3}, y = {1, 2, 3}}}}`)
		if out != "" {
			t.Fatalf("plot.lines: %s", out)
		}
		fh, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(fh)
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		b := img.Bounds()
		ink, ok := titleInk(img)
		if !ok {
			t.Fatalf("%s title: the image is blank", name)
		}
		if ink.Dy() < 5 || ink.Dy() > b.Dy()/4 {
			t.Fatalf("%s title: the top band of ink %v is not a line of text (image %v)", name, ink, b)
		}
		if top := ink.Min.Y - b.Min.Y; top < minMargin {
			t.Errorf("%s title: ink %d pixels below the top edge, want at least %d", name, top, minMargin)
		}
		if left := ink.Min.X - b.Min.X; left < minMargin {
			t.Errorf("%s title: ink %d pixels from the left edge, want at least %d", name, left, minMargin)
		}
		if right := b.Max.X - ink.Max.X; right < minMargin {
			t.Errorf("%s title: ink %d pixels from the right edge, want at least %d", name, right, minMargin)
		}
	}
}
