// The console panel: stdout, stderr, tracebacks and notes, appended as text nodes only (user
// output is never parsed as HTML). Traceback lines that point into main.py become buttons that
// jump to that line in the editor. After a run, each requested gradient that was None gets one
// plain sentence (the engine's reason) whose line numbers highlight the editor line.
// Output floods stay bounded: the runtime sends stdout/stderr in batches (kind "output", at most
// one per 100 ms, a long batch cut to its head and tail), each appended in one DOM update; past
// MAX_LINES lines the oldest are dropped, counted in an "N earlier lines hidden" line at the top.
// "Save output" saves all of the last run's output as a text file (kept here up to SAVE_LIMIT
// characters; the file says when more was left out).
import { el } from "./dom.js";
import { createTerminal } from "./terminal.js";

export const MAX_LINES = 5000;
export const SAVE_LIMIT = 16 * 1024 * 1024;
const RENDER_EVERY_MS = 100;
// Below this width the page's panes are stacked (web/styles/playground.css): the console lies
// screens below Run, and a run brings it into view (reveal).
const STACKED = "(max-width: 820px)";
const USER_FRAME = /^(\s*File "main\.py", line )(\d+)(.*)$/;

/** Splits a traceback into plain text and {line} links to main.py (exported for tests). */
export function tracebackParts(text) {
  const parts = [];
  for (const line of text.split(/(?<=\n)/)) {
    const m = USER_FRAME.exec(line.replace(/\n$/, ""));
    if (m) parts.push({ text: m[1] }, { text: m[2], line: Number(m[2]) }, { text: m[3] + (line.endsWith("\n") ? "\n" : "") });
    else parts.push({ text: line });
  }
  return parts;
}

const LINE_MENTION = /\bline (\d+)\b/g;

