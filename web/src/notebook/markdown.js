// A small Markdown renderer for notebook cells, building DOM nodes (never HTML text, so a cell
// cannot inject markup): headings, paragraphs, lists, fenced code, quotes, and inline code,
// bold, italics and links.
import { el } from "../dom.js";

const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\([^)\s]+\))|(\$[^$]+\$)/;

/** The inline parts of `text` as nodes. */
function inline(text) {
  const nodes = [];
  let rest = text;
  while (rest) {
    const m = INLINE.exec(rest);
    if (!m) break;
    if (m.index) nodes.push(rest.slice(0, m.index));
    const t = m[0];
    if (m[1]) nodes.push(el("code", {}, t.slice(1, -1)));
    else if (m[2]) nodes.push(el("strong", {}, ...inline(t.slice(2, -2))));
    else if (m[3]) nodes.push(el("em", {}, ...inline(t.slice(1, -1))));
    else if (m[4]) {
      const [, label, href] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(t);
      const safe = /^(https?:|#|\.{0,2}\/|[\w.-]+(\.html|\.md|\/))/.test(href) ? href : "#";
      nodes.push(el("a", { href: safe, target: "_blank", rel: "noopener" }, ...inline(label)));
    } else nodes.push(el("span", { class: "math" }, t.slice(1, -1)));
    rest = rest.slice(m.index + t.length);
  }
  if (rest) nodes.push(rest);
  return nodes;
}

const isBlockStart = (line) => /^(#{1,6}\s|```|>\s?|\s*([-*+]|\d+[.)])\s)/.test(line);

/** The nodes of a Markdown text. */
export function renderMarkdown(text) {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i += 1; continue; }
    let m;
    if ((m = /^(#{1,6})\s+(.*)$/.exec(line))) {
      out.push(el(`h${m[1].length}`, {}, ...inline(m[2])));
      i += 1;
    } else if (line.startsWith("```")) {
      const body = [];
      for (i += 1; i < lines.length && !lines[i].startsWith("```"); i += 1) body.push(lines[i]);
      out.push(el("pre", {}, el("code", {}, body.join("\n"))));
      i += 1;
    } else if (/^>\s?/.test(line)) {
      const body = [];
      for (; i < lines.length && /^>\s?/.test(lines[i]); i += 1) body.push(lines[i].replace(/^>\s?/, ""));
      out.push(el("blockquote", {}, ...renderMarkdown(body.join("\n"))));
    } else if ((m = /^\s*([-*+]|\d+[.)])\s/.exec(line))) {
      const ordered = /\d/.test(m[1]);
      const items = [];
      for (; i < lines.length && /^\s*([-*+]|\d+[.)])\s/.test(lines[i]); i += 1) {
        items.push(el("li", {}, ...inline(lines[i].replace(/^\s*([-*+]|\d+[.)])\s+/, ""))));
      }
      out.push(el(ordered ? "ol" : "ul", {}, ...items));
    } else {
      const body = [];
      for (; i < lines.length && lines[i].trim() && !isBlockStart(lines[i]); i += 1) body.push(lines[i]);
      out.push(el("p", {}, ...inline(body.join(" "))));
    }
  }
  return out;
}
