package dpcl

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/script"
	"github.com/dpclsh/dpclsh/script/scripttest"

	lua "github.com/yuin/gopher-lua"
)

// pageClient speaks to a served page as the page's JavaScript does.
type pageClient struct {
	t    *testing.T
	base string // http://127.0.0.1:PORT
	tok  string
}

func newPageClient(t *testing.T, url string) *pageClient {
	base, tok, ok := strings.Cut(url, "/?token=")
	if !ok {
		t.Fatalf("URL without a token: %s", url)
	}
	return &pageClient{t: t, base: base, tok: tok}
}

// get returns the result of a read, or an error naming the answer.
func (c *pageClient) get(path string, args ...string) (any, error) {
	q := "?token=" + c.tok
	for i := 0; i+1 < len(args); i += 2 {
		q += "&" + args[i] + "=" + args[i+1]
	}
	resp, err := http.Get(c.base + path + q)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return nil, err
	}
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("%s: %d %v", path, resp.StatusCode, body["error"])
	}
	return body["result"], nil
}

func (c *pageClient) post(op string) (map[string]any, error) {
	resp, err := http.Post(c.base+"/api/do?token="+c.tok, "application/json", strings.NewReader(op))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return nil, err
	}
	if resp.StatusCode != 200 {
		return body, fmt.Errorf("%s: %d %v", op, resp.StatusCode, body["error"])
	}
	return body, nil
}

func (c *pageClient) status() (string, error) {
	v, err := c.get("/api/state")
	if err != nil {
		return "", err
	}
	return v.(map[string]any)["status"].(string), nil
}

// lineValue is the column's value at line in /api/source (0 when the line has none).
func (c *pageClient) lineValue(file string, line int, col string) (float64, error) {
	v, err := c.get("/api/source", "file", file)
	if err != nil {
		return 0, err
	}
	for _, l := range v.(map[string]any)["lines"].([]any) {
		lm := l.(map[string]any)
		if int(lm["line"].(float64)) != line {
			continue
		}
		if vals, ok := lm["values"].(map[string]any); ok {
			if x, ok := vals[col].(float64); ok {
				return x, nil
			}
		}
		return 0, nil
	}
	return 0, fmt.Errorf("no line %d in %s", line, file)
}

// serveWhile runs the session as the REPL's idle prompt does until done is closed.
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

const cgPath = "../../examples/apps/bin/cg.elf"

// TestServedPageFollowsTheJob drives the page's API while the script waits in app:wait,
// while the job is suspended, and after it finished: an action inserted from the page
// shows in the session's output as its Lua line, its column rises while the job runs,
// stays put while it is suspended, and ends equal to what app:source_data says.
func TestServedPageFollowsTheJob(t *testing.T) {
	if _, err := os.Stat(cgPath); err != nil {
		t.Skip("SKIP: " + cgPath + " is not built")
	}
	s, out := scripttest.New(t)
	scripttest.Eval(t, s, `dpcl.load_modules{"counter", dir = "../../examples/modules"}
app = dpcl.launch("`+cgPath+`", {nodes = 64, per_io = 16, args = {"128", "200"}, quiet = true})
URL = app:serve()`)
	c := newPageClient(t, s.L.GetGlobal("URL").String())
	errs := make(chan error, 1)
	done := make(chan struct{})
	var got float64
	go func() {
		defer close(done)
		err := followJob(c)
		if err == nil {
			got, err = c.lineValue("cg.c", 110, "counter.count")
		}
		errs <- err
	}()
	scripttest.Eval(t, s, `app:start(); app:wait()`) // returns when the page suspends the job
	serveWhile(s, done)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	want := `app:act("counter.count", app:points("cg.c:110"))  -- page`
	if !strings.Contains(out.String(), want) {
		t.Errorf("the session's output lacks the action's Lua line %q:\n%s", want, out.String())
	}
	direct := scripttest.Eval(t, s, `for _, l in ipairs(app:source_data("cg.c").lines) do
  if l.line == 110 then return l.values["counter.count"] end end`)
	if len(direct) != 1 || direct[0] != lua.LNumber(got) || got == 0 {
		t.Errorf("page %v, app:source_data %v", got, direct)
	}
	scripttest.Eval(t, s, `app:close()`)
	if _, err := http.Get(c.base + "/?token=" + c.tok); err == nil {
		t.Error("the page still answers after app:close()")
	}
}

// followJob is the page's side of TestServedPageFollowsTheJob.
func followJob(c *pageClient) error {
	if err := waitStatus(c, "running"); err != nil {
		return err
	}
	if _, err := c.post(`{"op":"act","action":"counter.count","file":"cg.c","line":110}`); err != nil {
		return err
	}
	v1, err := rising(c, 0)
	if err != nil {
		return err
	}
	if _, err := rising(c, v1); err != nil {
		return err
	}
	if _, err := c.post(`{"op":"suspend"}`); err != nil {
		return err
	}
	if err := waitStatus(c, "suspended"); err != nil {
		return err
	}
	a, err1 := c.lineValue("cg.c", 110, "counter.count")
	time.Sleep(300 * time.Millisecond)
	b, err2 := c.lineValue("cg.c", 110, "counter.count")
	if err1 != nil || err2 != nil || a != b || a == 0 {
		return fmt.Errorf("suspended: %v then %v (%v, %v)", a, b, err1, err2)
	}
	if _, err := c.post(`{"op":"resume"}`); err != nil {
		return err
	}
	return waitStatus(c, "exited")
}

// rising waits until line 110's count is above than.
func rising(c *pageClient, than float64) (float64, error) {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		v, err := c.lineValue("cg.c", 110, "counter.count")
		if err != nil {
			return 0, err
		}
		if v > than {
			return v, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return 0, fmt.Errorf("the count at cg.c:110 stayed at %v", than)
}

func waitStatus(c *pageClient, want string) error {
	deadline := time.Now().Add(120 * time.Second)
	var st string
	var err error
	for time.Now().Before(deadline) {
		if st, err = c.status(); err == nil && st == want {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("status %q (%v), want %q", st, err, want)
}

// TestPageErrorsNameTheLine: a failing action answers with the runtime's message, and
// the session reports it after the echoed line; the job goes on.
func TestPageErrorsNameTheLine(t *testing.T) {
	if _, err := os.Stat(cgPath); err != nil {
		t.Skip("SKIP: " + cgPath + " is not built")
	}
	s, out := scripttest.New(t)
	scripttest.Eval(t, s, `app = dpcl.launch("`+cgPath+`", {nodes = 8, per_io = 8, args = {"16", "2"}, quiet = true})
URL = app:serve()`)
	c := newPageClient(t, s.L.GetGlobal("URL").String())
	done := make(chan struct{})
	var body map[string]any
	var err error
	go func() {
		defer close(done)
		body, err = c.post(`{"op":"act","action":"counter.count","file":"cg.c","line":95}`)
	}()
	serveWhile(s, done)
	if err == nil || !strings.Contains(fmt.Sprint(body["error"]), "nearest lines with code: cg.c:89, cg.c:100") {
		t.Fatalf("got %v, %v", body, err)
	}
	if !strings.Contains(out.String(), "page: app:points: line cg.c:95: no code at this line") {
		t.Errorf("output:\n%s", out.String())
	}
	if strings.Contains(out.String(), "local app = ...") {
		t.Errorf("the page's wrapping leaked into the report:\n%s", out.String())
	}
}
