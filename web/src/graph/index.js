// The graph panel: the captured tapes drawn from the engine's JSON (docs/graph-json.md), with a
// forward timeline, a backward animation, node details, tape/call selection and collapsible groups.
//
//   const panel = createGraphPanel(rootEl, { onHighlightLine(line | null) { ... },
//                                            loadMembers(group, start) -> Promise (members.js) });
//   panel.show(doc);   // doc: the parsed JSON of tapegrad.graph.capture()'s cap.to_dict()
//   panel.clear();     // back to the empty state
//   panel.destroy();   // removes everything the panel added to rootEl
//
// Its parts: toolbar.js (selector, node count, zoom, group and save buttons), stage.js (the drawing,
// details and legend), functions.js (the "Tape | graph of f" bar of a run that traced
// tf.functions), timeline.js (the step control), selection.js (which tape, call and mode),
// player.js (a timeline position drawn as a step), inspector.js (hover and click on the drawing).

import "./graph.css";
import { html } from "./dom.js";
import { boxOfTape, buildModel, visibleGraph } from "./model.js";
import { download, drawingSvg, pngOf } from "./export.js";
import { createSelector } from "./selector.js";
import { createToolbar, nodeCount } from "./toolbar.js";
import { createStage } from "./stage.js";
import { createTimeline } from "./timeline.js";
import { Selection } from "./selection.js";
import { createPlayer } from "./player.js";
import { createInspector } from "./inspector.js";
import { createKeyboard } from "./keyboard.js";
import { createFunctionsBar } from "./functions.js";

let panels = 0;

const EMPTY_VIEW = { items: [], edges: [], frames: [], box: {}, visibleOf: () => undefined,
  visibleEdgeOf: () => undefined };

export function createGraphPanel(rootEl, { onHighlightLine, loadMembers } = {}) {
  if (!rootEl || typeof rootEl.append !== "function") {
    throw new TypeError("createGraphPanel: rootEl must be a DOM element (the page's graph container)");
  }
  const highlight = typeof onHighlightLine === "function" ? onHighlightLine : () => {};
  const selection = new Selection();
  const actions = {};   // the parts' callbacks call these (panelActions), made once the parts exist
  const parts = createParts(rootEl, selection, highlight, actions, loadMembers);
  Object.assign(actions, panelActions(parts, selection));
  actions.clear();
  return {
    show(doc) {                 // (a run that traced tf.functions: the "Tape | graph of f" bar)
      parts.functions.set(doc);
      actions.show(doc);
    },
    clear() {
      parts.functions.set(null);
      actions.clear();
    },
    destroy() {
      parts.timeline.stop();
      parts.stage.destroy();
      parts.inspector.destroy();
      parts.panel.remove();
      selection.clear();
    },
  };
}

/** The panel's parts, its element appended to rootEl; their callbacks go to `actions`. */
function createParts(rootEl, selection, highlight, actions, loadMembers) {
  const selector = createSelector({ onTape: (index) => actions.selectTape(index),
    onCall: (index) => actions.selectCall(index) });
  const toolbar = createToolbar(selector.el, {
    onZoomIn: () => stage.viewport.zoomBy(1.25),
    onZoomOut: () => stage.viewport.zoomBy(0.8),
    onFit: () => selection.model && actions.fitToTape(),
    onToggleGroups: () => {
      if (!selection.model) return;
      selection.toggleAllGroups();
      actions.redraw(false);
    },
    onSave: (format) => actions.save(format),
  });
  const stage = createStage({ prefix: `tg-graph-${++panels}`, paneHeight: rootEl.clientHeight,
    compact: !!rootEl.closest(".embed"), onLine: highlight });
  const timeline = createTimeline({ onPosition: () => player.step(true),
    onMode: (mode) => actions.selectMode(mode), onLine: highlight });
  const functions = createFunctionsBar({ onView: (doc) => actions.show(doc) });
  const panel = html("div", { class: "tg-graph", "data-testid": "graph-panel" },
    [functions.el, toolbar.el, stage.el, timeline.el]);
  rootEl.append(panel);

  const openGroup = (id) => {
    const group = selection.model.groups.get(id);
    if (group?.fixed) {     // a big tape's box has no inside drawn: its members are listed
      if (selection.model.doc.boxes && loadMembers) listMembers(group);
      return;
    }
    selection.collapsed.delete(id);
    actions.redraw(false);
  };
  const inspector = createInspector({
    stage,
    selection,
    onOpenGroup: openGroup,
    onCloseGroup(id) {
      selection.collapsed.add(id);
      actions.redraw(false);
    },
  });
  const keyboard = createKeyboard({ stage, selection, inspector, onOpenGroup: openGroup });
  /** Lists a box's members in its details, asking the worker for the next page of them. */
  function listMembers(group, more = false) {
    const model = selection.model;
    const start = more && group.loaded ? group.loaded.members.length : 0;
    if (!more && group.loaded) return inspector.pin(group.id);
    group.loaded = { ...(group.loaded ?? { total: null, members: [] }), loading: true };
    inspector.pin(group.id);
    loadMembers(group.id, start).then((got) => {
      if (selection.model !== model) return;
      group.loaded = { total: got.total, members: [...(more ? group.loaded.members : []), ...got.members],
        loading: false };
      if (inspector.pinned() === group.id) inspector.pin(group.id);
    });
  }
  stage.details.onMore((id) => {
    const group = selection.model?.groups.get(id);
    if (group) listMembers(group, true);
  });
  const player = createPlayer({ selection, stage, timeline, panelEl: panel, highlight,
    afterStep: () => inspector.refresh() });
  return { selector, toolbar, stage, timeline, panel, inspector, keyboard, player, functions };
}

