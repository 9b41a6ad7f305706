// The strip above the drawing: which tape and call are shown (the selector), how many nodes the
// graph has, and the buttons that open/close groups, zoom, fit and save the drawing (SVG, PNG).

import { html, setText } from "./dom.js";

function button(testid, text, title) {
  return html("button", { type: "button", "data-testid": testid, title, "aria-label": title }, [text]);
}

/** How many nodes the graph has (a preview's are not all in it: the whole document's count). */
export function nodeCount(doc) {
  return (doc.preview || doc.boxes) && doc.summarized ? doc.summarized.nodes : doc.nodes.length;
}

/** {text, title}: "7 nodes", or "1000 of 1203 nodes" with how a summarized graph was folded. */
export function nodeCountText(doc) {
  const s = doc.summarized;
  const n = nodeCount(doc);
  const base = `${n} node${n === 1 ? "" : "s"}`;
  if (s && s.boxes) {
    return { text: `${base} in ${s.boxes} box${s.boxes === 1 ? "" : "es"}`,
      title: "a big tape: its ops are folded into boxes by group and source line" };
  }
  if (!(s && s.folded_repeats)) return { text: base, title: "" };
  return { text: `${n} of ${s.original_nodes} nodes`,
    title: `summarized from ${s.original_nodes} nodes: ${s.folded_repeats} repeated ops folded into ×n nodes` };
}

/**
 * @param {HTMLElement} selectorEl  the tape/call selector (selector.js)
 * @param {{onZoomIn, onZoomOut, onFit, onToggleGroups, onSave}} actions  onSave("svg" | "png")
 */
export function createToolbar(selectorEl, { onZoomIn, onZoomOut, onFit, onToggleGroups, onSave }) {
  const zoomOut = button("graph-zoom-out", "−", "zoom out");
  const zoomIn = button("graph-zoom-in", "+", "zoom in");
  const fit = button("graph-fit", "fit", "fit the graph to the view");
  const groups = button("graph-groups", "open groups", "open or close every layer and function group");
  const saveSvg = button("graph-save-svg", "SVG", "save the graph as drawn now as an SVG file");
  const savePng = button("graph-save-png", "PNG", "save the graph as drawn now as a PNG image");
  const info = html("span", { class: "tg-graph-info", "data-testid": "graph-info" });
  const el = html("div", { class: "tg-graph-toolbar" }, [selectorEl, info,
    html("span", { class: "tg-graph-tools" }, [groups, zoomOut, zoomIn, fit, saveSvg, savePng])]);
  saveSvg.addEventListener("click", () => onSave("svg"));
  savePng.addEventListener("click", () => onSave("png"));
  zoomIn.addEventListener("click", onZoomIn);
  zoomOut.addEventListener("click", onZoomOut);
  fit.addEventListener("click", onFit);
  groups.addEventListener("click", onToggleGroups);

  return {
    el,
    /** The save buttons work only with something drawn. */
    showSave(enabled) {
      saveSvg.disabled = savePng.disabled = !enabled;
    },
    showNodeCount(doc) {
      const { text, title } = doc ? nodeCountText(doc) : { text: "", title: "" };
      setText(info, text);
      info.title = title;
    },
    /** The groups button: hidden without groups; says what a click will do. */
    showGroups(groupCount, anyCollapsed) {
      groups.hidden = groupCount === 0;
      const text = anyCollapsed ? "open groups" : "close groups";
      setText(groups, text);
      groups.setAttribute("aria-label", `${text}: every layer and function group`);   // says what it shows
    },
  };
}
