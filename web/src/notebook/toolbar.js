// The notebook view's toolbar: the gallery's notebooks, Open (a file picker), Run all, Stop,
// Restart, Undo delete (while a deleted cell can come back), Save .ipynb, Share, Keys (the
// keyboard's help) and Script (back to the script editor); a line under it shows a share link,
// or offers the file when the notebook is too long for one.
import { el } from "../dom.js";

export function createToolbar({ gallery, keys, onGallery, onFile, onRunAll, onStop, onRestart, onUndo, onSave,
                                onShare, onClose }) {
  const button = (text, testid, title, onClick) => {
    const b = el("button", { type: "button", "data-testid": testid, title }, text);
    b.addEventListener("click", () => onClick());
    return b;
  };
  const pick = el("select", { "aria-label": "Example notebooks", "data-testid": "notebook-gallery" },
    el("option", { value: "" }, "Example notebooks…"),
    ...gallery.map((g) => el("option", { value: g.file }, g.title)));
  pick.addEventListener("change", () => {
    if (pick.value) onGallery(pick.value);
    pick.value = "";
  });
  const input = el("input", { type: "file", accept: ".ipynb,application/x-ipynb+json", hidden: true,
                              "data-testid": "notebook-file" });
  input.addEventListener("change", () => {
    if (input.files?.[0]) onFile(input.files[0]);
    input.value = "";
  });
  const undo = button("↶ Undo delete", "notebook-undo", "Bring back the last deleted cell (Z on a cell)", onUndo);
  undo.hidden = true;
  const help = el("details", { class: "nb-keys", "data-testid": "notebook-keys" },
    el("summary", { title: "Keyboard shortcuts" }, "Keys"),
    el("dl", {}, ...keys.flatMap(([key, what]) => [el("dt", {}, el("kbd", {}, key)), el("dd", {}, what)])));
  const linkRow = el("div", { class: "nb-link", hidden: true, "data-testid": "notebook-link" });
  const root = el("div", { class: "nb-toolbar", role: "toolbar", "aria-label": "Notebook" },
    pick,
    button("Open…", "notebook-open", "Open a .ipynb file (or drop one here)", () => input.click()),
    input,
    button("▶ Run all", "notebook-run-all", "Run every cell in order", onRunAll),
    button("■ Stop", "notebook-stop", "Stop the running cell", onStop),
    button("Restart", "notebook-restart", "Start a new Python session for the next cell", onRestart),
    undo,
    button("Save .ipynb", "notebook-save", "Download this notebook with its outputs", onSave),
    button("Share", "notebook-share", "A link that carries this notebook", onShare),
    help,
    button("Script", "notebook-close", "Back to the script editor", onClose),
    linkRow);
  return {
    root,
    galleryPick: (file) => onGallery(file),
    /** `count` deleted cells can come back: Undo delete shows while there is one. */
    setUndoable(count) {
      undo.hidden = count === 0;
    },
    showLink(url) {
      const field = el("input", { type: "text", readonly: true, value: url, "aria-label": "Share link",
                                  "data-testid": "notebook-link-url" });
      linkRow.replaceChildren("Link (copied when allowed): ", field);
      linkRow.hidden = false;
      field.select();
    },
    offerFile() {
      linkRow.replaceChildren("Too long for a link: ",
        button("Download the .ipynb", "notebook-offer-file", "Save the notebook to send it as a file", onSave));
      linkRow.hidden = false;
    },
  };
}
