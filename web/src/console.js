// The console panel: stdout, stderr, tracebacks and notes, appended as text nodes only (user
// output is never parsed as HTML). Traceback lines that point into main.py become buttons that
// jump to that line in the editor. Old lines are dropped past MAX_CHUNKS to stay responsive.
import { el } from "./dom.js";

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

export function createConsole(root, { onGoToLine }) {
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

  return {
    output(stream, text) {
      const last = log.lastElementChild;
      if (last && last.dataset.stream === stream && last.textContent.length < 20000) {
        const stick = atBottom();
        last.append(text);    // a text node: same stream continues in the same chunk
        if (stick) log.scrollTop = log.scrollHeight;
        return;
      }
      append(el("span", { class: `out ${stream}`, "data-stream": stream }, text));
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
    note(text, kind = "info") {
      append(el("span", { class: `note ${kind}`, "data-stream": "note" }, text), kind === "run");
    },
    clear() {
      log.replaceChildren();
    },
    text: () => log.textContent,
  };
}
