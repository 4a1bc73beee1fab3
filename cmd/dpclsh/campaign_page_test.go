package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pageCase is one hostile request to the page of a live session: it holds when the page
// answers with code (0: any error status) and a body that says want (a JSON body as its
// values print), and the page still answers afterwards.
type pageCase struct {
	name, method, path string
	hdr                map[string]string
	body               string
	code               int
	want               string
}

// TestCampaignWebPage is the web page's category of the fault campaign
// (examples/bench/campaign.lua has no HTTP client): requests without the token, from
// another origin or host, with malformed, unknown, oversized or injected actions, and
// actions the session refuses, each answered with an error naming the problem, while the
// session keeps serving; then the job and its counting probe run to their end. A request
// the page does not answer within its bound, or a page that stops answering, breaks.
func TestCampaignWebPage(t *testing.T) {
	done := filepath.Join(t.TempDir(), "done")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "examples/bench/campaign_page.lua", done)
	cmd.Dir = "../.."
	var errb strings.Builder
	cmd.Stderr = &errb
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stdout)
	var page *url.URL
	for page == nil && lines.Scan() {
		if u, ok := strings.CutPrefix(lines.Text(), "url: "); ok {
			if page, err = url.Parse(u); err != nil {
				t.Fatal(err)
			}
		}
	}
	if page == nil {
		t.Fatalf("no url printed; stderr:\n%s", errb.String())
	}
	token := page.Query().Get("token")
	origin := "http://" + page.Host
	jsonHdr := map[string]string{"Content-Type": "application/json", "Origin": origin}
	act := func(body string) pageCase {
		return pageCase{method: "POST", path: "/api/do?token=" + token, hdr: jsonHdr, body: body}
	}
	with := func(c pageCase, name string, code int, want string) pageCase {
		c.name, c.code, c.want = name, code, want
		return c
	}
	cases := []pageCase{
		{"no token", "GET", "/api/state", nil, "", 403, "no token"},
		{"wrong token", "GET", "/api/state?token=" + strings.Repeat("0", len(token)), nil, "", 403, "wrong token"},
		{"action from another origin", "POST", "/api/do?token=" + token,
			map[string]string{"Content-Type": "application/json", "Origin": "http://evil.example"}, `{"op":"start"}`, 403, "origin"},
		{"another host (DNS rebinding)", "GET", "/api/state?token=" + token, map[string]string{"Host": "evil.example:80"}, "", 403, "loopback"},
		{"action not JSON", "POST", "/api/do?token=" + token, map[string]string{"Content-Type": "text/plain"}, `{"op":"start"}`, 415, "actions are JSON"},
		with(act(`{"op":`), "malformed JSON", 400, "bad action: unexpected EOF"),
		with(act(`{"op":"start","chunk":"os.exit(1)"}`), "unknown field", 400, `unknown field "chunk"`),
		with(act(`{"op":"eval"}`), "unknown operation", 400, `unknown operation "eval"`),
		with(act(`{"op":"act","action":"x\") os.exit(1) --","file":"loop.c","line":15}`), "Lua injected in an action name", 400, "act: bad action name"),
		with(act(`{"op":"bulk","action":"counter.count","regex":"(","kind":"entry"}`), "bad regular expression", 400, `"(" is not a regular expression`),
		with(act(`{"op":"act","action":"counter.count","file":"loop.c","line":1}`), "act at a line without code", 0, "loop.c:1: no code at this line"),
		with(act(`{"op":"load","modules":["no_such_module"]}`), "unknown performance module", 200, `ok:false reason:no module "no_such_module"`),
		{"source outside the program", "GET", "/api/source?token=" + token + "&file=../../etc/passwd", nil, "", 0, "no such source file"},
		with(act(`{"op":"start","file":"`+strings.Repeat("x", 200_000)+`"}`), "200 kB action", 413, "the body is over 64 KiB"),
	}
	client := &http.Client{Timeout: 20 * time.Second}
	send := func(c pageCase) (int, string, error) {
		req, err := http.NewRequestWithContext(ctx, c.method, origin+c.path, strings.NewReader(c.body))
		if err != nil {
			return 0, "", err
		}
		for k, v := range c.hdr {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		// JSON answers are compared as their values print, without JSON's escapes.
		var v map[string]any
		if json.Unmarshal(b, &v) == nil {
			return resp.StatusCode, fmt.Sprint(v), err
		}
		return resp.StatusCode, string(b), err
	}
	state := pageCase{method: "GET", path: "/api/state?token=" + token}
	var held, broke int
	for _, c := range cases {
		code, body, err := send(c)
		scode, sbody, serr := send(state)
		switch {
		case err != nil || serr != nil || scode != 200 || !strings.Contains(sbody, "status:created"):
			broke++
			t.Errorf("%s broke: %v; the page's state afterwards: %d %v %.200s", c.name, err, scode, serr, sbody)
		case (c.code != 0 && code != c.code) || (c.code == 0 && code < 400) || !strings.Contains(body, c.want):
			t.Errorf("%s does not hold: %d %.300s, want %d saying %q", c.name, code, body, c.code, c.want)
		default:
			held++
		}
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var last string
	for lines.Scan() {
		last = lines.Text()
	}
	err = cmd.Wait()
	lost := 0
	var exited, running, counted, want int
	if _, serr := fmt.Sscanf(last, "job: %d exited, %d running, counted %d of %d", &exited, &running, &counted, &want); serr != nil ||
		err != nil || exited != 4 || running != 0 || counted != want {
		broke++
		t.Errorf("the job after the page's faults: %q (%v); stderr:\n%s", last, err, errb.String())
	} else {
		lost = want - counted
	}
	if !strings.Contains(errb.String(), "page: app:points: line loop.c:1: no code at this line") {
		t.Errorf("the session's report of the page's error is missing:\n%s", errb.String())
	}
	t.Logf("%-18s %6s %6s %6s %6s", "category", "tried", "held", "broke", "lost")
	t.Logf("%-18s %6d %6d %6d %6d", "web page", len(cases), held, broke, lost)
}
