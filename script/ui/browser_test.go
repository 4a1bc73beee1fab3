package ui_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	dpclsh "github.com/dpclsh/dpclsh"
	"github.com/dpclsh/dpclsh/internal/oracletest"
	"github.com/dpclsh/dpclsh/script"
	_ "github.com/dpclsh/dpclsh/script/std" // dpcl and the modules the page drives
	lua "github.com/yuin/gopher-lua"
)

// syncBuffer is the session's output, read by the test while the session writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serveWhile keeps the session idle, as the REPL's prompt does, until done is closed:
// the machine advances and the page's calls run here.
func serveWhile(s *script.Session, done <-chan struct{}) {
	stop := s.StartIdle()
	defer stop()
	for {
		select {
		case <-done:
			return
		case fn := <-s.Events():
			fn()
		}
	}
}

// screenshotDir is where the page's screenshot is kept: $DPCL_UI_SCREENSHOT_DIR, else
// the test's temporary directory (logged).
func screenshotDir(t *testing.T) string {
	if d := os.Getenv("DPCL_UI_SCREENSHOT_DIR"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// TestBrowserInsertsACounter is the page in a real headless Chromium, on cg with 64 ranks:
// open cg.c, start the job, insert a counter at line 110 from the line's context menu,
// watch its column rise while the job runs, remove it, suspend and resume, and once the
// job finished check every value the page shows against app:source_data. The screenshot
// taken while the column rises is kept as cg_page.png (see screenshotDir).
func TestBrowserInsertsACounter(t *testing.T) {
	chromium := oracletest.Require(t, oracletest.Chromium)
	out := &syncBuffer{}
	s, err := script.NewSessionWith(script.Options{Stdout: out, Stderr: out,
		Prelude: dpclsh.Prelude, PreludeName: "lib.lua"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.DoString(`dpcl.module_dir = "../../examples/modules"
dpcl.load_modules{"counter", "timer"}
app = dpcl.launch("../../examples/apps/bin/cg.elf", {nodes = 64, per_io = 16, args = {"256", "800"}, quiet = true})
URL = app:serve()`, "setup"); err != nil {
		t.Fatal(err)
	}
	url := s.L.GetGlobal("URL").String()
	shot := filepath.Join(screenshotDir(t), "cg_page.png")

	done := make(chan struct{})
	var dom map[string]string
	var browseErr error
	go func() {
		defer close(done)
		dom, browseErr = browse(chromium, url, shot)
	}()
	serveWhile(s, done)
	if browseErr != nil {
		t.Fatalf("%v\nsession output:\n%s", browseErr, out.String())
	}
	t.Logf("screenshot: %s", shot)

	for _, want := range []string{
		`app:start()  -- page`,
		`app:act("counter.count", app:points("cg.c:110"))  -- page`,
		`for _, a in ipairs(app:acts()) do if a.name == "counter.count" and a.file == "cg.c" and a.line == 110 then a:remove() end end  -- page`,
		`app:suspend()  -- page`,
		`app:resume()  -- page`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the session's output lacks %q:\n%s", want, out.String())
		}
	}
	checkAgainstSourceData(t, s, dom)
}

// checkAgainstSourceData compares the page's cells (key "LINE/COLUMN", "program/COLUMN",
// "file/COLUMN") with app:source_data evaluated in the session.
func checkAgainstSourceData(t *testing.T, s *script.Session, dom map[string]string) {
	fn, err := s.Load(`local d = app:source_data("cg.c")
local out = {}
local function put(k, v) if v ~= nil then out[k] = v end end
for _, l in ipairs(d.lines) do for c, v in pairs(l.values) do put(l.line .. "/" .. c, v) end end
for c, v in pairs(d.program_totals) do put("program/" .. c, v) end
for c, v in pairs(d.file_totals) do put("file/" .. c, v) end
return out`, "check")
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Call(fn)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{}
	res[0].(*lua.LTable).ForEach(func(k, v lua.LValue) { want[k.String()] = float64(v.(lua.LNumber)) })
	if want["110/counter.count"] <= 0 {
		t.Fatalf("app:source_data has no count at cg.c:110: %v", want)
	}
	for k, v := range want {
		got, ok := dom[k]
		if !ok {
			t.Errorf("%s: app:source_data %v, the page shows nothing", k, v)
			continue
		}
		if f, err := strconv.ParseFloat(got, 64); err != nil || !near(f, v) {
			t.Errorf("%s: the page shows %q, app:source_data %v", k, got, v)
		}
	}
	for k, got := range dom {
		if _, ok := want[k]; !ok && got != "" {
			t.Errorf("%s: the page shows %q, app:source_data nothing", k, got)
		}
	}
}

// near says whether the page's text (4 significant digits for fractions) is v.
func near(f, v float64) bool {
	if f == v {
		return true
	}
	d := f - v
	if d < 0 {
		d = -d
	}
	return d <= 1e-3*max(1, v, -v)
}

// browse is the user's side: everything through the page, as clicks.
func browse(chromium, url, shot string) (map[string]string, error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium),
		chromedp.NoSandbox, chromedp.WindowSize(1400, 900))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		return nil, fmt.Errorf("open the page: %w", err)
	}
	steps := userSteps(shot)
	for _, st := range steps {
		sctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		err := st.do(sctx)
		cancel()
		if err != nil {
			// What the page looked like when the step failed, beside the kept screenshot.
			if png, serr := chromedp.Run(ctx, chromedp.FullScreenshot(100)); serr == nil {
				os.WriteFile(strings.TrimSuffix(shot, ".png")+"_failed.png", png, 0o644)
			}
			return nil, fmt.Errorf("%s: %w", st.what, err)
		}
	}
	// Let the page reload once more after the last state event, then read every cell.
	time.Sleep(time.Second)
	cells, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](`(() => {
  const out = {};
  for (const td of document.querySelectorAll('#lines td.val')) {
    if (td.textContent !== '') out[td.closest('tr').dataset.line + '/' + td.dataset.col] = td.textContent;
  }
  for (const td of document.querySelectorAll('#totals tr.program td.val, #totals tr.file td.val')) {
    const row = td.closest('tr').classList.contains('program') ? 'program' : 'file';
    if (td.textContent !== '') out[row + '/' + td.dataset.col] = td.textContent;
  }
  return out;
})()`))
	if err != nil {
		return nil, fmt.Errorf("read the cells: %w", err)
	}
	return cells, nil
}

