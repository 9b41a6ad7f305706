// Development harness: loads ?doc=<file>.json (made by `python -m tapegrad graph script.py -o file.json`)
// into the graph panel. Bundled into a scratch folder by hand; never part of dist/.
import { createGraphPanel } from "../index.js";

const name = new URLSearchParams(location.search).get("doc") || "graph.json";
document.getElementById("name").textContent = name;
const lineEl = document.getElementById("line");
const panel = createGraphPanel(document.getElementById("graph"), {
  onHighlightLine: (line) => { lineEl.textContent = line === null ? "none" : String(line); },
});
window.graphPanel = panel;
fetch(name).then((r) => r.json()).then((doc) => panel.show(doc));
