// app.js: the page is a client of the dpclsh session. Reads go to /api/* (the server runs
// app:source_data, app:modules... in the session); every action is POSTed to /api/do as
// an operation, which the session runs and echoes as the Lua line it is. /api/events
// tells the page when the job moved, and the page then reloads what it shows.
"use strict";

const token = document.body.dataset.token;
const $ = (id) => document.getElementById(id);
const view = { file: null, data: null, state: null, version: -1, loaded: [], loading: false, again: false,
  files: [], target: null, preselect: false };

function q(params) {
  const u = new URLSearchParams(params || {});
  u.set("token", token);
  return u.toString();
}

async function get(path, params) {
  const r = await fetch(path + "?" + q(params));
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body.result;
}

async function act(op) {
  const r = await fetch("/api/do?" + q(), {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(op),
  });
  const body = await r.json();
  if (body.lua) log(body.lua, body.error ? "err" : "lua");
  if (body.error) log(body.error, "err");
  refresh();
  refreshModules();
  return body;
}

function log(text, cls) {
  const line = document.createElement("div");
  line.className = cls;
  line.textContent = (cls === "lua" ? "> " : "! ") + text;
  $("log").appendChild(line);
  $("log").scrollTop = $("log").scrollHeight;
}

function ctxChoice() {
  const kind = $("ctxkind").value, arg = $("ctxarg").value.trim();
  if (kind === "all" || arg === "") return "all";
  return kind + ":" + arg;
}

function list(v) { return Array.isArray(v) ? v : []; }
function map(v) { return v && typeof v === "object" && !Array.isArray(v) ? v : {}; }

function fmt(v) {
  if (v === undefined || v === null) return "";
  if (Number.isInteger(v)) return String(v);
  return Number(v).toPrecision(4);
}

// ---- the source tree ----

function buildTree(files) {
  const root = {};
  for (const f of files) {
    let node = root;
    const parts = f.split("/");
    parts.forEach((p, i) => {
      if (i === parts.length - 1) node[p] = f;
      else node = node[p + "/"] = node[p + "/"] || {};
    });
  }
  const nav = $("tree");
  nav.textContent = "";
  nav.appendChild(treeList(root));
}

function treeList(node) {
  const ul = document.createElement("ul");
  for (const name of Object.keys(node).sort()) {
    const li = document.createElement("li");
    const v = node[name];
    if (typeof v === "string") {
      const a = document.createElement("a");
      a.href = "#"; a.textContent = name; a.dataset.file = v;
      a.addEventListener("click", (e) => { e.preventDefault(); openFile(v); });
      li.appendChild(a);
    } else {
      const d = document.createElement("details");
      d.open = true;
      const s = document.createElement("summary");
      s.textContent = name;
      d.append(s, treeList(v));
      li.appendChild(d);
    }
    ul.appendChild(li);
  }
  return ul;
}

// ---- the file view ----

// programFile is the program's own first source file: not a header, not the machine's MPI
// library (linked into every program), else the first file.
function programFile(files) {
  const own = files.find((f) => !/\.(h|hh|hpp|inc)$/.test(f) && !/(^|\/)(libmpi[^/]*|dpcl_bgl\.h)$/.test(f));
  return own || files[0];
}

// openFile shows file f; line, when given, is scrolled to and marked once it is drawn.
function openFile(f, line) {
  view.target = line ? Number(line) : null;
  view.file = f;
  view.data = null;
  for (const a of document.querySelectorAll("#tree a")) a.classList.toggle("open", a.dataset.file === f);
  refresh();
}

// refresh reloads the shown file's data; calls while a load is running coalesce into one.
async function refresh() {
  if (!view.file) return;
  if (view.loading) { view.again = true; return; }
  view.loading = true;
  const file = view.file;
  try {
    const d = await get("/api/source", { file, ctx: ctxChoice() });
    // The user may have opened another file while this one loaded: draw only the one shown.
    if (view.file === file) render(d);
    else view.again = true;
  } catch (e) {
    log(e.message, "err");
  } finally {
    view.loading = false;
    if (view.again) { view.again = false; refresh(); }
  }
}

function columnsKey(d) { return d.file + "|" + list(d.columns).map((c) => c.name).join("|"); }

function render(d) {
  const fresh = !view.data || columnsKey(view.data) !== columnsKey(d);
  view.data = d;
  $("hint").hidden = true;
  $("src").hidden = false;
  $("src").dataset.file = d.file;
  if (fresh) renderTable(d);
  if (view.target && view.rows[view.target]) {
    const tr = view.rows[view.target];
    tr.classList.add("target");
    tr.scrollIntoView({ block: "center" });
    view.target = null;
  }
  $("head").lastChild.textContent = d.file + (d.ranks !== undefined ? "  (" + d.ranks + " ranks)" : "");
  renderTotals(d);
  const acts = actsByLine(d.file);
  for (const l of list(d.lines)) {
    const tr = view.rows[l.line];
    if (!tr) continue;
    const vals = map(l.values);
    for (const c of list(d.columns)) tr.cells_[c.name].textContent = fmt(vals[c.name]);
    markActs(tr, acts[l.line] || []);
  }
  $("src").dataset.ready = "1";
}

