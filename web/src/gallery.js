// The examples gallery: a disclosure in the header listing every example with its topic.
// EXAMPLES comes from web/examples/ (manifest.json + the .py files), bundled by web/build.mjs.
import EXAMPLES from "virtual:examples";
import { el } from "./dom.js";

export { EXAMPLES };

export function exampleById(id) {
  return EXAMPLES.find((e) => e.id === id) ?? null;
}

/** Fills the <details data-testid="examples"> element; onPick(example) when one is chosen. */
export function createGallery(details, onPick) {
  const panel = details.querySelector(".gallery-panel");
  const list = el("ol", { class: "gallery-list" });
  for (const ex of EXAMPLES) {
    const button = el("button", { type: "button", class: "gallery-item", "data-example": ex.id },
      el("span", { class: "gallery-title" }, ex.title),
      el("span", { class: "gallery-topic" }, ex.topic));
    button.addEventListener("click", () => {
      details.open = false;
      onPick(ex);
    });
    list.append(el("li", {}, button));
  }
  panel.append(list);
  details.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && details.open) {
      details.open = false;
      details.querySelector("summary").focus();
    }
  });
  // A click outside closes it, as a menu would.
  document.addEventListener("click", (ev) => {
    if (details.open && !details.contains(ev.target)) details.open = false;
  });
}
