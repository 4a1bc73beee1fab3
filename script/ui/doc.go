// Package ui is the web page of app:serve and `dpclsh ui`: DynTG's source browser (seed
// 002, section 4) as a local page. The program's source files from DWARF in a collapsible
// tree; the chosen file with line numbers, highlighted; one column per data source of the
// loaded modules, per line, aggregated over a chosen context and updated live, with totals
// per function, file and program; instrumentable lines marked, with a context menu of the
// modules' actions to insert and remove there; bulk insertion by regular expression over
// function names; a module dialog fed by the modules' query descriptions; the job's
// status (ranks running, exited, faulted; virtual time) and a context picker (all ranks,
// one I/O node, a sample, a rank spec typed by hand).
//
//	srv, err := ui.Start(backend, ui.Options{Title: "cg.elf, 64 ranks"})
//	fmt.Println(srv.URL()) // http://127.0.0.1:PORT/?token=...
//	defer srv.Close()
//
// Decisions:
//   - The page is a client of the session, not a second implementation. The package
//     imports no Lua and no runtime: everything goes through Backend.Do as Lua source run
//     in the session's own state (script/dpcl/serve.go queues it to the session goroutine and
//     runs it between machine steps). Reads are chunks such as
//     `return app:source_data("cg.c", {context = ctx.ionode(app, 0)})`, turned into JSON;
//     actions are Lua lines such as `app:act("counter.count", app:points("cg.c:110"))`,
//     echoed in the session's output as they are, so a user can copy them into a script.
//   - The page never sends Lua. It posts an operation (Op) with typed arguments, and
//     lua.go writes the line: strings quoted for Lua, numbers formatted, names and regular
//     expressions checked. A page cannot make the session run anything else.
//   - Access: the listener is 127.0.0.1 on a free port unless told otherwise; a random
//     192-bit token (crypto/rand) is in the URL, printed once, and every request, static
//     files and the event stream included, must carry it (query or X-Dpcl-Token header;
//     compared in constant time). Requests from another origin (Origin header, or
//     Sec-Fetch-Site cross-site/same-site) are refused, and on a loopback listener so are
//     requests naming another Host (DNS rebinding). Actions are POSTs of JSON, which a form
//     on another site cannot send without a preflight this server never answers. Responses
//     say no-store, no-referrer (the token does not leak through links) and carry a
//     Content-Security-Policy of 'self' only: no inline script, no CDN.
//   - Live updates are server-sent events: one stream per page, which looks at the job
//     every Tick (wall clock: it is the page's refresh, not the simulation's) and sends a
//     "state" event when the status, virtual time, live actions or the page-action count
//     changed; the page then reloads the data of the file it shows. SSE needs nothing but
//     net/http and EventSource, and the traffic is one way.
//   - Assets are plain HTML, JS and CSS embedded with embed.FS: no build step. C is
//     highlighted by a small hand-written tokenizer (assets/c.js) that carries one state,
//     an open block comment, from line to line.
//   - A link may name what to show: URL&file=cg.c&line=110 opens that file (its name in
//     the line table, or a path ending in it) with the line marked and scrolled into view.
//     Without one, the page opens the file holding the first instrumented line, else the
//     program's first source file, rather than an empty view. Before app:start the
//     header says "not started"; value columns carry their unit; the log pane can be
//     dragged taller.
//   - A request waits for the session at most Timeout (30 s): a script computing outside a
//     wait cannot answer, and the page says so instead of hanging. A call the session has
//     not started when the request gives up is dropped, never run late.
//   - The browser test drives Debian's chromium through github.com/chromedp/chromedp, a
//     test-only dependency: the DevTools protocol is a WebSocket JSON-RPC with hundreds of
//     typed commands and events, and chromedp is the maintained Go client for it (typed
//     bindings generated from the protocol, used widely, released regularly), so the test
//     reads like what a user does (click, right-click, wait for text) instead of raw
//     protocol plumbing. Nothing outside tests imports it.
package ui
