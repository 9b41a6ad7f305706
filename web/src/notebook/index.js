// Notebook mode: a second view of the playground beside the script editor. A .ipynb (the gallery's,
// ?notebook=, the file picker, drag and drop, a share link, the autosaved one) shows as cells:
// Markdown rendered, code cells editable and run one by one (Shift+Enter) or all, in one Python
// session (the worker keeps the cells' namespace: playground_runtime/session.py) until Restart.
// Save downloads it as .ipynb with the outputs.
import "../../styles/notebook.css";
import { el } from "../dom.js";
import { codeCell, markdownCell } from "./cell.js";
import { notebookText, parseNotebook } from "./ipynb.js";
import { GALLERY_NOTEBOOKS, acceptDrops, downloadText, fetchNotebook, notebookFromFragment,
         notebookLink, notebookStore } from "./files.js";
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
  let state = { name: "notebook.ipynb", metadata: {}, cells: [] };
  let count = 0;
  let fresh = true;          // the next cell starts a new Python namespace
  let runningAll = false;
  let saveTimer = 0;

  const say = (text) => { status.textContent = text; };
  const changed = () => {
    if (!store) return;
    clearTimeout(saveTimer);
    saveTimer = setTimeout(save, 300);
  };
  const save = () => store?.save(notebookText(state.cells, state.metadata), state.name);

  async function runCell(item) {
    if (item.cell.type !== "code") return item.run();
    count += 1;
    const how = fresh ? "fresh" : "keep";
    fresh = false;
    const result = await item.run(runner, how, count);
    if (result.restarted || result.failed) fresh = true;
    return result;
  }
  function onRunKey(item) {
    const items = cellItems();
    const next = items[items.indexOf(item) + 1];
    runCell(item);
    next?.focus();
  }
  let items = [];
  const cellItems = () => items;

  function show({ cells, metadata }, name) {
    state = { name, metadata, cells };
    items = cells.map((c) => (c.type === "code" ? codeCell : markdownCell)(c, { onRunKey, onChange: changed }));
    list.replaceChildren(...items.map((i) => i.root));
    fresh = true;
    count = 0;
    view.dataset.name = name;
    say(`${name}: ${cells.length} cells. Shift+Enter runs a cell, Run all runs them in order.`);
  }

  /** Opens the .ipynb `text` (named `name`) in the view; false (with a note) when it is not one. */
  function openText(text, name) {
    try {
      show(parseNotebook(text), name);
    } catch (err) {
      note(`Could not open ${name}: ${err.message}.`, "error");
      return false;
    }
    setMode(true);
    save();
    return true;
  }

  async function runAll() {
    if (runningAll) return;
    runningAll = true;
    view.dataset.running = "all";
    try {
      for (const item of items) {
        const result = await runCell(item);
        if (result && !result.ok) break;    // an error or Stop ends Run all
      }
    } finally {
      runningAll = false;
      delete view.dataset.running;
      view.dataset.runs = String(Number(view.dataset.runs ?? 0) + 1);
    }
  }

  async function share() {
    const link = await notebookLink(notebookText(state.cells.map((c) => ({ ...c, outputs: [] })), state.metadata));
    if (link.tooLong) {
      say(`This notebook is too long for a link (${link.tooLong} characters): share the file instead.`);
      toolbar.offerFile();
      return null;
    }
    try { await navigator.clipboard.writeText(link.url); } catch { /* shown below to copy */ }
    toolbar.showLink(link.url);
    return link.url;
  }

  const toolbar = createToolbar({
    gallery: GALLERY_NOTEBOOKS,
    onGallery: async (file) => openText(await fetchNotebook(file), file.split("/").pop()),
    onFile: (file) => openFile(file),
    onRunAll: () => runAll(),
    onStop: () => stop(),
    onRestart: () => { fresh = true; count = 0; say("Restarted: the next cell runs in a new Python session."); },
    onSave: () => downloadText(state.name, notebookText(state.cells, state.metadata)),
    onShare: () => share(),
    onClose: () => setMode(false),
  });
  view.append(toolbar.root, status, list);
  acceptDrops(view, (file) => openFile(file));

  async function openFile(file) {
    openText(await file.text(), file.name);
  }

  function setMode(open) {
    view.hidden = !open;
    document.body.classList.toggle("notebook-mode", open);
    toggle.setAttribute("aria-pressed", String(open));
    store?.setOpen(open);
  }

  toggle.addEventListener("click", () => {
    if (!view.hidden) return setMode(false);
    if (!state.cells.length) return toolbar.galleryPick(GALLERY_NOTEBOOKS[0].file);
    return setMode(true);
  });
  document.querySelector("main.panes").after(view);
  window.addEventListener("pagehide", () => { if (state.cells.length) save(); });

  return {
    openText,
    runAll,
    /** On page start: ?notebook=, a notebook share link, or the autosaved notebook if it was open. */
    async start(params) {
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
      if (saved && store.wasOpen()) return openText(saved.code, saved.example ?? "notebook.ipynb");
      return false;
    },
  };
}
