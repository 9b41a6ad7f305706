// Output rendered as a terminal shows it: "\r" returns to the start of the line, "\b" steps back
// one column, and ANSI SGR codes (bold, colours) style the text instead of showing as garbage;
// "ESC[K" erases to the end of the line. Keras's progress bar relies on all of these to redraw one
// line, even when its output is not a terminal. Text is only ever added as text nodes. Each
// finished line is one element (".term-line"), so the console can drop its oldest lines.
import { el } from "./dom.js";

const TOKEN = /\x1b\[([0-9;?]*)([A-Za-z])|\x1b[()][A-Za-z0-9]|\r\n|[\r\b\n]/g;

/** The style after an SGR sequence's parameters ("1", "0", "32", "1;37"...). */
export function applySgr(style, params) {
  let { bold, fg } = style;
  const codes = params === "" ? [0] : params.split(";").map(Number);
  for (const c of codes) {
    if (c === 0) { bold = false; fg = null; }
    else if (c === 1) bold = true;
    else if (c === 22) bold = false;
    else if ((c >= 30 && c <= 37) || (c >= 90 && c <= 97)) fg = c;
    else if (c === 39) fg = null;
  }
  return { bold, fg };
}

function styleClass({ bold, fg }) {
  const classes = [];
  if (bold) classes.push("ansi-bold");
  if (fg !== null) classes.push(`ansi-fg-${fg}`);
  return classes.join(" ");
}

/** Nodes for a line of cells: runs of one style become one text node or span. */
function cellNodes(cells) {
  const nodes = [];
  let run = "";
  let cls = null;
  const flush = () => {
    if (run) nodes.push(cls ? el("span", { class: cls }, run) : document.createTextNode(run));
    run = "";
  };
  for (const cell of cells) {
    const c = cell.cls || "";
    if (c !== cls) { flush(); cls = c; }
    run += cell.ch;
  }
  flush();
  return nodes;
}

/**
 * A terminal writing into `box`: finished lines are appended as they end; the line being written
 * is one element redrawn on each write, so a progress bar updates in place.
 */
export function createTerminal(box) {
  let cells = [];
  let cursor = 0;
  let style = { bold: false, fg: null };
  const live = el("span", { class: "live-line" });
  box.append(live);

  function put(text) {
    const cls = styleClass(style);
    for (const ch of text) {
      while (cells.length < cursor) cells.push({ ch: " ", cls: "" });
      cells[cursor] = { ch, cls };
      cursor += 1;
    }
  }

  let finished = null;   // the lines one write ends, inserted together (one DOM update)
  function endLine() {
    const line = el("span", { class: "term-line" }, ...cellNodes(cells), "\n");
    (finished ||= document.createDocumentFragment()).append(line);
    cells = [];
    cursor = 0;
  }

  /** Text without control characters (the usual case, and a flood's): whole lines at once. */
  function writePlain(text) {
    const lines = text.split("\n");
    const last = lines.pop();
    const plain = !styleClass(style);
    for (const line of lines) {
      if (plain && cells.length === 0 && cursor === 0) {
        (finished ||= document.createDocumentFragment()).append(el("span", { class: "term-line" }, line + "\n"));
      } else {
        put(line);
        endLine();
      }
    }
    put(last);
    const ended = finished ? finished.childElementCount : 0;
    if (finished) live.before(finished);
    finished = null;
    live.replaceChildren(...cellNodes(cells));
    return ended;
  }

  return {
    /** Writes text; returns the number of lines it ended (each a ".term-line" element of `box`). */
    write(text) {
      if (!/[\r\b\x1b]/.test(text)) return writePlain(text);
      let at = 0;
      for (const m of text.matchAll(TOKEN)) {
        if (m.index > at) put(text.slice(at, m.index));
        at = m.index + m[0].length;
        const t = m[0];
        if (t === "\n" || t === "\r\n") endLine();
        else if (t === "\r") cursor = 0;
        else if (t === "\b") cursor = Math.max(0, cursor - 1);
        else if (m[2] === "m") style = applySgr(style, m[1]);
        else if (m[2] === "K") {
          if (m[1] === "2") cells = [];
          else if (m[1] === "1") cells = cells.map((c, i) => (i < cursor ? { ch: " ", cls: "" } : c));
          else cells = cells.slice(0, cursor);
        } else if (m[2] === "C") cursor += Number(m[1] || 1);
        else if (m[2] === "D") cursor = Math.max(0, cursor - Number(m[1] || 1));
        else if (m[2] === "G") cursor = Math.max(0, Number(m[1] || 1) - 1);
        // other sequences (cursor up, scrolling...) have no meaning in a log: dropped
      }
      if (at < text.length) put(text.slice(at));
      const ended = finished ? finished.childElementCount : 0;
      if (finished) live.before(finished);
      finished = null;
      live.replaceChildren(...cellNodes(cells));
      return ended;
    },
    /** Whether the line being written has text. */
    get open() {
      return cells.length > 0;
    },
  };
}
