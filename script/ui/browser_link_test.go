package ui_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	dpclsh "github.com/dpclsh/dpclsh"
	"github.com/dpclsh/dpclsh/internal/oracletest"
	"github.com/dpclsh/dpclsh/script"
)

// TestBrowserLinkOpensTheLine is what a new user sees first, in a real headless Chromium:
// a link with ?file=ring.c&line=64 opens that file with the line marked and in view;
// before app:start the job says "not started"; value columns carry their unit; the log
// pane can be made taller; and a page opened without a file shows the one holding the
// instrumented lines rather than an empty view.
func TestBrowserLinkOpensTheLine(t *testing.T) {
	chromium := oracletest.Require(t, oracletest.Chromium)
	out := &syncBuffer{}
	s, err := script.NewSessionWith(script.Options{Stdout: out, Stderr: out,
		Prelude: dpclsh.Prelude, PreludeName: "lib.lua"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.DoString(`dpcl.module_dir = "../../examples/modules"
dpcl.load_modules{"counter"}
app = dpcl.launch("../../examples/apps/bin/ring.elf", {nodes = 4, quiet = true})
app:act("counter.count", app:points("ring.c:72"))
URL = app:serve()`, "setup"); err != nil {
		t.Fatal(err)
	}
	url := s.L.GetGlobal("URL").String()
	done := make(chan struct{})
	var browseErr error
	go func() {
		defer close(done)
		browseErr = checkLinkPage(chromium, url)
	}()
	serveWhile(s, done)
	if browseErr != nil {
		t.Fatalf("%v\nsession output:\n%s", browseErr, out.String())
	}
}

func checkLinkPage(chromium, url string) error {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium),
		chromedp.NoSandbox, chromedp.WindowSize(1200, 700))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	defer cancelTime()
	checks := []struct{ what, pred string }{
		{"ring.c is open", `document.querySelector('#src').dataset.ready === '1' && document.querySelector('#src').dataset.file === 'ring.c'`},
		{"line 64 is marked", `document.querySelector('tr[data-line="64"].target') !== null`},
		{"line 64 is in view", `(() => { const r = document.querySelector('tr[data-line="64"]').getBoundingClientRect();
  const v = document.querySelector('#view').getBoundingClientRect(); return r.top >= v.top && r.bottom <= v.bottom; })()`},
		{"the job says it has not started", `document.querySelector('#status').textContent === 'not started' && document.querySelector('#ranks').textContent === '4 ranks, not started'`},
		{"value columns name their unit", `(() => { const th = [...document.querySelectorAll('#head th.val')];
  return th.length > 0 && th.every((e) => / \(count\)$/.test(e.textContent)); })()`},
		{"the log pane can be made taller", `getComputedStyle(document.querySelector('footer')).resize === 'vertical'`},
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"&file=ring.c&line=64")); err != nil {
		return fmt.Errorf("open the linked page: %w", err)
	}
	for _, c := range checks {
		if err := chromedp.Do(ctx, wait(c.pred)); err != nil {
			return fmt.Errorf("%s: %w", c.what, err)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		return fmt.Errorf("open the page: %w", err)
	}
	if err := chromedp.Do(ctx, wait(`document.querySelector('#src').dataset.ready === '1' && document.querySelector('#src').dataset.file === 'ring.c' && document.querySelector('tr[data-line="72"].target') !== null`)); err != nil {
		return fmt.Errorf("without a file, the page opens the instrumented one at its line: %w", err)
	}
	return nil
}
