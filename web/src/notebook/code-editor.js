// A code cell's editor: its text drawn plainly at first, then the page's CodeMirror editor
// (editor.js: Python highlighting, the light or dark theme; a script chunk loaded on first need)
// once the cell comes near the screen or takes the focus, so a notebook of a hundred cells opens
// at once and builds only the editors it shows.
import { el } from "../dom.js";

let loading = null;
const loadEditor = () => (loading ??= import("../editor.js"));

let watcher = null;
const waiting = new Map();   // a cell's plain text -> what mounts its editor

function watch(node, mount) {
  watcher ??= new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) waiting.get(entry.target)?.();
    }
  }, { rootMargin: "400px 0px" });
  waiting.set(node, mount);
  watcher.observe(node);
}

function unwatch(node) {
  waiting.delete(node);
  watcher?.unobserve(node);
}

/**
 * Escape leaves the editor (`onEscape`) unless CodeMirror has something shown to close (its
 * completions, its search) or a selection to collapse; taken before CodeMirror sees the key, so a
 * completion still being looked for (nothing shown) does not swallow it.
 */
function escapeLeaves(view, onEscape) {
  view.dom.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape" || ev.shiftKey || ev.ctrlKey || ev.altKey || ev.metaKey) return;
    const selection = view.state.selection;
    if (view.dom.querySelector(".cm-tooltip-autocomplete, .cm-search")) return;
    if (selection.ranges.length > 1 || !selection.main.empty) return;
    ev.preventDefault();
    ev.stopPropagation();
    onEscape();
  }, true);
}

/**
 * @param {HTMLElement} parent
 * @param {{source: string, label: string, onChange: (code: string) => void,
 *          keys: {key: string, run: () => boolean}[], onEscape: () => void}} options
 */
export function createCodeEditor(parent, { source, label, onChange, keys, onEscape }) {
  const plain = el("pre", { class: "nb-source-plain", tabindex: "0", role: "textbox", "aria-multiline": "true",
                            "aria-label": label, "data-testid": "cell-source" }, source);
  parent.append(plain);
  let editor = null;
  let mounting = null;
  let removed = false;

  function mount() {
    unwatch(plain);
    mounting ??= loadEditor().then(({ createEditor }) => {
      if (removed) return null;
      editor = createEditor(parent, { doc: source, label, onChange, keys, maxHeight: "none", fontSize: "13px" });
      escapeLeaves(editor.view, onEscape);
      const focused = document.activeElement === plain;
      plain.remove();
      if (focused) editor.focus();
      return editor;
    });
    return mounting;
  }
  watch(plain, mount);
  plain.addEventListener("focus", () => mount());

  return {
    /** Builds the editor (if not yet) and puts the cursor in it. */
    async focus() {
      (await mount())?.focus();
    },
    markError: (line) => editor?.markError(line),
    clearMarks: () => editor?.clearMarks(),
    destroy() {
      removed = true;
      unwatch(plain);
      editor?.destroy();
    },
  };
}
