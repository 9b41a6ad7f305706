// The playground page's editor: the page's own <textarea> first (plain-editor.js), then CodeMirror
// (editor.js, a script chunk of its own) from `upgrade()` on. The page types into the textarea
// from its first paint; the full editor arrives once Python's boot no longer needs the visitor's
// processor (main.js decides when) and takes over the text, the selection, the focus, the scroll
// position and the marks. Until then every call goes to the plain editor.
import { createPlainEditor } from "./plain-editor.js";

/**
 * @param {HTMLTextAreaElement} area  the page's textarea (index.html)
 * @param {{code: string, label?: string, onChange?: (code: string) => void, onRun?: () => void}} options
 */
export function createPageEditor(area, { code, label, onChange, onRun }) {
  let current = createPlainEditor(area, { code, onChange });
  let upgrading = null;
  return {
    getCode: () => current.getCode(),
    setCode: (text) => current.setCode(text),
    highlightLine: (line) => current.highlightLine(line),
    markError: (line) => current.markError(line),
    clearMarks: () => current.clearMarks(),
    goToLine: (line) => current.goToLine(line),
    focus: () => current.focus(),
    /** Loads CodeMirror and puts it in the textarea's place (once); resolves when it is there. */
    upgrade() {
      upgrading ??= import("./editor.js").then(({ createEditor }) => {
        const was = current.state();
        const full = createEditor(area.parentElement, { doc: was.code, label, onChange, onRun,
                                                        selection: { anchor: was.anchor, head: was.head } });
        area.remove();
        current = full;
        if (was.marks.error !== null) full.markError(was.marks.error);
        if (was.marks.step !== null) full.highlightLine(was.marks.step);
        if (was.marks.error === null && was.marks.step === null) full.view.scrollDOM.scrollTop = was.scrollTop;
        if (was.focused) full.focus();
      });
      return upgrading;
    },
  };
}
