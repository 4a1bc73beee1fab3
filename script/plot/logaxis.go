package plot

import (
	"math"
	"strconv"

	lua "github.com/yuin/gopher-lua"
	gonumplot "gonum.org/v1/plot"
)

// spansDecades is the ratio of the largest to the smallest positive value from which an
// axis left unspecified is drawn logarithmic: at 100 (two decades) a linear axis squeezes
// the small values into its first pixels (fig7's 1-message bars next to 1,000 vanished).
const spansDecades = 100

// wantLog decides an axis's scale: log_x/log_y when the script gave it (true or false),
// else logarithmic when every value is positive (bars: not negative; zero bars are left
// out of a log axis) and they span at least two decades.
func wantLog(flag lua.LValue, values []float64, zerosAllowed bool) bool {
	if b, ok := flag.(lua.LBool); ok {
		return bool(b)
	}
	lo, hi := math.Inf(1), 0.0
	for _, v := range values {
		switch {
		case v < 0, v == 0 && !zerosAllowed:
			return false
		case v > 0:
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	return hi > 0 && hi/lo >= spansDecades
}

// setLog makes an axis logarithmic with labelled ticks over the values' range, padded by
// a fifth of a decade's factor so the first and last points sit inside the frame.
func setLog(a *gonumplot.Axis, lo, hi float64) {
	a.Scale, a.Tick.Marker = gonumplot.LogScale{}, logTicks{}
	a.Min, a.Max = lo/1.25, hi*1.25
}

// logTicks labels a log axis with plain numbers (1, 10, 100, 0.01) where gonum's LogTicks
// prints 1e+01, and starts at the decade at or below the minimum (LogTicks truncates the
// exponent toward zero, so below 1 it starts above the data). When fewer than three
// powers of ten fall on the axis, 2x and 5x are labelled too, so it never shows a lone
// label or none.
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []gonumplot.Tick {
	lo, hi := math.Floor(math.Log10(min)), math.Ceil(math.Log10(max))
	dense := math.Floor(math.Log10(max))-math.Ceil(math.Log10(min)) < 2
	var ticks []gonumplot.Tick
	for e := lo; e <= hi; e++ {
		decade := math.Pow(10, e)
		for m := 1; m < 10; m++ {
			v := decade * float64(m)
			if v > max*(1+1e-9) || v < min*(1-1e-9) {
				continue
			}
			t := gonumplot.Tick{Value: v}
			if m == 1 || dense && (m == 2 || m == 5) {
				t.Label = tickLabel(v)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// tickLabel writes v as a person would: 0.001 to 100000 in full, else 1e+06.
func tickLabel(v float64) string {
	if v >= 1e-3 && v < 1e6 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// positiveRange is the least and greatest positive value (0, 0 when there is none).
func positiveRange(values []float64) (lo, hi float64) {
	lo = math.Inf(1)
	for _, v := range values {
		if v > 0 {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if hi == 0 {
		return 0, 0
	}
	return lo, hi
}
