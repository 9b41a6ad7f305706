// Getting a notebook in and out of the page: ?notebook=<file beside the page>, the file picker,
// drag and drop, Save (a download of the .ipynb), autosave in this browser, and share links
// (#nb=1&z=...: the notebook's cells in the URL fragment, when short enough for a link).
import { decodeFragment, encodeFragment } from "../share.js";
import { createStore } from "../storage.js";

/** Links longer than this are refused (browsers, chat apps and mail cut long URLs). */
export const LINK_LIMIT = 16000;

/** The gallery's notebooks (web/examples/notebooks/, copied to dist/notebooks/ by web/build.mjs). */
export const GALLERY_NOTEBOOKS = [
  { file: "notebooks/autodiff_basics.ipynb", title: "Autodiff, cell by cell" },
  { file: "notebooks/tape_in_depth.ipynb", title: "The tape in depth" },
];

export async function fetchNotebook(name) {
  const url = new URL(name, location.href);
  if (url.origin !== location.origin) throw new Error("only a notebook served beside the page can be opened");
  const resp = await fetch(url);
  if (!resp.ok) throw new Error(`${name}: HTTP ${resp.status}`);
  return resp.text();
}

export function isNotebookFragment(hash) {
  return new URLSearchParams(hash.replace(/^#/, "")).get("nb") === "1";
}

/** The notebook's text in a share link's fragment, or null when the fragment holds none. */
export async function notebookFromFragment(hash) {
  return isNotebookFragment(hash) ? decodeFragment(hash) : null;
}

/** {url} of a link carrying `text`, or {tooLong: length} when it would be longer than LINK_LIMIT. */
export async function notebookLink(text) {
  const url = location.origin + location.pathname + "#nb=1&" + (await encodeFragment(text)).slice(1);
  return url.length > LINK_LIMIT ? { tooLong: url.length } : { url };
}

export function downloadText(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/x-ipynb+json" }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** Calls onFile(file) for an .ipynb dropped on `target`. */
export function acceptDrops(target, onFile) {
  target.addEventListener("dragover", (ev) => {
    if ([...(ev.dataTransfer?.types ?? [])].includes("Files")) {
      ev.preventDefault();
      target.classList.add("nb-drop");
    }
  });
  target.addEventListener("dragleave", () => target.classList.remove("nb-drop"));
  target.addEventListener("drop", (ev) => {
    target.classList.remove("nb-drop");
    const file = ev.dataTransfer?.files?.[0];
    if (!file) return;
    ev.preventDefault();
    onFile(file);
  });
}

/** The autosaved notebook ({code: its .ipynb text, example: its name}) and whether it was open. */
export function notebookStore() {
  const notebook = createStore("notebook");
  const mode = createStore("notebook-mode");
  return {
    load: () => notebook.load(),
    save: (text, name) => notebook.save(text, name),
    wasOpen: () => mode.load()?.code === "1",
    setOpen: (open) => mode.save(open ? "1" : "0", null),
  };
}
