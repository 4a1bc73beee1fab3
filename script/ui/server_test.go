package ui

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeBackend records the calls it gets and answers with a fixed value.
type fakeBackend struct {
	mu    sync.Mutex
	calls []Call
}

func (f *fakeBackend) Do(ctx context.Context, c Call) (any, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, c)
	return map[string]any{"status": "running", "now": 1.0}, nil
}

func (f *fakeBackend) n() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

func start(t *testing.T, be Backend) *Server {
	t.Helper()
	s, err := Start(be, Options{Title: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func base(s *Server) string { return "http://" + s.Addr() }

func request(t *testing.T, method, url string, hdr map[string]string, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestRefusals: without the token, with a wrong one, from another origin or site, or for
// another host, nothing is served and the session is never asked.
func TestRefusals(t *testing.T) {
	be := &fakeBackend{}
	s := start(t, be)
	tok := "token=" + s.token
	json := map[string]string{"Content-Type": "application/json"}
	cases := []struct {
		name, method, path string
		hdr                map[string]string
		want               string
	}{
		{"no token", "GET", "/api/state", nil, "no token"},
		{"no token, page", "GET", "/", nil, "no token"},
		{"no token, static", "GET", "/static/app.js", nil, "no token"},
		{"wrong token", "GET", "/api/state?token=" + strings.Repeat("0", 48), nil, "wrong token"},
		{"short token", "GET", "/api/state?token=" + s.token[:10], nil, "wrong token"},
		{"wrong header token", "GET", "/api/state", map[string]string{"X-Dpcl-Token": "x"}, "wrong token"},
		{"other origin", "GET", "/api/state?" + tok, map[string]string{"Origin": "http://evil.example"}, "origin"},
		{"other origin, action", "POST", "/api/do?" + tok, map[string]string{"Origin": "http://evil.example", "Content-Type": "application/json"}, "origin"},
		{"cross site", "GET", "/api/state?" + tok, map[string]string{"Sec-Fetch-Site": "cross-site"}, "another site"},
		{"rebinding", "GET", "/api/state?" + tok, map[string]string{"Host": "evil.example:80"}, "loopback"},
		{"events without token", "GET", "/api/events", nil, "no token"},
		{"action without token", "POST", "/api/do", json, "no token"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, body := request(t, tc.method, base(s)+tc.path, tc.hdr, `{"op":"start"}`)
			if code != http.StatusForbidden || !strings.Contains(body, tc.want) {
				t.Errorf("got %d %q, want 403 mentioning %q", code, body, tc.want)
			}
		})
	}
	if be.n() != 0 {
		t.Errorf("refused requests reached the session %d times", be.n())
	}
}

// TestAccepted: with the token, from the page's own origin, the page and its data come.
func TestAccepted(t *testing.T) {
	be := &fakeBackend{}
	s := start(t, be)
	tok := "?token=" + s.token
	code, body := request(t, "GET", s.URL(), nil, "")
	if code != 200 || !strings.Contains(body, `data-token="`+s.token+`"`) || !strings.Contains(body, "/static/app.js?token="+s.token) {
		t.Fatalf("page: %d %.200q", code, body)
	}
	for _, p := range []string{"/static/app.js", "/static/c.js", "/static/style.css"} {
		if code, _ := request(t, "GET", base(s)+p+tok, nil, ""); code != 200 {
			t.Errorf("%s: %d", p, code)
		}
	}
	same := map[string]string{"Origin": base(s), "Sec-Fetch-Site": "same-origin"}
	code, body = request(t, "GET", base(s)+"/api/state"+tok, same, "")
	if code != 200 || !strings.Contains(body, `"status":"running"`) {
		t.Fatalf("state: %d %s", code, body)
	}
	if got := be.calls[0]; got.Echo != "" || !strings.Contains(got.Chunk, "app:status()") {
		t.Errorf("a read is not echoed and asks the status: %+v", got)
	}
	code, body = request(t, "GET", base(s)+"/api/state", map[string]string{"X-Dpcl-Token": s.token}, "")
	if code != 200 {
		t.Errorf("token in a header: %d %s", code, body)
	}
}

// TestActionsAreJSONLuaLines: a page action is a JSON operation turned into one Lua line,
// echoed; anything else is refused before the session hears of it.
func TestActionsAreJSONLuaLines(t *testing.T) {
	be := &fakeBackend{}
	s := start(t, be)
	url := base(s) + "/api/do?token=" + s.token
	code, body := request(t, "POST", url, map[string]string{"Content-Type": "text/plain"}, `{"op":"start"}`)
	if code != http.StatusUnsupportedMediaType {
		t.Errorf("form-like post: %d %s", code, body)
	}
	jsonHdr := map[string]string{"Content-Type": "application/json"}
	code, body = request(t, "POST", url, jsonHdr, `{"op":"act","action":"counter.count","file":"cg.c","line":110,"ctx":"ionode:2"}`)
	var r struct {
		Lua string `json:"lua"`
	}
	json.Unmarshal([]byte(body), &r)
	want := `app:act("counter.count", app:points("cg.c:110"), {context = ctx.ionode(app, 2)})`
	if code != 200 || r.Lua != want {
		t.Fatalf("act: %d %s, want lua %s", code, body, want)
	}
	if c := be.calls[0]; c.Echo != want || c.Chunk != "return tostring("+want+")" {
		t.Errorf("call %+v", c)
	}
	for _, bad := range []string{
		`{"op":"act","action":"x\") os.exit(1) --","file":"cg.c","line":1}`,
		`{"op":"act","action":"counter.count","file":"cg.c","line":0}`,
		`{"op":"eval","chunk":"os.exit(1)"}`,
		`{"op":"bulk","action":"counter.count","regex":"(","kind":"entry"}`,
		`{"op":"act","action":"counter.count","file":"cg.c","line":3,"ctx":"sample:0"}`,
	} {
		if code, body := request(t, "POST", url, jsonHdr, bad); code != http.StatusBadRequest {
			t.Errorf("%s: %d %s, want 400", bad, code, body)
		}
	}
	// A body past the bound is refused as too long, not as cut short.
	long := `{"op":"start","file":"` + strings.Repeat("x", 200_000) + `"}`
	if code, body := request(t, "POST", url, jsonHdr, long); code != http.StatusRequestEntityTooLarge ||
		!strings.Contains(body, "bad action: the body is over 64 KiB") {
		t.Errorf("200 kB action: %d %s", code, body)
	}
	if be.n() != 1 {
		t.Errorf("bad actions reached the session: %+v", be.calls)
	}
}

// TestCloseStopsServing: after Close the port answers nothing and open streams end.
func TestCloseStopsServing(t *testing.T) {
	s := start(t, &fakeBackend{})
	resp, err := http.Get(base(s) + "/api/events?token=" + s.token)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		io.Copy(io.Discard, resp.Body)
		close(done)
	}()
	s.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the event stream outlived Close")
	}
	if _, err := http.Get(s.URL()); err == nil {
		t.Fatal("a closed server still answers")
	}
}