/** What the panel does: show a document, clear, select a tape, call or mode, redraw, fit. */
function panelActions({ selector, toolbar, stage, timeline, panel, inspector, keyboard, player }, selection) {
  /** Draws the graph with the current groups collapsed; `fit`: then fits the selected tape. */
  function redraw(fit) {
    const view = visibleGraph(selection.model, selection.collapsed);
    const hadFocus = keyboard.hasFocus();
    stage.renderer.draw(view);
    inspector.redrawn(view);
    keyboard.redrawn(view, hadFocus);
    player.step(false);
    if (fit) fitToTape();
    const fixed = [...selection.model.groups.values()].filter((g) => g.fixed).length;
    toolbar.showGroups(selection.model.groups.size - fixed, selection.collapsed.size > fixed);
  }

  function fitToTape() {
    const { model, tape } = selection;
    const view = stage.renderer.view;
    stage.viewport.fit(model.tapes.length > 1 ? boxOfTape(model, view, tape) : view.box);
  }

  function showSelection() {
    selector.set(selection.model.tapes, selection.tape, selection.callIndex);
    player.rewind();
  }

  function selectTape(index) {
    selection.selectTape(index);
    showSelection();
    fitToTape();
    player.step(true);
  }

  function selectCall(index) {
    selection.selectCall(index);
    showSelection();
    player.step(true);
  }

  function selectMode(mode) {
    if (!selection.selectMode(mode)) return;
    player.rewind();
    player.step(true);
  }

  function clear() {
    selection.clear();
    inspector.reset();
    stage.renderer.draw(EMPTY_VIEW);
    selector.set([], 0, -1);
    timeline.reset({ mode: "forward", length: 0, position: 0, backwardEnabled: false });
    timeline.setCaption("");
    timeline.setWhy([]);
    toolbar.showNodeCount(null);
    toolbar.showGroups(0, false);
    toolbar.showSave(false);
    stage.setEmpty(true);
    panel.dataset.nodeCount = "0";
  }

  // (after a big tape's preview, its whole document draws the same boxes: the view is kept)
  function show(doc) {
    const started = performance.now();
    const model = buildModel(doc);     // throws, naming the problem, before anything changes
    const afterPreview = !!selection.model?.doc.preview && !model.doc.preview;
    selection.load(model);
    inspector.reset();
    showSelection();
    const count = nodeCount(model.doc);
    stage.setEmpty(count === 0);
    toolbar.showNodeCount(model.doc);
    toolbar.showSave(count > 0);
    panel.dataset.nodeCount = String(count);
    panel.dataset.preview = model.doc.preview ? "true" : "";
    redraw(!afterPreview);
    panel.dataset.renderMs = (performance.now() - started).toFixed(1);
  }

  return { redraw, fitToTape, selectTape, selectCall, selectMode, clear, show,
    save: (format) => saveDrawing(stage, selection, format) };
}

/** Saves the drawing as it is now: "svg" or "png". */
async function saveDrawing(stage, selection, format) {
  const view = stage.renderer.view;
  if (!selection.model || !view || !view.items.length) return;
  const drawing = drawingSvg(stage.svgEl, view.box);
  const blob = format === "png" ? await pngOf(drawing)
    : new Blob([drawing.text], { type: "image/svg+xml" });
  download(`tapegrad-graph.${format}`, blob);
}
