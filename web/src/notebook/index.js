// Notebook mode: a second view of the playground beside the script editor. A .ipynb (the gallery's,
// ?notebook=, the file picker, drag and drop, a share link, the autosaved one) shows as cells:
// Markdown rendered, code cells in the page's code editor, run one by one (Shift+Enter) or all, in
// one Python session (the worker keeps the cells' namespace: playground_runtime/session.py) until
// Restart; cells are added, deleted (and brought back), moved and edited (editing.js). Save
// downloads it as .ipynb with the outputs; every edit is autosaved in this browser.
import "../../styles/notebook.css";
import { el } from "../dom.js";
import { codeCell, markdownCell } from "./cell.js";
import { KEYS, createCellList } from "./editing.js";
import { notebookText, parseNotebook } from "./ipynb.js";
import { GALLERY_NOTEBOOKS, acceptDrops, downloadText, fetchNotebook, notebookFromFragment,
         notebookLink, notebookStore } from "./files.js";
import { createRuns } from "./runs.js";
import { createToolbar } from "./toolbar.js";

/**
 * @param {{runner, stop: () => Promise<string>, note: (text: string, kind?: string) => void,
 *          toggle: HTMLButtonElement, embed: boolean}} options  note: a line in the console
 */
export function createNotebookMode({ runner, stop, note, toggle, embed }) {
  const store = embed ? null : notebookStore();
  const status = el("p", { class: "nb-status", role: "status", "data-testid": "notebook-status" });
  const list = el("div", { class: "nb-cells", "data-testid": "notebook-cells" });
  const view = el("section", { class: "notebook-view", hidden: true, "data-testid": "notebook",
                               "aria-label": "Notebook" });
  const runs = createRuns(runner, view);
  let state = { name: "notebook.ipynb", metadata: {} };
  let saveTimer = 0;

  const say = (text) => { status.textContent = text; };
  const text = () => notebookText(cells.cells(), state.metadata);
  const save = () => store?.save(text(), state.name);
  const changed = () => {
    clearTimeout(saveTimer);
    if (store) saveTimer = setTimeout(save, 300);
  };
  const cells = createCellList({
    list,
    make: (cell, hooks) => (cell.type === "code" ? codeCell : markdownCell)(cell, hooks),
    run: (item) => runs.runCell(item),
    changed,
    say,
    onUndoable: (count) => toolbar.setUndoable(count),
  });

  /** Opens the .ipynb `text` (named `name`) in the view; false (with a note) when it is not one. */
  function openText(text, name) {
    let parsed;
    try {
      parsed = parseNotebook(text);
    } catch (err) {
      note(`Could not open ${name}: ${err.message}.`, "error");
      return false;
    }
    state = { name, metadata: parsed.metadata };
    cells.open(parsed.cells);
    runs.restart();
    view.dataset.name = name;
    say(`${name}: ${parsed.cells.length} cells. Shift+Enter runs a cell, Run all runs them in order; `
        + "Esc leaves a cell's editor, then A / B add a cell, D D deletes it (Keys lists them all).");
    setMode(true);
    save();
    return true;
  }
  const openFile = async (file) => openText(await file.text(), file.name);

  const toolbar = createToolbar({
    gallery: GALLERY_NOTEBOOKS,
    onGallery: async (file) => openText(await fetchNotebook(file), file.split("/").pop()),
    onFile: openFile,
    keys: KEYS,
    onRunAll: () => runs.runAll(cells.items),
    onStop: () => stop(),
    onRestart: () => { runs.restart(); say("Restarted: the next cell runs in a new Python session."); },
    onSave: () => downloadText(state.name, text()),
    onShare: () => share(cells.cells(), state.metadata, toolbar, say),
    onUndo: () => cells.undo(),
    onClose: () => setMode(false),
  });
  view.append(toolbar.root, status, list);
  acceptDrops(view, openFile);

  function setMode(open) {
    view.hidden = !open;
    document.body.classList.toggle("notebook-mode", open);
    toggle.setAttribute("aria-pressed", String(open));
    store?.setOpen(open);
  }
  toggle.addEventListener("click", () => {
    if (!view.hidden) return setMode(false);
    return cells.items.length ? setMode(true) : toolbar.galleryPick(GALLERY_NOTEBOOKS[0].file);
  });
  document.querySelector("main.panes").after(view);
  window.addEventListener("pagehide", () => { if (cells.items.length) save(); });

  return { openText, start: (params) => startNotebook(openText, store, note, params) };
}

/** Share: a link carrying the notebook's cells (not their outputs), or, when too long, the file. */
async function share(cells, metadata, toolbar, say) {
  const link = await notebookLink(notebookText(cells.map((c) => ({ ...c, outputs: [] })), metadata));
  if (link.tooLong) {
    say(`This notebook is too long for a link (${link.tooLong} characters): share the file instead.`);
    toolbar.offerFile();
    return;
  }
  try { await navigator.clipboard.writeText(link.url); } catch { /* selected for Ctrl+C */ }
  toolbar.showLink(link.url);
}

/** On page start: a notebook share link, ?notebook=, or the autosaved notebook if it was open. */
async function startNotebook(openText, store, note, params) {
  const linked = await notebookFromFragment(location.hash).catch((err) => {
    note(`Could not open the shared notebook: ${err.message}.`, "error");
    return null;
  });
  if (linked !== null) {
    history.replaceState(null, "", location.pathname + location.search);
    return openText(linked, "shared.ipynb");
  }
  if (params.has("notebook")) {
    const name = params.get("notebook");
    try {
      return openText(await fetchNotebook(name), name.split("/").pop());
    } catch (err) {
      note(`Could not open the notebook ${name}: ${err.message}.`, "error");
      return false;
    }
  }
  const saved = store?.load();
  return saved && store.wasOpen() ? openText(saved.code, saved.example ?? "notebook.ipynb") : false;
}
