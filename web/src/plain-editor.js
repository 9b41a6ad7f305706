// The editor a visitor types into while the full one (CodeMirror, editor.js: 460 KB of script,
// about 0.3 s of a cold load's main thread) is still to come: the page's own <textarea>, which
// index.html holds with the default example's code, so it is there at the first paint. It has
// the editor's interface (getCode, setCode, marks, goToLine, focus); page-editor.js swaps it for
// CodeMirror later, carrying over the text, the selection, the focus and the marks.

const INDENT = "    ";

/**
 * @param {HTMLTextAreaElement} area
 * @param {{code: string, readOnly?: boolean, onChange?: (code: string) => void}} options
 */
export function createPlainEditor(area, { code, readOnly = false, onChange }) {
  if (area.value !== code) area.value = code;   // (setting it moves the caret of one typing already)
  area.readOnly = readOnly;
  const marks = { step: null, error: null };
  listen(area, marks, onChange);
  return {
    getCode: () => area.value,
    /** Replaces the whole text (undoable when the editor has the focus). */
    setCode(text) {
      if (area.ownerDocument.activeElement !== area) {
        area.value = text;
        return;
      }
      area.select();
      insert(area, text);
    },
    highlightLine(line) {
      marks.step = line;
      if (line !== null && line >= 1) scrollToLine(area, line);
    },
    markError(line) {
      marks.error = line;
      if (line !== null && line >= 1) scrollToLine(area, line);
    },
    clearMarks() {
      marks.step = null;
      marks.error = null;
    },
    goToLine(line) {
      const at = lineStart(area, line);
      if (line < 1 || at < 0) return;
      area.focus({ preventScroll: true });
      area.setSelectionRange(at, at);
      scrollToLine(area, line);
    },
    focus: () => area.focus(),
    /** What the full editor takes over. */
    state: () => ({
      code: area.value, anchor: area.selectionDirection === "backward" ? area.selectionEnd : area.selectionStart,
      head: area.selectionDirection === "backward" ? area.selectionStart : area.selectionEnd,
      focused: area.ownerDocument.activeElement === area, scrollTop: area.scrollTop, marks: { ...marks },
    }),
  };
}

/** Typing: an edit drops the error mark; Tab indents, Shift+Tab dedents, Escape then Tab leaves. */
function listen(area, marks, onChange) {
  let escaped = false;      // Escape, then Tab: Tab leaves the editor (as in CodeMirror)
  area.addEventListener("input", () => {
    if (marks.error !== null) marks.error = null;   // stale after an edit
    onChange?.(area.value);
  });
  area.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { escaped = true; return; }
    const leave = escaped;
    escaped = false;
    if (ev.key !== "Tab" || ev.ctrlKey || ev.metaKey || ev.altKey || leave || area.readOnly) return;
    ev.preventDefault();
    if (ev.shiftKey) dedentLine(area);
    else insert(area, INDENT);
  });
}

/** Types text at the cursor, as a keystroke would (so Ctrl+Z undoes it). */
function insert(area, text) {
  area.focus();
  // execCommand keeps the textarea's undo history; setRangeText is the fallback without it.
  if (!document.execCommand?.("insertText", false, text)) {
    area.setRangeText(text, area.selectionStart, area.selectionEnd, "end");
    area.dispatchEvent(new Event("input", { bubbles: true }));
  }
}

function dedentLine(area) {
  const start = area.value.lastIndexOf("\n", area.selectionStart - 1) + 1;
  const spaces = area.value.slice(start, start + INDENT.length).match(/^ */)[0].length;
  if (!spaces) return;
  const caret = area.selectionStart;
  area.setSelectionRange(start, start + spaces);
  insert(area, "");
  const at = Math.max(start, caret - spaces);
  area.setSelectionRange(at, at);
}

/** The offset where a 1-based line starts, or -1. */
function lineStart(area, line) {
  let at = 0;
  for (let n = 1; n < line; n++) {
    at = area.value.indexOf("\n", at) + 1;
    if (at === 0) return -1;
  }
  return at;
}

function scrollToLine(area, line) {
  const height = parseFloat(getComputedStyle(area).lineHeight) || 18;
  area.scrollTop = Math.max(0, (line - 1) * height - area.clientHeight / 2);
}