function renderTable(d) {
  const head = $("head");
  head.textContent = "";
  const th = (t, cls, title) => {
    const e = document.createElement("th");
    e.textContent = t; if (cls) e.className = cls; if (title) e.title = title;
    head.appendChild(e); return e;
  };
  th("line", "num"); th("", "mark");
  for (const c of list(d.columns)) {
    th(c.name + (c.unit ? " (" + c.unit + ")" : ""), "val", c.unit + ", " + c.agg + " over the context").dataset.col = c.name;
  }
  th(d.file, "code");
  const body = $("lines");
  body.textContent = "";
  view.rows = {};
  let comment = false;
  for (const l of list(d.lines)) {
    const tr = document.createElement("tr");
    tr.dataset.line = l.line;
    if (l.instrumentable) tr.classList.add("instr");
    const num = document.createElement("td"); num.className = "num"; num.textContent = l.line;
    const mark = document.createElement("td"); mark.className = "mark";
    tr.append(num, mark);
    tr.cells_ = {};
    for (const c of list(d.columns)) {
      const td = document.createElement("td");
      td.className = "val"; td.dataset.col = c.name;
      tr.appendChild(td); tr.cells_[c.name] = td;
    }
    const code = document.createElement("td");
    code.className = "code";
    const h = CSyntax.highlight(l.text || "", comment);
    comment = h.inComment;
    code.innerHTML = h.html;
    tr.appendChild(code);
    body.appendChild(tr);
    view.rows[l.line] = tr;
  }
}

function totalsRow(label, vals, cls) {
  const tr = document.createElement("tr");
  tr.className = cls;
  const name = document.createElement("td");
  name.colSpan = 2; name.textContent = label;
  tr.appendChild(name);
  for (const c of list(view.data.columns)) {
    const td = document.createElement("td");
    td.className = "val"; td.dataset.col = c.name; td.textContent = fmt(map(vals)[c.name]);
    tr.appendChild(td);
  }
  tr.appendChild(document.createElement("td"));
  return tr;
}

function renderTotals(d) {
  const t = $("totals");
  t.textContent = "";
  t.appendChild(totalsRow("program", d.program_totals, "total program"));
  t.appendChild(totalsRow("file " + d.file, d.file_totals, "total file"));
  for (const f of list(d.functions)) {
    const tr = totalsRow(f.name + " (" + f.first + "-" + f.last + ")", f.values, "total func");
    tr.dataset.func = f.name;
    t.appendChild(tr);
  }
}

function actsByLine(file) {
  const out = {};
  for (const a of list(view.state && view.state.acts)) {
    if (a.file !== file || !a.line) continue;
    (out[a.line] = out[a.line] || []).push(a);
  }
  return out;
}

function markActs(tr, acts) {
  const mark = tr.cells[1];
  const names = acts.map((a) => a.name).join(" ");
  if (mark.dataset.acts === names) return;
  mark.dataset.acts = names;
  mark.textContent = "";
  for (const a of acts) {
    const b = document.createElement("span");
    b.className = "act";
    b.textContent = a.name.split(".").pop()[0].toUpperCase();
    b.title = a.name + " (" + a.points + " point" + (a.points === 1 ? "" : "s") + ")";
    mark.appendChild(b);
  }
}

// ---- the context menu of a line ----

function actions() {
  const out = [];
  for (const m of view.loaded) for (const a of list(m.actions)) out.push(a);
  return out;
}

function showMenu(e, tr) {
  const line = Number(tr.dataset.line);
  const menu = $("menu");
  menu.textContent = "";
  const add = (label, op, cls) => {
    const b = document.createElement("button");
    b.type = "button"; b.textContent = label; b.className = cls; b.dataset.op = op.op; b.dataset.action = op.action;
    b.addEventListener("click", () => { hideMenu(); act(op); });
    menu.appendChild(b);
  };
  const here = actsByLine(view.data.file)[line] || [];
  for (const a of actions()) {
    add("insert " + a.name + (a.doc ? " — " + a.doc : ""),
      { op: "act", action: a.name, file: view.data.file, line, ctx: ctxChoice() }, "insert");
  }
  for (const a of here) add("remove " + a.name, { op: "remove", action: a.name, file: view.data.file, line }, "remove");
  if (!menu.children.length) {
    const p = document.createElement("p");
    p.textContent = "No module loaded: use modules… to load one.";
    menu.appendChild(p);
  }
  menu.style.left = e.pageX + "px";
  menu.style.top = e.pageY + "px";
  menu.dataset.line = line;
  menu.hidden = false;
}

