package ui

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The page never sends Lua: it sends an operation and its arguments, and this file writes
// the Lua line a user would type for it. Every string goes through luaQuote and every
// number through strconv, so no argument can change the shape of the line.

// luaQuote writes s as a Lua 5.1 string literal.
func luaQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\%03d`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// contextExpr turns the page's context choice into a Lua expression, "" for all ranks:
// "all", "ionode:N", "sample:PERCENT:SEED" or "ranks:SPEC" (a rank spec as ctx.ranks
// takes it, e.g. "0-7,12").
func contextExpr(choice string) (string, error) {
	kind, rest, _ := strings.Cut(choice, ":")
	switch kind {
	case "", "all":
		return "", nil
	case "ionode":
		n, err := strconv.Atoi(rest)
		if err != nil || n < 0 {
			return "", fmt.Errorf("context %q: the I/O node must be a number >= 0", choice)
		}
		return fmt.Sprintf("ctx.ionode(app, %d)", n), nil
	case "sample":
		pct, seed, _ := strings.Cut(rest, ":")
		p, err := strconv.ParseFloat(pct, 64)
		if err != nil || !(p > 0 && p <= 100) {
			return "", fmt.Errorf("context %q: the sample must be a percentage in (0, 100]", choice)
		}
		sd, err := strconv.Atoi(seed)
		if seed == "" {
			sd, err = 1, nil
		}
		if err != nil {
			return "", fmt.Errorf("context %q: the sample's seed must be an integer", choice)
		}
		return fmt.Sprintf("ctx.all(app):sample(%s, %d)", strconv.FormatFloat(p, 'g', -1, 64), sd), nil
	case "ranks":
		if strings.TrimSpace(rest) == "" {
			return "", fmt.Errorf("context %q: a rank spec is needed, e.g. ranks:0-7,12", choice)
		}
		return fmt.Sprintf("ctx.ranks(app, %s)", luaQuote(rest)), nil
	}
	return "", fmt.Errorf("context %q: expected all, ionode:N, sample:PERCENT:SEED or ranks:SPEC", choice)
}

// withContext is the options argument naming a context, or "" for all ranks.
func withContext(choice string) (string, error) {
	c, err := contextExpr(choice)
	if err != nil || c == "" {
		return "", err
	}
	return ", {context = " + c + "}", nil
}

const filesChunk = `return app:source_files()`

// modulesChunk lists the module library (dpcl.module_dir) and the modules loaded for the
// application; a library that cannot be read still leaves the loaded ones listed.
const modulesChunk = `local ok, lib = pcall(dpcl.modules)
return {available = ok and lib or {}, library_error = not ok and tostring(lib) or nil, loaded = app:modules()}`

func constChunk(c string) func(requestArgs) (string, error) {
	return func(requestArgs) (string, error) { return c, nil }
}

// stateChunk reports where the job is: what the status line and the context picker show,
// and the live actions the source view marks.
func stateChunk(r requestArgs) (string, error) {
	return `local acts = {}
for i, a in ipairs(app:acts()) do
  acts[i] = {name = a.name, file = a.file, line = a.line, func = a.func, points = #a.points}
end
local io = 0
for _, p in ipairs(app:proctable()) do if p.ionode + 1 > io then io = p.ionode + 1 end end
return {status = app:status(), now = app:now(), counts = app:counts(), size = app.size,
  ionodes = io, acts = acts}`, nil
}

// sourceChunk is app:source_data for the file and context the page shows.
func sourceChunk(r requestArgs) (string, error) {
	file := r.Get("file")
	if file == "" {
		return "", fmt.Errorf("no file given")
	}
	opts, err := withContext(r.Get("ctx"))
	if err != nil {
		return "", err
	}
	return "return app:source_data(" + luaQuote(file) + opts + ")", nil
}

// requestArgs is what a chunk builder reads: the query of a GET, the body of a POST.
type requestArgs interface{ Get(string) string }

// Op is a page action: op and the arguments it uses.
type Op struct {
	Op      string   `json:"op"`      // act, remove, bulk, load, start, suspend, resume
	Action  string   `json:"action"`  // act, remove, bulk: "counter.count"
	File    string   `json:"file"`    // act, remove
	Line    int      `json:"line"`    // act, remove
	Regex   string   `json:"regex"`   // bulk: a Go regexp over function names
	Kind    string   `json:"kind"`    // bulk: entry, exit or call
	Ctx     string   `json:"ctx"`     // act, bulk: the context choice (contextExpr)
	Modules []string `json:"modules"` // load
}

var actionName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)

// Lua returns the line a user would type for o, and the chunk that runs it and returns
// what the page shows of its result.
func (o Op) Lua() (Call, error) {
	switch o.Op {
	case "start", "suspend", "resume":
		line := "app:" + o.Op + "()"
		return Call{Echo: line, Chunk: line}, nil
	case "load":
		return o.load()
	case "act", "remove":
		return o.atLine()
	case "bulk":
		return o.bulk()
	}
	return Call{}, fmt.Errorf("unknown operation %q (act, remove, bulk, load, start, suspend, resume)", o.Op)
}

func (o Op) load() (Call, error) {
	if len(o.Modules) == 0 {
		return Call{}, fmt.Errorf("load: no modules chosen")
	}
	names := make([]string, len(o.Modules))
	for i, m := range o.Modules {
		names[i] = luaQuote(m)
	}
	line := "dpcl.load_modules{" + strings.Join(names, ", ") + "}"
	return Call{Echo: line, Chunk: "return " + line}, nil
}

func (o Op) atLine() (Call, error) {
	if !actionName.MatchString(o.Action) {
		return Call{}, fmt.Errorf("%s: bad action name %q", o.Op, o.Action)
	}
	if o.File == "" || o.Line <= 0 {
		return Call{}, fmt.Errorf("%s: a file and a line > 0 are needed", o.Op)
	}
	if o.Op == "remove" {
		line := fmt.Sprintf("for _, a in ipairs(app:acts()) do if a.name == %s and a.file == %s and a.line == %d then a:remove() end end",
			luaQuote(o.Action), luaQuote(o.File), o.Line)
		return Call{Echo: line, Chunk: line}, nil
	}
	opts, err := withContext(o.Ctx)
	if err != nil {
		return Call{}, err
	}
	line := fmt.Sprintf("app:act(%s, app:points(%s)%s)", luaQuote(o.Action), luaQuote(fmt.Sprintf("%s:%d", o.File, o.Line)), opts)
	return Call{Echo: line, Chunk: "return tostring(" + line + ")"}, nil
}

func (o Op) bulk() (Call, error) {
	if !actionName.MatchString(o.Action) {
		return Call{}, fmt.Errorf("bulk: bad action name %q", o.Action)
	}
	if _, err := regexp.Compile(o.Regex); err != nil || o.Regex == "" {
		return Call{}, fmt.Errorf("bulk: %q is not a regular expression over function names", o.Regex)
	}
	switch o.Kind {
	case "entry", "exit", "call":
	default:
		return Call{}, fmt.Errorf("bulk: kind %q: expected entry, exit or call", o.Kind)
	}
	opts, err := withContext(o.Ctx)
	if err != nil {
		return Call{}, err
	}
	line := fmt.Sprintf("app:act(%s, app:points{regex = %s, kind = %s}%s)",
		luaQuote(o.Action), luaQuote(o.Regex), luaQuote(o.Kind), opts)
	return Call{Echo: line, Chunk: "return tostring(" + line + ")"}, nil
}
