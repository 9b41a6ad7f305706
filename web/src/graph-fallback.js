// Stand-in for the graph panel (web/src/graph/index.js) while that module is absent: web/build.mjs
// bundles this file in its place. It lists the recorded nodes by kind, one element per node with
// data-node-id and data-kind, so the page and its tests work before the real panel lands.
import { el } from "./dom.js";

export function createGraphPanel(root) {
  const box = el("div", { class: "graph-fallback" });
  root.append(box);
  const clear = () => box.replaceChildren(el("p", { class: "empty" }, "Run code to see its tape."));
  clear();
  return {
    clear,
    show(doc) {
      box.replaceChildren();
      if (!doc.nodes.length) {
        box.append(el("p", { class: "empty" }, "No tape was recorded."));
        return;
      }
      box.append(el("p", {}, `${doc.tapes.length} tape(s), ${doc.nodes.length} nodes, ${doc.edges.length} edges`));
      const list = el("ul", {});
      for (const n of doc.nodes) {
        list.append(el("li", { "data-node-id": n.id, "data-kind": n.kind }, `${n.kind}: ${n.label ?? n.id}`));
      }
      box.append(list);
    },
  };
}
