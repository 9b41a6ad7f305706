// The graph panel: the captured tapes drawn from the engine's JSON (docs/graph-json.md), with a
// forward timeline, a backward animation, node details, tape/call selection and collapsible groups.
//
//   const panel = createGraphPanel(rootEl, { onHighlightLine(line | null) { ... } });
//   panel.show(doc);   // doc: the parsed JSON of tapegrad.graph.capture()'s cap.to_dict()
//   panel.clear();     // back to the empty state
//   panel.destroy();   // removes everything the panel added to rootEl

import "./graph.css";
import { html, svg, setText } from "./dom.js";
import { boxOfTape, buildModel, initiallyCollapsed, visibleGraph } from "./model.js";
import { createRenderer } from "./render.js";
import { createViewport } from "./viewport.js";
import { createTimeline } from "./timeline.js";
import { createSelector } from "./selector.js";
import { createDetails } from "./details.js";
import { createLegend } from "./legend.js";
import { forwardLength, forwardState } from "./forward.js";
import { StepState } from "./state.js";
import { backwardLength, backwardState, callTitle, gradientsOfCall } from "./backward.js";

let panels = 0;

function button(testid, text, title) {
  return html("button", { type: "button", "data-testid": testid, title, "aria-label": title }, [text]);
}

export function createGraphPanel(rootEl, { onHighlightLine } = {}) {
  if (!rootEl || typeof rootEl.append !== "function") {
    throw new TypeError("createGraphPanel: rootEl must be a DOM element (the page's graph container)");
  }
  const highlight = typeof onHighlightLine === "function" ? onHighlightLine : () => {};
  const prefix = `tg-graph-${++panels}`;

  const selector = createSelector({ onTape: selectTape, onCall: selectCall });
  const zoomOut = button("graph-zoom-out", "−", "zoom out");
  const zoomIn = button("graph-zoom-in", "+", "zoom in");
  const fitButton = button("graph-fit", "fit", "fit the graph to the view");
  const groupsButton = button("graph-groups", "open groups", "open or close every layer and function group");
  const info = html("span", { class: "tg-graph-info", "data-testid": "graph-info" });
  const toolbar = html("div", { class: "tg-graph-toolbar" }, [selector.el, info,
    html("span", { class: "tg-graph-tools" }, [groupsButton, zoomOut, zoomIn, fitButton])]);
  const svgEl = svg("svg", { class: "tg-graph-svg", role: "img", "aria-label": "the recorded graph" });
  const empty = html("div", { class: "tg-graph-empty", "data-testid": "graph-empty" },
    ["Nothing recorded yet. Run code that uses tf.GradientTape to see its tape here."]);
  const details = createDetails({ onLine: (line) => highlight(line) });
  // A graph pane shorter than this (an embed, a docs page) starts with the legend folded.
  const legend = createLegend({ open: rootEl.clientHeight === 0 || rootEl.clientHeight >= 420 });
  const stage = html("div", { class: "tg-graph-stage" }, [svgEl, empty, details.el, legend.el]);
  const timeline = createTimeline({ onPosition: () => step(true), onMode: selectMode });
  const panel = html("div", { class: "tg-graph", "data-testid": "graph-panel" }, [toolbar, stage, timeline.el]);
  rootEl.append(panel);

  const renderer = createRenderer(svgEl, prefix);
  // fitting leaves room for the legend overlay; its height is cached, so a fit forces no layout
  let legendHeight = 0;
  const legendSize = new ResizeObserver((entries) => {
    legendHeight = entries[entries.length - 1].borderBoxSize?.[0]?.blockSize ?? 0;
  });
  legendSize.observe(legend.el);
  const viewport = createViewport(svgEl, renderer.scene, { reserve: () => legendHeight + 6 });

  let model = null;
  let collapsed = new Set();
  let ti = 0;            // selected tape
  let ci = -1;           // selected gradient call of that tape (-1: none)
  let mode = "forward";
  let pinned = null;     // node id whose details stay shown
  let hovered = null;

  const call = () => (model && ci >= 0 ? model.tapes[ti].gradients[ci] : null);
  const lengthOf = () => (mode === "backward" ? backwardLength(call()) : forwardLength(model, ti));

  function resetTimeline() {
    const n = model && model.tapes.length ? lengthOf() : 0;
    timeline.reset({ mode, length: n, position: n, backwardEnabled: !!call() });
    panel.dataset.mode = mode;
    panel.dataset.tape = String(ti);
    panel.dataset.call = String(ci);
  }

  function step(fromUser) {
    if (!model) return;
    if (model.tapes.length === 0) {
      renderer.apply(new StepState());
      return;
    }
    const p = timeline.position;
    const state = mode === "backward" ? backwardState(model, ti, call(), p) : forwardState(model, ti, p);
    renderer.apply(state);
    timeline.setCaption(state.caption);
    panel.dataset.position = String(p);
    if (fromUser) {
      highlight(state.line ?? null);
      if (state.focus) {
        const shown = renderer.item(renderer.view.visibleOf(state.focus));
        if (shown) viewport.reveal(shown.x, shown.y);
      }
    }
    refreshDetails();
  }

  function redraw(fit) {
    const view = visibleGraph(model, collapsed);
    renderer.draw(view);
    hovered = null;                       // the element under the pointer may be gone
    if (pinned && view.visibleOf(pinned) !== pinned) pinned = null;
    renderer.select(pinned);
    if (pinned) showDetails(pinned);
    else details.hide();
    step(false);
    if (fit) fitToTape();
    groupsButton.hidden = model.groups.size === 0;
    setText(groupsButton, collapsed.size ? "open groups" : "close groups");
  }

  function fitToTape() {
    viewport.fit(model.tapes.length > 1 ? boxOfTape(model, renderer.view, ti) : renderer.view.box);
  }

  function selectTape(index) {
    ti = index;
    ci = model.tapes[ti].gradients.length ? 0 : -1;
    mode = ci >= 0 ? mode : "forward";
    selector.set(model.tapes, ti, ci);
    resetTimeline();
    fitToTape();
    step(true);
  }

  function selectCall(index) {
    ci = index;
    mode = "backward";
    selector.set(model.tapes, ti, ci);
    resetTimeline();
    step(true);
  }

  function selectMode(m) {
    if (m === "backward" && !call()) return;
    mode = m;
    resetTimeline();
    step(true);
  }

  // -- details on hover and click -----------------------------------------------------------
  function showDetails(id) {
    if (!model || id == null) {
      details.hide();
      return;
    }
    const node = model.nodes.get(id);
    const group = node ? null : model.groups.get(id);
    if (!node && !group) {
      details.hide();
      return;
    }
    const c = call();
    details.show({ node, group, tapes: model.tapes, callTitle: c ? callTitle(c) : null,
      grad: c && node ? gradientsOfCall(c).get(id) : null });
  }

  function refreshDetails() {
    const id = hovered ?? pinned;
    if (id != null && !details.el.hidden) showDetails(id);
  }

  svgEl.addEventListener("pointerover", (e) => {
    const target = e.target.closest("[data-node-id]");
    if (!target) return;
    hovered = target.dataset.nodeId;
    showDetails(hovered);
  });
  svgEl.addEventListener("pointerout", (e) => {
    const from = e.target.closest("[data-node-id]");
    const to = e.relatedTarget && e.relatedTarget.closest ? e.relatedTarget.closest("[data-node-id]") : null;
    if (!from || from === to) return;
    hovered = null;
    if (pinned) showDetails(pinned);
    else details.hide();
  });
  svgEl.addEventListener("click", (e) => {
    if (viewport.takeDrag() || !model) return;
    const nodeEl = e.target.closest("[data-node-id]");
    const frameEl = e.target.closest("[data-group-id]");
    if (nodeEl && nodeEl.dataset.kind === "group") {
      collapsed.delete(nodeEl.dataset.nodeId);
      redraw(false);
    } else if (nodeEl) {
      pinned = nodeEl.dataset.nodeId;
      renderer.select(pinned);
      showDetails(pinned);
    } else if (frameEl) {
      collapsed.add(frameEl.dataset.groupId);
      redraw(false);
    } else {
      pinned = null;
      renderer.select(null);
      details.hide();
    }
  });

  zoomIn.addEventListener("click", () => viewport.zoomBy(1.25));
  zoomOut.addEventListener("click", () => viewport.zoomBy(0.8));
  fitButton.addEventListener("click", () => model && fitToTape());
  groupsButton.addEventListener("click", () => {
    if (!model) return;
    collapsed = collapsed.size ? new Set() : new Set(model.groups.keys());
    redraw(false);
  });

  function showSummary(doc) {
    const s = doc.summarized;
    const n = doc.nodes.length;
    const base = `${n} node${n === 1 ? "" : "s"}`;
    setText(info, s && s.folded_repeats
      ? `${base} (summarized from ${s.original_nodes}: ${s.folded_repeats} repeated ops folded into ×n nodes)` : base);
  }

  function clear() {
    model = null;
    pinned = hovered = null;
    renderer.select(null);
    renderer.draw({ items: [], edges: [], frames: [], box: {}, visibleOf: () => undefined, visibleEdgeOf: () => undefined });
    details.hide();
    selector.set([], 0, -1);
    timeline.reset({ mode: "forward", length: 0, position: 0, backwardEnabled: false });
    timeline.setCaption("");
    setText(info, "");
    groupsButton.hidden = true;
    empty.hidden = false;
    panel.dataset.nodeCount = "0";
  }

  function show(doc) {
    const started = performance.now();
    const m = buildModel(doc);     // throws, naming the problem, before anything changes
    model = m;
    pinned = hovered = null;
    renderer.select(null);
    details.hide();
    collapsed = initiallyCollapsed(model);
    const withCalls = model.tapes.findIndex((t) => t.gradients.length > 0);
    ti = withCalls >= 0 ? withCalls : 0;
    ci = withCalls >= 0 ? 0 : -1;
    mode = ci >= 0 ? "backward" : "forward";
    selector.set(model.tapes, ti, ci);
    resetTimeline();
    empty.hidden = model.nodes.size > 0;
    showSummary(doc);
    panel.dataset.nodeCount = String(model.nodes.size);
    redraw(true);
    panel.dataset.renderMs = (performance.now() - started).toFixed(1);
  }

  clear();
  return {
    show,
    clear,
    destroy() {
      timeline.stop();
      viewport.destroy();
      legendSize.disconnect();
      panel.remove();
      model = null;
    },
  };
}
