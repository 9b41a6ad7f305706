// The drawing with the keyboard: Tab reaches one node of the graph (one tab stop for the whole
// drawing), the arrow keys move to a neighbour (Right and Left along the edges, forward and back;
// Up and Down to the nearest node above or below), Enter shows the node's details (Enter again on a
// collapsed group opens it) and Escape hides them. The node with the keyboard is kept in view.

/**
 * @param {{stage, selection, inspector, onOpenGroup: (id) => void}} parts  stage: createStage()'s
 *        result; selection: the panel's Selection; inspector: createInspector()'s (pin, pinned)
 */
export function createKeyboard({ stage, selection, inspector, onOpenGroup }) {
  const { svgEl, renderer, viewport } = stage;
  let current = null;     // visible id of the item that has the tab stop

  function elOf(id) {
    return id == null ? null : svgEl.querySelector(`.tg-graph-node[data-node-id="${CSS.escape(id)}"]`);
  }

  /** Gives the tab stop to `id` (focusing it when `focus`). Only that node is focusable: a finger
   * or a mouse pressing another one to pan does not move the focus (nor scroll the page to it). */
  function moveTo(id, focus) {
    const old = elOf(current);
    if (old) for (const a of ["tabindex", "role", "aria-label"]) old.removeAttribute(a);
    current = id;
    const el = elOf(id);
    if (!el) return;
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");        // named by its texts; a bare dot by its kind
    if (!el.textContent.trim()) el.setAttribute("aria-label", `${el.dataset.kind} ${id}`);
    if (focus) {
      el.focus({ preventScroll: true });
      const it = renderer.item(id);
      if (it) viewport.reveal(it.x, it.y);
    }
  }

  svgEl.addEventListener("keydown", (e) => {
    const el = e.target.closest && e.target.closest(".tg-graph-node");
    const view = renderer.view;
    if (!el || !view || e.altKey || e.ctrlKey || e.metaKey) return;
    const id = el.dataset.nodeId;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      if (el.dataset.kind === "group" && inspector.pinned() === id) onOpenGroup(id);
      else inspector.pin(id);
      return;
    }
    if (e.key === "Escape" && inspector.pinned() != null) {
      e.preventDefault();
      inspector.pin(null);
      return;
    }
    const next = neighbour(view, id, e.key);
    if (next === undefined) return;
    e.preventDefault();
    if (next !== null) moveTo(next, true);
  });
  // pressing the node that has the tab stop does not focus it either (the keyboard does)
  svgEl.addEventListener("pointerdown", (e) => {
    if (e.target.closest && e.target.closest(".tg-graph-node[tabindex]")) e.preventDefault();
  });
  svgEl.addEventListener("focusin", (e) => {
    const el = e.target.closest && e.target.closest(".tg-graph-node");
    if (el && el.dataset.nodeId !== current) moveTo(el.dataset.nodeId, false);
  });

  return {
    /** After a redraw: the tab stop stays on its node (or on what now shows it), else the first
     * node of the forward pass; the focus follows when it was in the drawing. */
    redrawn(view, hadFocus) {
      const shown = current == null ? undefined : (view.visibleOf(current) ?? current);
      const keep = view.items.find((it) => it.id === shown)
        ?? firstItem(view.items.filter((it) => insideGroup(selection.model, it, current)));
      current = null;
      const first = keep ?? firstItem(view.items);
      moveTo(first ? first.id : null, hadFocus);
    },
    /** Whether the keyboard's focus is on a node of the drawing (checked before a redraw replaces
     * them; a node clicked with the mouse has the focus too, but not a visible one). */
    hasFocus() {
      const el = document.activeElement;
      return !!el && el !== svgEl && svgEl.contains(el) && el.matches(":focus-visible");
    },
  };
}

/** Whether a drawn item lies inside the group `gid` (the group just opened). */
function insideGroup(model, it, gid) {
  if (!model || gid == null || !model.groups.has(gid)) return false;
  if (it.node) return model.chainOf(it.id).includes(gid);
  for (let g = it.group.parent; g != null; g = model.groups.get(g).parent) if (g === gid) return true;
  return false;
}

/** The leftmost item, the topmost of those. */
function firstItem(items) {
  let best = null;
  for (const it of items) if (!best || it.x < best.x || (it.x === best.x && it.y < best.y)) best = it;
  return best;
}

const KEYS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

/**
 * The item an arrow key moves to from `id`: Right the nearest item its edges lead to, Left the
 * nearest that leads to it (else, for both, the nearest item on that side); Up and Down the
 * nearest item on that side. null: none that way; undefined: not an arrow key.
 */
export function neighbour(view, id, key) {
  const dir = KEYS[key];
  if (!dir) return undefined;
  const byId = new Map(view.items.map((it) => [it.id, it]));
  const from = byId.get(id);
  if (!from) return null;
  const [dx, dy] = dir;
  let candidates = [];
  if (dx !== 0) {
    for (const e of view.edges) {
      const other = dx > 0 ? (e.source === id ? e.target : null) : (e.target === id ? e.source : null);
      if (other != null && byId.has(other)) candidates.push(byId.get(other));
    }
  }
  if (!candidates.length) {
    candidates = view.items.filter((it) => it !== from
      && (dx !== 0 ? Math.sign(it.x - from.x) === dx : Math.sign(it.y - from.y) === dy));
  }
  // nearest along the key's direction, with the distance across it counting three times as much
  const cost = (it) => (dx !== 0 ? Math.abs(it.x - from.x) + 3 * Math.abs(it.y - from.y)
    : Math.abs(it.y - from.y) + 3 * Math.abs(it.x - from.x));
  let best = null;
  for (const it of candidates) if (!best || cost(it) < cost(best)) best = it;
  return best ? best.id : null;
}
