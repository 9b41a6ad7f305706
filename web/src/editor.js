// CodeMirror 6 editor with Python highlighting, Ctrl/Cmd+Enter to run, and two line marks:
// "step" (the graph panel's current source line) and "error" (where the last run failed).
//
// The editor lives in a shadow root. CodeMirror injects its styles at run time; in a document
// that would be a <style> element, which a Content-Security-Policy without 'unsafe-inline' styles
// blocks (the playground's own policy, or that of a documentation page embedding the element).
// In a shadow root CodeMirror uses a constructed, adopted stylesheet instead, which CSP allows.
// So the editor's look is set here, as a CodeMirror theme, not in the page's CSS.
import { basicSetup } from "codemirror";
import { python } from "@codemirror/lang-python";
import { Compartment, EditorState, Prec, StateEffect, StateField } from "@codemirror/state";
import { Decoration, EditorView, keymap } from "@codemirror/view";
import { indentWithTab } from "@codemirror/commands";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { tags as t } from "@lezer/highlight";

const setMark = StateEffect.define();   // {kind: "step"|"error", line: number|null}

const marks = StateField.define({
  create: () => ({ step: null, error: null }),
  update(value, tr) {
    let next = value;
    for (const e of tr.effects) if (e.is(setMark)) next = { ...next, [e.value.kind]: e.value.line };
    if (tr.docChanged && next.error !== null) next = { ...next, error: null };   // stale after an edit
    return next;
  },
  provide: (field) => EditorView.decorations.compute([field, "doc"], (state) => {
    const { step, error } = state.field(field);
    const ranges = [];
    for (const [kind, line] of [["error", error], ["step", step]]) {
      if (line !== null && line >= 1 && line <= state.doc.lines) {
        ranges.push({ from: state.doc.line(line).from, kind });
      }
    }
    ranges.sort((a, b) => a.from - b.from);
    return Decoration.set(ranges.map((r) => Decoration.line({ class: `cm-mark-${r.kind}` }).range(r.from)), true);
  }),
});

const MONO = 'var(--mono, ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace)';

function theme({ fontSize, maxHeight }) {
  return EditorView.theme({
    "&": { height: maxHeight ? "auto" : "100%", maxHeight: maxHeight ?? "none", fontSize },
    "&.cm-focused": { outline: "none" },
    ".cm-scroller": { fontFamily: MONO, overflow: "auto" },
    ".cm-mark-step": { backgroundColor: "var(--step-bg, #fff4c2) !important" },
    ".cm-mark-error": { backgroundColor: "var(--error-bg, #fdecea) !important",
                        boxShadow: "inset 3px 0 0 var(--error, #b42318)" },
  });
}

// The dark theme's editor (the page's <html data-theme="dark">, theme.js): every colour at least
// 4.5:1 against its background (axe-core's AA check, tests/browser/test_theme.py).
const DARK_BG = "#12161c";
const darkTheme = [
  EditorView.theme({
    "&": { color: "#e4e7eb", backgroundColor: DARK_BG },
    ".cm-content": { caretColor: "#f8fafc" },
    ".cm-cursor, .cm-dropCursor": { borderLeftColor: "#f8fafc" },
    "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection":
      { backgroundColor: "#264f78" },
    ".cm-gutters": { backgroundColor: "#161b22", color: "#a3adba", borderRight: "1px solid #2e353f" },
    ".cm-activeLine": { backgroundColor: "#1a2029" },
    ".cm-activeLineGutter": { backgroundColor: "#1f2630", color: "#e4e7eb" },
    ".cm-matchingBracket": { backgroundColor: "#2d3b4f", outline: "1px solid #5b6675" },
    ".cm-foldPlaceholder": { backgroundColor: "#1f252d", color: "#c7cdd4", border: "1px solid #3b434e" },
    ".cm-tooltip": { backgroundColor: "#1f252d", color: "#e4e7eb", border: "1px solid #3b434e" },
  }, { dark: true }),
  syntaxHighlighting(HighlightStyle.define([
    { tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword, t.operatorKeyword], color: "#d2a8ff" },
    { tag: [t.string, t.special(t.string)], color: "#a5d6a7" },
    { tag: [t.number, t.bool, t.null, t.atom], color: "#ffb86b" },
    { tag: [t.comment, t.lineComment, t.blockComment], color: "#a3adba", fontStyle: "italic" },
    { tag: [t.function(t.variableName), t.function(t.propertyName), t.definition(t.function(t.variableName))], color: "#8cc8ff" },
    { tag: [t.className, t.definition(t.className), t.typeName], color: "#ffd580" },
    { tag: [t.propertyName, t.attributeName], color: "#9fdcff" },
    { tag: [t.self, t.special(t.variableName)], color: "#ff9e9e" },
    { tag: [t.operator, t.punctuation, t.bracket, t.variableName], color: "#e4e7eb" },
    { tag: t.invalid, color: "#ff8a80" },
  ])),
];

