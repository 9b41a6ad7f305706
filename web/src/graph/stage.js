// The drawing area: the SVG with its renderer and pan/zoom viewport, the empty-state message, the
// node details box and the legend laid over it.

import { html, svg } from "./dom.js";
import { createDetails } from "./details.js";
import { createLegend } from "./legend.js";
import { createRenderer } from "./render.js";
import { createViewport } from "./viewport.js";

// A graph pane shorter than this (an embed, a docs page) starts with the legend folded.
const LEGEND_OPEN_MIN_HEIGHT = 420;
// On small and touch screens a fitted graph keeps its labels at full size (12 px, at least the
// 11 px a phone needs to be readable): the user pans to the rest, or pinches out for an overview.
// (The compact ?embed=1 layout, an iframe in a desktop page, fits as on a desktop: compact=true.)
const SMALL = "(max-width: 820px)";
// Elsewhere a fit zooms out no further than this: the names in the boxes stay drawn (render.js's
// level of detail draws them at a readable size down to a zoom of 0.38); a bigger graph shows its
// start and the user pans, or zooms out for its outline.
const DESKTOP_MIN_FIT = 0.5;
const TOUCH = "(pointer: coarse)";
const MORE_AFTER_PX = 24;   // a graph reaching this far past an edge shows a "more" button there

function moreButton(side) {
  const b = html("button", { type: "button", class: `tg-graph-more tg-graph-more-${side}`,
    "data-testid": `graph-more-${side}`, "aria-label": `show more of the graph on the ${side}` },
  [side === "left" ? "◂ more" : "more ▸"]);
  b.hidden = true;
  return b;
}

/**
 * @param {{prefix: string, paneHeight: number, compact: boolean, onLine: (line: number) => void}} options
 *        prefix: unique per panel (marker ids); paneHeight: the container's height at creation;
 *        compact: the panel is in the playground's compact embed layout
 *        (0 when not laid out yet); onLine: a source-line button in the details was clicked
 */
export function createStage({ prefix, paneHeight, compact = false, onLine }) {
  const svgEl = svg("svg", { class: "tg-graph-svg", role: "group",
    "aria-label": "the recorded graph: Tab reaches its nodes, the arrow keys move between neighbours, Enter shows details" });
  const empty = html("div", { class: "tg-graph-empty", "data-testid": "graph-empty" },
    ["Nothing recorded yet. Run code that uses tf.GradientTape to see its tape here."]);
  const details = createDetails({ onLine });
  const media = (q) => (typeof matchMedia === "function" ? matchMedia(q).matches : false);
  const smallOrTouch = { get matches() { return media(TOUCH) || (!compact && media(SMALL)); } };
  const legend = createLegend({ open: !smallOrTouch.matches && (paneHeight === 0 || paneHeight >= LEGEND_OPEN_MIN_HEIGHT) });
  const more = { left: moreButton("left"), right: moreButton("right") };
  const el = html("div", { class: "tg-graph-stage" }, [svgEl, empty, details.el, legend.el, more.left, more.right]);

  const renderer = createRenderer(svgEl, prefix);
  // fitting leaves room for the legend overlay; its height is cached, so a fit forces no layout
  let legendHeight = 0;
  const legendSize = new ResizeObserver((entries) => {
    legendHeight = entries[entries.length - 1].borderBoxSize?.[0]?.blockSize ?? 0;
  });
  legendSize.observe(legend.el);
  const viewport = createViewport(svgEl, renderer.scene, { reserve: () => legendHeight + 6,
    minFitZoom: () => (smallOrTouch.matches ? 1 : DESKTOP_MIN_FIT) });
  // a graph wider than the pane at a readable zoom says so at the edge it runs past: "more ▸"
  // pans by most of the pane's width
  for (const side of ["left", "right"]) {
    more[side].addEventListener("click", () => viewport.panBy((side === "left" ? 0.8 : -0.8) * viewport.width, 0));
  }
  const showMore = () => {
    const past = viewport.overflow(renderer.view && renderer.view.items.length ? renderer.view.box : null);
    for (const side of ["left", "right"]) more[side].hidden = past[side] < MORE_AFTER_PX;
  };
  // the level of detail and the "more" buttons follow the transform the viewport writes (once
  // per animation frame)
  const zoomWatch = new MutationObserver(() => {
    renderer.zoomed(viewport.zoom);
    showMore();
  });
  zoomWatch.observe(renderer.scene, { attributes: true, attributeFilter: ["transform"] });

  return {
    el,
    svgEl,
    details,
    renderer,
    viewport,
    /** Shows or hides the "nothing recorded yet" message. */
    setEmpty(isEmpty) {
      empty.hidden = !isEmpty;
      if (isEmpty) more.left.hidden = more.right.hidden = true;
    },
    destroy() {
      zoomWatch.disconnect();
      viewport.destroy();
      legendSize.disconnect();
    },
  };
}