// step is one thing the user does on the page, and what it should lead to.
type step struct {
	what string
	do   func(context.Context) error
}

// userSteps are the test's clicks, in order; the screenshot goes to shot.
func userSteps(shot string) []step {
	return []step{
		{"open cg.c from the tree", func(ctx context.Context) error {
			return chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#tree a[data-file="cg.c"]`)),
				wait(`document.querySelector('#src').dataset.ready === '1' && document.querySelector('tr[data-line="110"].instr') !== null`))
		}},
		{"the job is created", func(ctx context.Context) error { return chromedp.Do(ctx, wait(statusIs("created"))) }},
		{"start", func(ctx context.Context) error {
			return chromedp.Do(ctx, chromedp.Click(chromedp.ID("start")), wait(statusIs("running")))
		}},
		{"insert a counter at line 110 from its menu", func(ctx context.Context) error {
			return menu(ctx, `#menu button.insert[data-action="counter.count"]`)
		}},
		{"the column rises", func(ctx context.Context) error {
			v1, err := cellAbove(ctx, 0)
			if err != nil {
				return err
			}
			if _, err := cellAbove(ctx, v1); err != nil {
				return err
			}
			png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				return err
			}
			return os.WriteFile(shot, png, 0o644)
		}},
		{"the Lua line is in the page's log", func(ctx context.Context) error {
			return chromedp.Do(ctx, wait(`document.querySelector('#log').textContent.includes('> app:act("counter.count", app:points("cg.c:110"))')`))
		}},
		{"remove it from the menu", func(ctx context.Context) error {
			return chromedp.Do(ctx, menuAction(`#menu button.remove[data-action="counter.count"]`),
				wait(`document.querySelector('tr[data-line="110"] td.mark .act') === null`))
		}},
		{"suspend: the page still answers and the count stays", func(ctx context.Context) error {
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("suspend")), wait(statusIs("suspended"))); err != nil {
				return err
			}
			a, err := cellAbove(ctx, 0)
			if err != nil {
				return err
			}
			time.Sleep(time.Second)
			b, err := cellAbove(ctx, 0)
			if err == nil && a != b {
				err = fmt.Errorf("the count moved from %v to %v while suspended", a, b)
			}
			return err
		}},
		{"resume until the job exits", func(ctx context.Context) error {
			return chromedp.Do(ctx, chromedp.Click(chromedp.ID("resume")),
				chromedp.Action[chromedp.Void](chromedp.Poll[chromedp.Void](statusIs("exited"), chromedp.WithPollingTimeout(5*time.Minute))),
				wait(`document.querySelector('#ranks').textContent.startsWith('0 running / 64 exited')`))
		}},
		{"the context picker: one I/O node, then all ranks again", func(ctx context.Context) error {
			return chromedp.Do(ctx, pickContext("ionode", "1"), wait(`document.querySelector('#head th.code').textContent.includes('(16 ranks)')`),
				pickContext("all", ""), wait(`document.querySelector('#head th.code').textContent.includes('(64 ranks)')`))
		}},
	}
}