/** Splits a sentence into plain text and {line} parts for each "line N" it mentions (exported for tests). */
export function lineMentionParts(text) {
  const parts = [];
  let at = 0;
  for (const m of text.matchAll(LINE_MENTION)) {
    if (m.index > at) parts.push({ text: text.slice(at, m.index) });
    parts.push({ text: m[0], line: Number(m[1]) });
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}

/** The output of one run, for "Save output": its text up to SAVE_LIMIT characters. */
function createRecord(run = 0) {
  const chunks = [];
  let size = 0;
  let lost = 0;
  return {
    run,
    add(text, unsaved = 0) {
      const room = SAVE_LIMIT - size;
      if (text.length > room) {
        lost += text.length - room;
        text = text.slice(0, room);
      }
      if (text) chunks.push(text);
      size += text.length;
      lost += unsaved;
    },
    text() {
      const all = chunks.join("");
      if (!lost) return all;
      return `${all}${all.endsWith("\n") || !all ? "" : "\n"}[tapegrad: ${lost.toLocaleString("en-US")} more `
        + `characters of output were not kept: a run keeps its first ${SAVE_LIMIT / 1024 / 1024} MB of output]\n`;
    },
  };
}

/** On a narrow screen (panes stacked), scrolls the console's pane into view unless it is in view
 * already: a Run's output appears there, far below the Run button. */
function revealPane(root) {
  if (!matchMedia(STACKED).matches) return;
  const pane = root.closest(".pane") ?? root;   // the page's pane; an embedded console itself
  const r = pane.getBoundingClientRect();
  if (r.top >= 0 && r.top < innerHeight / 2) return;
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
  pane.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
}

/** Saves `text` as a file through a download link. */
function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  const link = el("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The "Save output" button: in the console's pane head (next to Clear) when it has one. */
function saveButton(root, onClick) {
  const button = el("button", { type: "button", class: "quiet small save-output", "data-testid": "save-output",
                                title: "Save all of the last run's output as a text file" }, "Save output");
  button.addEventListener("click", onClick);
  const head = root.closest(".pane")?.querySelector(".pane-head");
  const clear = head?.querySelector("button");
  if (clear) clear.before(button);
  else if (head) head.append(button);
  else root.prepend(el("div", { class: "console-tools" }, button));
  return button;
}

/**
 * The log's lines, at most MAX_LINES: `count(node, lines)` for each chunk added or written to,
 * then `trim()` drops the oldest lines (a terminal chunk's finished lines one by one, other chunks
 * whole) and the first child says how many are hidden.
 */
function createLineBound(log, terminals) {
  const weights = new WeakMap();   // chunk -> its lines (not for terminal chunks: their elements count)
  let lines = 0;
  let hidden = 0;
  let changed = false;   // hidden changed since the banner was written
  let banner = null;
  function dropOldest() {
    const first = banner ? banner.nextElementSibling : log.firstElementChild;
    if (!first) return false;
    if (terminals.has(first)) {
      const line = first.firstElementChild;
      if (line?.classList.contains("term-line")) {
        line.remove();
        lines -= 1;
        hidden += 1;
        return true;
      }
      if (first === log.lastElementChild) return false;   // the line being written stays
      if (terminals.get(first).open) hidden += 1;
      first.remove();
      return true;
    }
    const n = weights.get(first) ?? 1;
    first.remove();
    lines -= n;
    hidden += n;
    return true;
  }
  return {
    count(node, n) {
      if (!terminals.has(node)) weights.set(node, n);
      lines += n;
    },
    /** Lines dropped before they were drawn. */
    hide(n) {
      hidden += n;
      changed = true;
    },
    trim() {
      while (lines > MAX_LINES && dropOldest()) changed = true;
      if (!changed) return;
      changed = false;
      banner ||= el("span", { class: "note hidden-lines", "data-testid": "hidden-lines", "data-stream": "note" });
      banner.textContent = `${hidden.toLocaleString("en-US")} earlier lines hidden: the console keeps the last `
        + `${MAX_LINES.toLocaleString("en-US")} (Save output saves all of the last run's output).`;
      if (log.firstElementChild !== banner) log.prepend(banner);
    },
    clear() {
      lines = 0;
      hidden = 0;
      changed = false;
      banner = null;
    },
    get lines() {
      return lines;
    },
  };
}

/**
 * Output waits in a queue and is drawn at most every RENDER_EVERY_MS in one DOM update (`draw`),
 * so a page that draws slower than output arrives still answers; past MAX_LINES queued lines the
 * oldest queued parts are dropped unseen (counted as hidden by `bound`).
 */
function createQueue(draw, bound) {
  let queued = [];
  let queuedLines = 0;
  let timer = null;
  let lastRender = 0;
  const linesOf = ([stream, text]) => (stream === "skipped" ? 1 : text.split("\n").length - 1);
  function settle() {
    clearTimeout(timer);
    timer = null;
    lastRender = performance.now();
    const parts = queued;
    queued = [];
    queuedLines = 0;
    if (parts.length) draw(parts);
  }
  function enqueue(parts) {
    for (const part of parts) {
      queued.push(part);
      queuedLines += linesOf(part);
    }
    while (queuedLines > MAX_LINES && queued.length > 1) {
      const n = linesOf(queued.shift());
      queuedLines -= n;
      bound.hide(n);
    }
    timer ??= setTimeout(settle, Math.max(0, lastRender + RENDER_EVERY_MS - performance.now()));
  }
  return { enqueue, settle };
}

/** The traceback's chunk: its lines into main.py are buttons (onGoToLine). */
function tracebackBox(text, onGoToLine) {
  const box = el("span", { class: "out traceback", "data-stream": "traceback" });
  for (const part of tracebackParts(text)) {
    if (part.line === undefined) {
      box.append(part.text);
    } else {
      const link = el("button", { type: "button", class: "line-link", "data-line": String(part.line),
                                  title: `Go to line ${part.line} in the editor` }, part.text);
      link.addEventListener("click", () => onGoToLine(part.line));
      box.append(link);
    }
  }
  return box;
}

/** appendParts(parts): [stream, text] parts into the log's terminals in one DOM update. */
function partsWriter(log, terminals, bound, atBottom) {
  /** Writes stream text into the last chunk when it is that stream's terminal, or a new one
   * (added to `fresh`, a fragment the caller appends). */
  function write(stream, text, fresh) {
    let box = fresh.lastElementChild || log.lastElementChild;
    if (!box || box.dataset.stream !== stream || !terminals.has(box)) {
      box = el("span", { class: `out ${stream}`, "data-stream": stream });
      terminals.set(box, createTerminal(box));
      fresh.append(box);
    }
    bound.count(box, terminals.get(box).write(text));
  }

  /** Appends [stream, text] parts (a "skipped" part is a note line) in one DOM update. */
  function appendParts(parts) {
    const stick = atBottom();
    const fresh = document.createDocumentFragment();
    for (const [stream, text] of parts) {
      if (stream !== "skipped") {
        write(stream, text, fresh);
        continue;
      }
      const note = el("span", { class: "note skipped", "data-stream": "skipped" }, text);
      fresh.append(note);
      bound.count(note, 1);
    }
    log.append(fresh);
    bound.trim();
    if (stick) log.scrollTop = log.scrollHeight;
  }
  return appendParts;
}

export function createConsole(root, { onGoToLine, onHighlightLine = onGoToLine }) {
  const terminals = new WeakMap();   // console chunk -> its terminal (terminal.js)
  const log = el("div", { class: "console-log", role: "log", "aria-live": "polite", tabindex: "0",
                          "aria-label": "Console output" });
  root.append(log);
  const bound = createLineBound(log, terminals);
  let record = createRecord();
  saveButton(root, () => download(`tapegrad-run-${record.run}-output.txt`, record.text()));

  // Follow new output while the reader is at the bottom; a new run always brings them there.
  const atBottom = () => log.scrollHeight - log.scrollTop - log.clientHeight < 24;

  function append(node, lines = 1, force = false) {
    settle();   // queued output first: the console keeps the order things happened
    const stick = force || atBottom();
    log.append(node);
    bound.count(node, lines);
    bound.trim();
    if (stick) log.scrollTop = log.scrollHeight;
  }

  const appendParts = partsWriter(log, terminals, bound, atBottom);
  const { enqueue, settle } = createQueue(appendParts, bound);

  function lineButton(line, text, title) {
    const link = el("button", { type: "button", class: "line-link", "data-line": String(line), title }, text);
    link.addEventListener("click", () => onHighlightLine(line));
    return link;
  }

  return {
    /** A new run: "Save output" saves its output from now on. */
    beginRun(number) {
      record = createRecord(number);
    },
    reveal: () => revealPane(root),   // a narrow screen: the console into view
    /** stdout/stderr, rendered as a terminal would ("\r", "\b", ANSI colours: terminal.js). */
    output(stream, text) {
      record.add(text);
      enqueue([[stream, text]]);
    },
    /** A batch of the run's output (kind "output": {parts, full?, unsaved?}). */
    batch({ parts, full, unsaved = 0 }) {
      record.add(full ?? parts.filter(([s]) => s !== "skipped").map(([, t]) => t).join(""), unsaved);
      enqueue(parts);
    },
    /** Draws the output still queued (at the end of a run). */
    settle,
    /** The last run's output as "Save output" saves it. */
    savedText: () => record.text(),
    traceback({ text }) {
      record.add(text);
      append(tracebackBox(text, onGoToLine), text.split("\n").length - (text.endsWith("\n") ? 1 : 0));
    },
    /** One line per None gradient: "line 12: the gradient of y with respect to x is None. <why>". */
    nones(items) {
      const box = el("span", { class: "nones", "data-stream": "nones" });
      for (const item of items) {
        const row = el("span", { class: "none-line", "data-testid": "none-explanation",
                                 "data-line": item.line == null ? null : String(item.line) });
        if (item.line != null) {
          row.append(lineButton(item.line, `line ${item.line}`, `Highlight line ${item.line} in the editor`), ": ");
        }
        for (const part of lineMentionParts(item.text)) {   // built by the runtime
          row.append(part.line === undefined ? part.text
            : lineButton(part.line, part.text, `Highlight line ${part.line} in the editor`));
        }
        box.append(row);
      }
      append(box, items.length);
    },
    note(text, kind = "info") {
      append(el("span", { class: `note ${kind}`, "data-stream": "note" }, text), 1, kind === "run");
    },
    clear() {
      settle(), log.replaceChildren(), bound.clear();
    },
    text: () => (settle(), log.textContent),
  };
}