function hideMenu() { $("menu").hidden = true; }

// ---- modules, bulk insert, job control ----

async function refreshModules() {
  try {
    const m = await get("/api/modules");
    view.loaded = list(m.loaded);
    view.available = list(m.available);
    if (m.library_error) log("module library: " + m.library_error, "err");
  } catch (e) { log(e.message, "err"); }
}

function openModules() {
  const box = $("modlist");
  box.textContent = "";
  const loaded = new Set(view.loaded.map((m) => m.name));
  for (const m of view.available || []) {
    const row = document.createElement("label");
    row.className = "mod" + (m.ok ? "" : " excluded");
    const cb = document.createElement("input");
    cb.type = "checkbox"; cb.value = m.name;
    cb.checked = loaded.has(m.name); cb.disabled = !m.ok || loaded.has(m.name);
    const text = document.createElement("span");
    text.textContent = m.name + ": " + (m.description || "") + (m.ok ? "" : " (excluded: " + m.reason + ")") +
      (loaded.has(m.name) ? " (loaded)" : "");
    row.append(cb, text);
    box.appendChild(row);
  }
  $("moddlg").showModal();
}

function openBulk() {
  const sel = $("bulkaction");
  sel.textContent = "";
  for (const a of actions()) {
    const o = document.createElement("option");
    o.value = o.textContent = a.name;
    sel.appendChild(o);
  }
  $("bulkdlg").showModal();
}

function showState(st) {
  view.state = st;
  const s = $("status");
  s.textContent = st.status === "created" ? "not started" : st.status;
  s.dataset.status = st.status;
  $("vtime").textContent = (st.now / 1e9).toFixed(6) + " virtual s";
  const c = map(st.counts);
  $("ranks").textContent = st.status === "created" ? st.size + " ranks, not started" :
    c.running + " running / " + c.exited + " exited / " + c.faulted + " faulted of " + st.size;
  $("ranks").dataset.running = c.running;
  $("start").disabled = st.status !== "created";
  $("suspend").disabled = st.status !== "running";
  $("resume").disabled = st.status !== "suspended";
  if (view.preselect && !view.file) {
    // No file asked for: the one holding instrumented lines, else the program's first.
    view.preselect = false;
    const a = list(st.acts).find((x) => x.file && view.files.includes(x.file));
    if (a) openFile(a.file, a.line);
    else if (view.files.length) openFile(programFile(view.files));
  }
  $("ctxarg").placeholder = { ionode: "0-" + (st.ionodes - 1), sample: "10:42", ranks: "0-7,12" }[$("ctxkind").value] || "";
}

function listen() {
  const es = new EventSource("/api/events?" + q());
  es.addEventListener("state", (ev) => {
    const m = JSON.parse(ev.data);
    if (m.error) { $("status").textContent = m.error; return; }
    showState(m.state);
    document.body.dataset.version = m.version;
    refresh();
  });
  es.onerror = () => { $("status").textContent = "disconnected"; $("status").dataset.status = "disconnected"; };
}

function wire() {
  for (const op of ["start", "suspend", "resume"]) $(op).addEventListener("click", () => act({ op }));
  $("ctxkind").addEventListener("change", () => {
    $("ctxarg").hidden = $("ctxkind").value === "all";
    if (view.state) showState(view.state);
    refresh();
  });
  $("ctxarg").addEventListener("change", refresh);
  $("modbtn").addEventListener("click", async () => { await refreshModules(); openModules(); });
  $("modload").addEventListener("click", () => {
    const names = [...document.querySelectorAll("#modlist input:checked:not(:disabled)")].map((c) => c.value);
    if (names.length) act({ op: "load", modules: names });
  });
  $("bulkbtn").addEventListener("click", openBulk);
  $("bulkgo").addEventListener("click", () => act({
    op: "bulk", action: $("bulkaction").value, regex: $("bulkregex").value, kind: $("bulkkind").value, ctx: ctxChoice(),
  }));
  $("lines").addEventListener("contextmenu", (e) => {
    const tr = e.target.closest("tr.instr");
    if (!tr) return;
    e.preventDefault();
    showMenu(e, tr);
  });
  document.addEventListener("click", (e) => { if (!$("menu").contains(e.target)) hideMenu(); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") hideMenu(); });
}

async function main() {
  wire();
  await refreshModules();
  try {
    view.files = list(await get("/api/files"));
    buildTree(view.files);
  } catch (e) { log(e.message, "err"); }
  // A link may name a file and a line: page?token=T&file=cg.c&line=110.
  const asked = new URLSearchParams(location.search);
  const file = asked.get("file");
  if (file) {
    const match = view.files.find((f) => f === file) || view.files.find((f) => f.endsWith("/" + file));
    if (match) openFile(match, asked.get("line"));
    else log("no source file " + file + " in the program's line table", "err");
  } else {
    view.preselect = true;
  }
  listen();
}

main();