/**
 * @param {HTMLElement} parent
 * @param {{doc: string, readOnly?: boolean, label?: string, onChange?: (code: string) => void,
 *          onRun?: () => void, fontSize?: string, maxHeight?: string}} options
 *        maxHeight: the editor grows with its text up to this (default: fills `parent`)
 *        selection: where the cursor starts ({anchor, head} offsets; default: the start)
 *        keys: more key bindings [{key, run}], before CodeMirror's own (a notebook cell's Shift+Enter)
 */
export function createEditor(parent, { doc, readOnly = false, label = "Python code", onChange, onRun,
                                       fontSize = "13.5px", maxHeight, selection, keys = [] } = {}) {
  const host = parent.ownerDocument.createElement("div");
  host.className = "cm-host";
  parent.append(host);
  const root = host.attachShadow({ mode: "open" });
  const extensions = [
    theme({ fontSize, maxHeight }),
    basicSetup,
    python(),
    marks,
    keymap.of([indentWithTab]),
    Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => { onRun?.(); return true; } }, ...keys])),
    EditorView.lineWrapping,
    // tabindex: the text is focusable as axe-core counts it (a contenteditable alone is not), so its
    // scroller is a scrollable region with keyboard access (tests/browser/test_phone_a11y.py)
    EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0" }),
    EditorView.updateListener.of((u) => { if (u.docChanged) onChange?.(u.state.doc.toString()); }),
  ];
  if (readOnly) extensions.push(EditorState.readOnly.of(true));
  // the page's theme (<html data-theme>, theme.js)
  const page = parent.ownerDocument.documentElement;
  const colours = new Compartment();
  const themed = () => (page.dataset.theme === "dark" ? darkTheme : []);
  extensions.push(colours.of(themed()));
  const inDoc = (at) => Math.max(0, Math.min(doc.length, at ?? 0));
  const start = selection ? { anchor: inDoc(selection.anchor), head: inDoc(selection.head) } : undefined;
  const view = new EditorView({ state: EditorState.create({ doc, extensions, selection: start }), parent: root, root });
  const themeWatch = new MutationObserver(() => view.dispatch({ effects: colours.reconfigure(themed()) }));
  themeWatch.observe(page, { attributes: true, attributeFilter: ["data-theme"] });

  function mark(kind, line, scroll) {
    const effects = [setMark.of({ kind, line })];
    if (scroll && line !== null && line >= 1 && line <= view.state.doc.lines) {
      effects.push(EditorView.scrollIntoView(view.state.doc.line(line).from, { y: "center" }));
    }
    view.dispatch({ effects });
  }

  return {
    view,
    getCode: () => view.state.doc.toString(),
    /** Replaces the whole text (one undoable change). */
    setCode(code) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: code } });
    },
    /** Highlights a 1-based line (null clears) and scrolls it into view. */
    highlightLine: (line) => mark("step", line, true),
    markError: (line) => mark("error", line, true),
    clearMarks() {
      view.dispatch({ effects: [setMark.of({ kind: "step", line: null }), setMark.of({ kind: "error", line: null })] });
    },
    /** Puts the cursor on a 1-based line and focuses the editor. */
    goToLine(line) {
      if (line < 1 || line > view.state.doc.lines) return;
      const at = view.state.doc.line(line).from;
      view.dispatch({ selection: { anchor: at }, effects: EditorView.scrollIntoView(at, { y: "center" }) });
      view.focus();
    },
    focus: () => view.focus(),
    /** Removes the editor (a deleted notebook cell's). */
    destroy() {
      themeWatch.disconnect();
      view.destroy();
      host.remove();
    },
  };
}