// pickContext chooses a context kind and its argument as the user does, by the form.
func pickContext(kind, arg string) chromedp.Action[chromedp.Void] {
	set := chromedp.SetValue(chromedp.ID("ctxkind"), kind)
	if arg != "" {
		set = chromedp.Steps(chromedp.SetValue(chromedp.ID("ctxarg"), arg), set)
	}
	return chromedp.Steps(
		set,
		chromedp.Action[chromedp.Void](chromedp.Evaluate[chromedp.Void](`document.querySelector('#ctxkind').dispatchEvent(new Event('change'))`)),
	)
}

func statusIs(s string) string {
	return `document.querySelector('#status').dataset.status === '` + s + `'`
}

// wait polls a JavaScript predicate on the page.
func wait(pred string) chromedp.Action[chromedp.Void] {
	return chromedp.Action[chromedp.Void](chromedp.Poll[chromedp.Void](pred, chromedp.WithPollingTimeout(60*time.Second)))
}

// menu opens line 110's context menu with a right click and chooses the item sel.
func menu(ctx context.Context, sel string) error {
	return chromedp.Do(ctx, menuAction(sel))
}

func menuAction(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		rightClick(`tr[data-line="110"] td.code`),
		wait(`!document.querySelector('#menu').hidden`),
		chromedp.Click(chromedp.CSS(sel)),
	)
}

// rightClick presses and releases the right button over the first node matching sel, as
// a mouse does: it moves there first, so the browser's idea of what is under the pointer
// is not where the previous click left it.
func rightClick(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		nodes, err := chromedp.Nodes(chromedp.CSS(sel))(ctx, t)
		if err != nil {
			return err
		}
		if _, err := chromedp.ScrollIntoView(chromedp.CSS(sel))(ctx, t); err != nil {
			return err
		}
		box, err := chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector('`+sel+`').getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2]; })()`)(ctx, t)
		if err != nil || len(box) != 2 || len(nodes) == 0 {
			return fmt.Errorf("right click on %s: %v", sel, err)
		}
		x, y := box[0], box[1]
		right := func(p *input.DispatchMouseEventParams) { p.Button, p.Buttons = input.MouseButtonRight, 2 }
		for _, a := range []chromedp.Action[chromedp.Void]{
			chromedp.MouseEvent(chromedp.MouseMoved, x, y),
			chromedp.MouseEvent(chromedp.MousePressed, x, y, right, chromedp.ClickCount(1)),
			chromedp.MouseEvent(chromedp.MouseReleased, x, y, right, chromedp.ClickCount(1)),
		} {
			if _, err := a(ctx, t); err != nil {
				return err
			}
		}
		return nil
	})
}

// cellAbove waits until line 110's counter cell shows a number above than and returns it.
func cellAbove(ctx context.Context, than float64) (float64, error) {
	pred := fmt.Sprintf(`(() => { const td = document.querySelector('tr[data-line="110"] td.val[data-col="counter.count"]');
  const v = td ? parseFloat(td.textContent) : NaN; return v > %v ? v : false; })()`, than)
	return chromedp.Run(ctx, chromedp.Poll[float64](pred, chromedp.WithPollingTimeout(60*time.Second)))
}
