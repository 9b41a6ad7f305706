// The console panel: stdout, stderr, tracebacks and notes, appended as text nodes only (user
// output is never parsed as HTML). Traceback lines that point into main.py become buttons that
// jump to that line in the editor. After a run, each requested gradient that was None gets one
// plain sentence (the engine's reason) whose line numbers highlight the editor line. Old lines are
// dropped past MAX_CHUNKS to stay responsive.
import { el } from "./dom.js";
import { createTerminal } from "./terminal.js";

const MAX_CHUNKS = 3000;
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

export function createConsole(root, { onGoToLine, onHighlightLine = onGoToLine }) {
  const terminals = new WeakMap();   // console chunk -> its terminal (terminal.js)
  const log = el("div", { class: "console-log", role: "log", "aria-live": "polite", tabindex: "0",
                          "aria-label": "Console output" });
  root.append(log);

  // Follow new output while the reader is at the bottom; a new run always brings them there.
  const atBottom = () => log.scrollHeight - log.scrollTop - log.clientHeight < 24;

  function append(node, force = false) {
    const stick = force || atBottom();
    log.append(node);
    while (log.childElementCount > MAX_CHUNKS) log.firstElementChild.remove();
    if (stick) log.scrollTop = log.scrollHeight;
  }

  function lineButton(line, text, title) {
    const link = el("button", { type: "button", class: "line-link", "data-line": String(line), title }, text);
    link.addEventListener("click", () => onHighlightLine(line));
    return link;
  }

  return {
    /** stdout/stderr, rendered as a terminal would ("\r", "\b", ANSI colours: terminal.js). */
    output(stream, text) {
      const last = log.lastElementChild;
      const term = last && last.dataset.stream === stream ? terminals.get(last) : undefined;
      if (term && term.size < 20000) {
        const stick = atBottom();
        term.write(text);
        if (stick) log.scrollTop = log.scrollHeight;
        return;
      }
      const box = el("span", { class: `out ${stream}`, "data-stream": stream });
      const fresh = createTerminal(box);
      terminals.set(box, fresh);
      fresh.write(text);
      append(box);
    },
    traceback({ text }) {
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
      append(box);
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
      append(box);
    },
    note(text, kind = "info") {
      append(el("span", { class: `note ${kind}`, "data-stream": "note" }, text), kind === "run");
    },
    clear() {
      log.replaceChildren();
    },
    text: () => log.textContent,
  };
}
