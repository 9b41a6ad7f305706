// Pointing at the drawing: hovering a node with a mouse shows its details, clicking or tapping pins
// them (the background unpins), clicking a collapsed group opens it and clicking an open group's frame closes it.

import { callTitle, gradientsOfCall } from "./backward.js";

/**
 * @param {{stage, selection, onOpenGroup: (id) => void, onCloseGroup: (id) => void}} parts
 *        stage: createStage()'s result; selection: the panel's Selection
 */
export function createInspector({ stage, selection, onOpenGroup, onCloseGroup }) {
  const { svgEl, details, renderer, viewport } = stage;
  let pinned = null;     // node id whose details stay shown
  let hovered = null;

  function show(id) {
    const model = selection.model;
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
    const call = selection.call;
    details.show({ node, group, tapes: model.tapes, callTitle: call ? callTitle(call) : null,
      grad: call && node ? gradientsOfCall(call).get(id) : null });
  }

  function pin(id) {
    pinned = id;
    renderer.select(id);
    if (id == null) details.hide();
    else show(id);
  }

  // Hovering is for mice and pens: a finger touching a node to pan must not cover the drawing.
  const resting = restingPointer();
  svgEl.addEventListener("pointerover", (e) => {
    if (e.pointerType === "touch" || resting.at(e)) return;
    const target = e.target.closest("[data-node-id]");
    if (!target) return;
    hovered = target.dataset.nodeId;
    show(hovered);
  });
  svgEl.addEventListener("pointerout", (e) => {
    if (e.pointerType === "touch") return;
    const from = e.target.closest("[data-node-id]");
    const to = e.relatedTarget && e.relatedTarget.closest ? e.relatedTarget.closest("[data-node-id]") : null;
    if (!from || from === to) return;
    hovered = null;
    if (pinned) show(pinned);
    else details.hide();
  });
  svgEl.addEventListener("click", (e) => {
    if (viewport.takeDrag() || !selection.model) return;
    const nodeEl = e.target.closest("[data-node-id]");
    const frameEl = e.target.closest("[data-group-id]");
    if (nodeEl && nodeEl.dataset.kind === "group") onOpenGroup(nodeEl.dataset.nodeId);
    else if (nodeEl) pin(nodeEl.dataset.nodeId);
    else if (frameEl) onCloseGroup(frameEl.dataset.groupId);
    else pin(null);
  });

  return {
    /** Forgets the hovered and pinned nodes (a new graph, or none). */
    reset() {
      hovered = null;
      pin(null);
    },
    /** After a redraw: the hovered element may be gone, the pinned node may now be inside a box. */
    redrawn(view) {
      hovered = null;
      if (pinned && view.visibleOf(pinned) !== pinned) pinned = null;
      pin(pinned);
    },
    destroy: resting.destroy,
    pin,                       // (the keyboard's Enter: pins a node's details; null hides them)
    pinned: () => pinned,
    /** Shows the details again (the selected call or step changed what they say). */
    refresh() {
      const id = hovered ?? pinned;
      if (id != null && !details.el.hidden) show(id);
    },
  };
}

/**
 * Where the mouse or pen last moved, anywhere on the page: `at(e)` is true for an event at that
 * very point, as when a pan or zoom brings a node under a resting pointer (the browser reports it
 * entering without the pointer having moved: that shows no details).
 */
function restingPointer() {
  let rest = null;
  const moved = (e) => {
    if (e.pointerType !== "touch") rest = { x: e.clientX, y: e.clientY };
  };
  addEventListener("pointermove", moved, { capture: true, passive: true });
  return {
    at: (e) => !!rest && rest.x === e.clientX && rest.y === e.clientY,
    destroy: () => removeEventListener("pointermove", moved, { capture: true }),
  };
}
