// The legend: what each node shape and each colour means. Collapsible; the panel opens it when
// there is room (in a small embed it would cover the graph).

import { html } from "./dom.js";

const ENTRIES = [
  ["variable", "Variable"],
  ["watched", "watched tensor"],
  ["constant", "constant"],
  ["op", "recorded op"],
  ["tensor", "op output"],
  ["group", "layer / function"],
  ["current", "current step"],
  ["future", "not recorded yet"],
  ["flow", "gradient flowing back"],
  ["summed", "Σ sum at fan-out"],
  ["none", "None gradient"],
  ["pruned", "pruned / not on path"],
];

export function createLegend({ open = true } = {}) {
  const list = html("ul", { class: "tg-graph-legend-list" }, ENTRIES.map(([key, text]) =>
    html("li", {}, [html("span", { class: `tg-graph-swatch tg-graph-swatch-${key}`, "aria-hidden": "true" }), text])));
  list.hidden = !open;
  const toggle = html("button", { type: "button", class: "tg-graph-legend-toggle", "aria-expanded": String(open),
    "data-testid": "graph-legend-toggle" }, ["legend"]);
  const el = html("div", { class: "tg-graph-legend", "data-testid": "graph-legend" }, [toggle, list]);
  toggle.addEventListener("click", () => {
    list.hidden = !list.hidden;
    toggle.setAttribute("aria-expanded", String(!list.hidden));
  });
  return { el };
}
