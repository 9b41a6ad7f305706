// The notebook view's toolbar: the gallery's notebooks, Open (a file picker), Run all, Stop,
// Restart, Save .ipynb, Share, and Script (back to the script editor); a line under it shows
// a share link, or offers the file when the notebook is too long for one.
import { el } from "../dom.js";

export function createToolbar({ gallery, onGallery, onFile, onRunAll, onStop, onRestart, onSave, onShare, onClose }) {
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
  const linkRow = el("div", { class: "nb-link", hidden: true, "data-testid": "notebook-link" });
  const root = el("div", { class: "nb-toolbar", role: "toolbar", "aria-label": "Notebook" },
    pick,
    button("Open…", "notebook-open", "Open a .ipynb file (or drop one here)", () => input.click()),
    input,
    button("▶ Run all", "notebook-run-all", "Run every cell in order", onRunAll),
    button("■ Stop", "notebook-stop", "Stop the running cell", onStop),
    button("Restart", "notebook-restart", "Start a new Python session for the next cell", onRestart),
    button("Save .ipynb", "notebook-save", "Download this notebook with its outputs", onSave),
    button("Share", "notebook-share", "A link that carries this notebook", onShare),
    button("Script", "notebook-close", "Back to the script editor", onClose),
    linkRow);
  return {
    root,
    galleryPick: (file) => onGallery(file),
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
