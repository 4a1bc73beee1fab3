package script

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/dpclsh/dpclsh/bgl"
)

// Progress display timing (wall clock: this is the user interface, not the simulation).
const (
	progressDelay = 300 * time.Millisecond // runs shorter than this draw nothing
	progressTick  = 200 * time.Millisecond
	progressBar   = 24 // characters of the bar
)

// ProgressLine draws a job's progress as one line on a terminal, redrawn in place: ranks
// loaded (launch), ranks through a window that outlasts a tick (a large job's first
// windows: "ranks starting"), or ranks ended (run; a sweeping block until the first
// ends, or, when the wait has a horizon in virtual time, a bar of the span run so far),
// virtual time and simulated instructions per second. It
// only reads the job's bgl.Progress counters, so it cannot change what the job does.
// Output that must appear while it is shown goes through Writer, which clears the line
// first; the next tick draws it again below.
type ProgressLine struct {
	w     io.Writer
	p     *bgl.Progress
	mu    sync.Mutex
	phase string
	// from and until are the span of virtual time (ns) the wait runs to, when it has one
	// (dpcl.sleep): the bar fills as the job's virtual time crosses it. until 0: none.
	from, until uint64
	shown       bool
	stop        chan struct{}
	done        chan struct{}

	lastInstr uint64
	lastAt    time.Time
	rate      float64 // instructions per wall second, smoothed
	ticks     int     // lines drawn: the spinner's position
	// windows is the job's window count at the last draw; slowWindow says no window
	// ended since the draw before.
	windows    uint64
	slowWindow bool
}

// StartProgress draws p on w under the name phase ("launch", "run", "wait") until Stop.
// Until every rank is loaded the line shows the launch.
func StartProgress(w io.Writer, p *bgl.Progress, phase string) *ProgressLine {
	return StartProgressUntil(w, p, phase, 0, 0)
}

// StartProgressUntil is StartProgress for a wait with a horizon: it runs the job from
// virtual time from to until (ns), and the bar shows how much of that span has passed.
func StartProgressUntil(w io.Writer, p *bgl.Progress, phase string, from, until uint64) *ProgressLine {
	pl := &ProgressLine{w: w, p: p, phase: phase, from: from, until: until, stop: make(chan struct{}), done: make(chan struct{}),
		lastInstr: p.Instructions.Load(), lastAt: time.Now()}
	go pl.loop()
	return pl
}

func (pl *ProgressLine) loop() {
	defer close(pl.done)
	select {
	case <-pl.stop:
		return
	case <-time.After(progressDelay):
	}
	t := time.NewTicker(progressTick)
	defer t.Stop()
	for {
		pl.draw()
		select {
		case <-pl.stop:
			return
		case <-t.C:
		}
	}
}

// Stop ends the display and clears its line.
func (pl *ProgressLine) Stop() {
	close(pl.stop)
	<-pl.done
	pl.mu.Lock()
	defer pl.mu.Unlock()
	pl.clear()
}

func (pl *ProgressLine) clear() {
	if pl.shown {
		io.WriteString(pl.w, "\r\x1b[K")
		pl.shown = false
	}
}

func (pl *ProgressLine) draw() {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	now := time.Now()
	instr := pl.p.Instructions.Load()
	if dt := now.Sub(pl.lastAt).Seconds(); dt > 0 && instr >= pl.lastInstr {
		r := float64(instr-pl.lastInstr) / dt
		if pl.rate == 0 {
			pl.rate = r
		} else {
			pl.rate = 0.5*pl.rate + 0.5*r
		}
	}
	pl.lastInstr, pl.lastAt = instr, now
	w := pl.p.Windows.Load()
	pl.slowWindow, pl.windows = w == pl.windows, w
	pl.ticks++
	io.WriteString(pl.w, "\r\x1b[K"+pl.text())
	pl.shown = true
	pl.p.Request()
}

// text is the line without terminal controls.
func (pl *ProgressLine) text() string {
	p := pl.p
	ranks := p.Ranks.Load()
	if loaded := p.Loaded.Load(); pl.phase == "launch" || loaded < ranks {
		return fmt.Sprintf("launch %s %d/%d ranks loaded", bar(loaded, ranks), loaded, ranks)
	}
	ended := p.Ended.Load()
	if through, of := p.Through.Load(), p.InWindow.Load(); pl.slowWindow && through < of {
		// A window that outlasts a tick: a large job's first ones, while every rank
		// touches its memory for the first time, last seconds. Its ranks are what moves.
		what := "ranks through the window at virtual " + virtualSeconds(p.NowNS.Load())
		if p.Windows.Load() < 2 && ended == 0 {
			what = "ranks starting"
		}
		return fmt.Sprintf("%s %s %d/%d %s", pl.phase, bar(through, of), through, of, what)
	}
	now := p.NowNS.Load()
	if pl.until > pl.from {
		// The wait ends at a known virtual time: the bar is the share of its span run.
		done := min(max(now, pl.from), pl.until) - pl.from
		return fmt.Sprintf("%s %s virtual %s of %s, %d/%d ranks ended, %d running, %s instr/s",
			pl.phase, bar(int64(done), int64(pl.until-pl.from)), virtualSeconds(now), virtualSeconds(pl.until),
			ended, ranks, p.Running.Load(), siCount(pl.rate))
	}
	// Without a horizon, and with an SPMD job's ranks all ending together, a bar of ended
	// ranks would stay empty: until the first ends, a block sweeping the bar shows the job
	// is alive.
	b := bar(ended, ranks)
	if ended == 0 {
		b = spinner(pl.ticks)
	}
	return fmt.Sprintf("%s %s %d/%d ranks ended, %d running, virtual %s, %s instr/s",
		pl.phase, b, ended, ranks, p.Running.Load(),
		virtualSeconds(now), siCount(pl.rate))
}

// spinnerWidth is the sweeping block's width in the bar.
const spinnerWidth = 4

// spinner is the bar with a block at the position of tick, going back and forth.
func spinner(tick int) string {
	span := progressBar - spinnerWidth
	pos := tick % (2 * span)
	if pos > span {
		pos = 2*span - pos
	}
	return "[" + strings.Repeat("-", pos) + strings.Repeat("=", spinnerWidth) + strings.Repeat("-", span-pos) + "]"
}

func bar(n, of int64) string {
	fill := 0
	if of > 0 {
		// In floating point: a span of virtual ns times the bar's width overflows int64.
		fill = min(int(float64(n)*progressBar/float64(of)), progressBar)
	}
	return "[" + strings.Repeat("#", fill) + strings.Repeat("-", progressBar-fill) + "]"
}

// virtualSeconds prints ns of virtual time as seconds with microsecond digits.
func virtualSeconds(ns uint64) string { return fmt.Sprintf("%.6f s", float64(ns)/1e9) }

func siCount(x float64) string {
	switch {
	case x >= 1e9:
		return fmt.Sprintf("%.2f G", x/1e9)
	case x >= 1e6:
		return fmt.Sprintf("%.1f M", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.1f k", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}

// Writer returns out wrapped so that each write first clears the progress line.
func (pl *ProgressLine) Writer(out io.Writer) io.Writer { return progressWriter{pl, out} }

type progressWriter struct {
	pl  *ProgressLine
	out io.Writer
}

func (w progressWriter) Write(b []byte) (int, error) {
	w.pl.mu.Lock()
	defer w.pl.mu.Unlock()
	w.pl.clear()
	return w.out.Write(b)
}
