// The plot panel: PNG figures sent by matplotlib in the worker. A figure sent again under the same
// key (plt.pause in a loop) replaces its image, which is how a live plot updates.
import { el } from "./dom.js";

export function createPlots(root) {
  const empty = el("p", { class: "empty" }, "Figures from matplotlib appear here (plt.show() or plt.pause()).");
  const list = el("div", { class: "plot-list" });
  root.append(empty, list);
  const images = new Map();

  return {
    show({ key, png }) {
      let img = images.get(key);
      if (!img) {
        img = el("img", { alt: `Figure ${images.size + 1}`, "data-key": key });
        images.set(key, img);
        list.append(img);
      }
      img.src = `data:image/png;base64,${png}`;
      empty.hidden = true;
    },
    clear() {
      images.clear();
      list.replaceChildren();
      empty.hidden = false;
    },
    get count() {
      return images.size;
    },
  };
}
