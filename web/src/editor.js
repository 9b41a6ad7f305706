// CodeMirror 6 editor with Python highlighting, Ctrl/Cmd+Enter to run, and two line marks:
// "step" (the graph panel's current source line) and "error" (where the last run failed).
import { basicSetup } from "codemirror";
import { python } from "@codemirror/lang-python";
import { EditorState, Prec, StateEffect, StateField } from "@codemirror/state";
import { Decoration, EditorView, keymap } from "@codemirror/view";
import { indentWithTab } from "@codemirror/commands";

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

/**
 * @param {HTMLElement} parent
 * @param {{doc: string, readOnly?: boolean, label?: string, onChange?: (code: string) => void,
 *          onRun?: () => void}} options
 */
export function createEditor(parent, { doc, readOnly = false, label = "Python code", onChange, onRun }) {
  const extensions = [
    basicSetup,
    python(),
    marks,
    keymap.of([indentWithTab]),
    Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => { onRun?.(); return true; } }])),
    EditorView.lineWrapping,
    EditorView.contentAttributes.of({ "aria-label": label }),
    EditorView.updateListener.of((u) => { if (u.docChanged) onChange?.(u.state.doc.toString()); }),
  ];
  if (readOnly) extensions.push(EditorState.readOnly.of(true));
  const view = new EditorView({ state: EditorState.create({ doc, extensions }), parent });

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
  };
}
