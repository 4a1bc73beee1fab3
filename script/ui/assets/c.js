// c.js: a small tokenizer for C that turns source lines into highlighted HTML. It keeps
// one piece of state between lines, whether a /* comment */ is still open, so a file is
// highlighted line by line in order.
"use strict";

const CSyntax = (() => {
  const keywords = new Set(("auto break case const continue default do else enum extern for goto if " +
    "inline register restrict return sizeof static struct switch typedef union volatile while").split(" "));
  const types = new Set(("char double float int long short signed unsigned void _Bool size_t " +
    "uint32_t uint64_t int32_t int64_t uint8_t MPI_Comm MPI_Status MPI_Request MPI_Datatype MPI_Op").split(" "));

  function esc(s) {
    return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  }
  function span(cls, text) { return '<span class="' + cls + '">' + esc(text) + "</span>"; }

  // quoted returns the end of a string or char literal starting at i (its quote q).
  function quoted(line, i, q) {
    let j = i + 1;
    while (j < line.length && line[j] !== q) j += line[j] === "\\" ? 2 : 1;
    return Math.min(j + 1, line.length);
  }

  // highlight returns the HTML of one line and whether a comment is open at its end.
  function highlight(line, inComment) {
    let out = "", i = 0;
    if (inComment) {
      const end = line.indexOf("*/");
      if (end < 0) return { html: span("com", line), inComment: true };
      out += span("com", line.slice(0, end + 2));
      i = end + 2;
    }
    if (/^\s*#/.test(line.slice(i)) && i === 0) {
      const cut = line.search(/\/[/*]/);
      const pre = cut < 0 ? line : line.slice(0, cut);
      out += span("pre", pre);
      i = pre.length;
    }
    while (i < line.length) {
      const c = line[i], rest = line.slice(i);
      let m;
      if (rest.startsWith("//")) { out += span("com", rest); break; }
      if (rest.startsWith("/*")) {
        const end = line.indexOf("*/", i + 2);
        if (end < 0) return { html: out + span("com", rest), inComment: true };
        out += span("com", line.slice(i, end + 2)); i = end + 2; continue;
      }
      if (c === '"' || c === "'") {
        const j = quoted(line, i, c);
        out += span("str", line.slice(i, j)); i = j; continue;
      }
      if ((m = /^(0[xX][0-9a-fA-F]+|\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?)[uUlLfF]*/.exec(rest))) {
        out += span("num", m[0]); i += m[0].length; continue;
      }
      if ((m = /^[A-Za-z_]\w*/.exec(rest))) {
        const w = m[0];
        if (keywords.has(w)) out += span("kw", w);
        else if (types.has(w)) out += span("ty", w);
        else if (/^\s*\(/.test(line.slice(i + w.length))) out += span("fn", w);
        else out += esc(w);
        i += w.length; continue;
      }
      out += esc(c); i++;
    }
    return { html: out, inComment: false };
  }

  return { highlight, esc };
})();
