package ui

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"
)

//go:embed assets
var assets embed.FS

// index serves the page with its token and title written in: the scripts and styles it
// loads carry the token like every other request.
func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	page, err := assets.ReadFile("assets/index.html")
	if err != nil {
		http.Error(w, "ui: the page is missing from the binary", http.StatusInternalServerError)
		return
	}
	out := strings.NewReplacer("{{TOKEN}}", s.token, "{{TITLE}}", html.EscapeString(s.opts.Title)).Replace(string(page))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	io.WriteString(w, out)
}

// get answers a read: the chunk built from the query runs in the session (not echoed).
func (s *Server) get(build func(requestArgs) (string, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		chunk, err := build(r.URL.Query())
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]any{"error": err.Error()})
			return
		}
		v, err := s.do(r, Call{Chunk: chunk})
		if err != nil {
			writeJSON(w, statusOf(err), map[string]any{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"result": v})
	}
}

// action runs a page action: a JSON Op in the body becomes a Lua line, echoed in the
// session and run there. The body must be JSON, which a form on another site cannot send
// without a preflight this server never answers.
// maxActionBytes bounds an action's JSON: an operation and a few names.
const maxActionBytes = 1 << 16

func (s *Server) action(w http.ResponseWriter, r *http.Request) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		http.Error(w, "ui: refused: actions are JSON (Content-Type: application/json)", http.StatusUnsupportedMediaType)
		return
	}
	var op Op
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxActionBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&op); err != nil {
		// A cut body would only say "unexpected EOF": say that it was too long.
		if tooBig := (*http.MaxBytesError)(nil); errors.As(err, &tooBig) {
			writeJSON(w, http.StatusRequestEntityTooLarge, map[string]any{"error": fmt.Sprintf("bad action: the body is over %d KiB", maxActionBytes>>10)})
			return
		}
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "bad action: " + err.Error()})
		return
	}
	call, err := op.Lua()
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": err.Error()})
		return
	}
	v, err := s.do(r, call)
	s.bump()
	if err != nil {
		writeJSON(w, statusOf(err), map[string]any{"lua": call.Echo, "error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"lua": call.Echo, "result": v})
}

// events is the page's live feed (server-sent events): a "state" event whenever the job's
// status, virtual time or the set of actions changed, looked at every Tick.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "ui: streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fl.Flush()
	chunk, _ := stateChunk(r.URL.Query())
	var last string
	tick := time.NewTicker(s.opts.Tick)
	defer tick.Stop()
	for {
		v, err := s.do(r, Call{Chunk: chunk})
		msg := map[string]any{"state": v, "version": s.currentVersion()}
		if err != nil {
			msg = map[string]any{"error": err.Error()}
		}
		b, _ := json.Marshal(msg)
		if string(b) != last {
			if _, err := fmt.Fprintf(w, "event: state\ndata: %s\n\n", b); err != nil {
				return
			}
			fl.Flush()
			last = string(b)
		}
		select {
		case <-r.Context().Done():
			return
		case <-s.closed:
			return
		case <-tick.C:
		}
	}
}

// LuaError is an error raised by the Lua a call ran (as opposed to the session not
// answering): the page shows its message.
type LuaError struct{ Msg string }

func (e *LuaError) Error() string { return e.Msg }

func statusOf(err error) int {
	var le *LuaError
	switch {
	case errors.As(err, &le):
		return http.StatusUnprocessableEntity
	case errors.Is(err, errBusy):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code = http.StatusInternalServerError
		b, _ = json.Marshal(map[string]any{"error": "ui: cannot encode the answer: " + err.Error()})
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(b)
}
