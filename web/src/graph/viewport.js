// Pan (drag with a mouse, pen or one finger), zoom (wheel, buttons, two-finger pinch) and fit for
// one SVG scene, all through pointer events. The transform is written once per animation frame;
// the SVG's size is read only when the browser reports a resize.

const MIN_ZOOM = 0.02;
const MAX_ZOOM = 4;
const READABLE_ZOOM = 0.9;
const DRAG_THRESHOLD = 4;   // pixels a pointer must move before a press becomes a drag
// A pane narrower than this (a phone held upright) fits the graph's width, zooming out as far as
// NARROW_MIN_FIT whatever minFitZoom asks: the whole step is in view, the names in its boxes still
// drawn readable (render.js's level of detail scales them from a zoom of 0.38), and one finger
// pans, two zoom. A graph wider still shows its start, as elsewhere.
const NARROW_PANE = 600;
const NARROW_MIN_FIT = 0.4;

/**
 * @param {{reserve?: () => number, minFitZoom?: () => number}} options  reserve: pixels to keep
 *        free below a fitted graph; minFitZoom: a fit never zooms out further (on small and touch
 *        screens the page asks for labels at their full size; the user can still pinch out),
 *        except in a pane narrower than NARROW_PANE, which fits the graph's width
 */
export function createViewport(svgEl, sceneEl, { reserve = () => 0, minFitZoom = () => 0 } = {}) {
  const view = createView(sceneEl);
  let pendingFit = null;     // bounds to fit once the SVG has a size

  const resize = new ResizeObserver((entries) => {
    const r = entries[entries.length - 1].contentRect;
    view.size = { w: r.width, h: r.height };
    if (pendingFit && view.size.w > 0 && view.size.h > 0) fit(pendingFit);
  });
  resize.observe(svgEl);

  /** Scales and centres the scene box `b` into the SVG, leaving `reserve()` pixels free below. */
  function fit(b) {
    if (!b || !Number.isFinite(b.x0)) return;
    if (!(view.size.w > 0 && view.size.h > 0)) {
      pendingFit = b;
      return;
    }
    pendingFit = null;
    view.set(fitted(view.size, b, reserve(), minFitZoom()));
  }

  /** Zooms by `factor` keeping the screen point (cx, cy) (default: the centre) in place. */
  function zoomBy(factor, cx = view.size.w / 2, cy = view.size.h / 2) {
    const { k, tx, ty } = view;
    const nk = clamp(k * factor);
    view.set({ k: nk, tx: cx - ((cx - tx) * nk) / k, ty: cy - ((cy - ty) * nk) / k });
  }

  const gestures = followGestures(svgEl, view, zoomBy);
  return {
    fit,
    zoomBy,
    reveal: (x, y, margin) => reveal(view, x, y, margin),
    /** Moves the scene by (dx, dy) screen pixels. */
    panBy: (dx, dy) => view.set({ tx: view.tx + dx, ty: view.ty + dy }),
    /** How far the scene box `b` reaches past the SVG's left and right edges, in pixels. */
    overflow(b) {
      if (!b || !Number.isFinite(b.x0) || !(view.size.w > 0)) return { left: 0, right: 0 };
      return { left: Math.max(0, -(b.x0 * view.k + view.tx)),
        right: Math.max(0, b.x1 * view.k + view.tx - view.size.w) };
    },
    get width() {
      return view.size.w;
    },
    /** True once after a drag, so that the click ending it does not select anything. */
    takeDrag: gestures.takeDrag,
    get zoom() {
      return view.k;
    },
    destroy() {
      resize.disconnect();
      view.cancel();
      gestures.destroy();
    },
  };
}

function clamp(z) {
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, z));
}

/** The scene's transform {k, tx, ty} and the SVG's size; `set` writes it once per animation frame. */
function createView(sceneEl) {
  let frame = 0;
  const view = {
    k: 1, tx: 0, ty: 0,
    size: { w: 0, h: 0 },
    set({ k = view.k, tx = view.tx, ty = view.ty }) {
      Object.assign(view, { k, tx, ty });
      if (!frame) frame = requestAnimationFrame(write);
    },
    cancel() {
      if (frame) cancelAnimationFrame(frame);
    },
  };
  function write() {
    frame = 0;
    sceneEl.setAttribute("transform",
      `translate(${view.tx.toFixed(2)},${view.ty.toFixed(2)}) scale(${view.k.toFixed(5)})`);
  }
  return view;
}

/** The transform that fits box `b` into `size`, with `below` pixels kept free under it. */
function fitted(size, b, below, minFitZoom) {
  const pad = size.w < NARROW_PANE ? 12 : 24;
  const minZoom = size.w < NARROW_PANE ? Math.min(minFitZoom, NARROW_MIN_FIT) : minFitZoom;
  const w = size.w - 2 * pad;
  const h = Math.max(40, size.h - 2 * pad - Math.min(size.h / 3, below));
  const bw = Math.max(1, b.x1 - b.x0);
  const bh = Math.max(1, b.y1 - b.y0);
  const k = clamp(Math.max(Math.min(w / bw, h / bh, 1.4), minZoom));
  // centred along each axis where it fits; else its start (left, top) is what shows
  return { k, tx: pad + (bw * k <= w ? (w - bw * k) / 2 : 0) - b.x0 * k,
           ty: pad + (bh * k <= h ? (h - bh * k) / 2 : 0) - b.y0 * k };
}

/**
 * Pans so that the scene point (x, y) is visible, centring it if it is off screen; when labels
 * are too small to read at the current zoom, zooms in to READABLE_ZOOM around it.
 */
function reveal(view, x, y, margin = 60) {
  const { size } = view;
  if (view.k < READABLE_ZOOM / 2) {
    view.set({ k: READABLE_ZOOM, tx: size.w / 2 - x * READABLE_ZOOM, ty: size.h / 2 - y * READABLE_ZOOM });
    return;
  }
  const sx = x * view.k + view.tx;
  const sy = y * view.k + view.ty;
  if (sx >= margin && sx <= size.w - margin && sy >= margin && sy <= size.h - margin) return;
  view.set({ tx: size.w / 2 - x * view.k, ty: size.h / 2 - y * view.k });
}

/** Wheel zoom, drag to pan, two-finger pinch: returns {takeDrag, destroy}. */
function followGestures(svgEl, view, zoomBy) {
  const g = {
    press: null,             // {x, y, tx, ty, id, dragging}: one pointer down
    pinch: null,             // {dist, cx, cy, k, tx, ty}: two pointers down, at their start
    pointers: new Map(),     // pointer id -> {x, y} (client coordinates) of the pointers down
    dragged: false,          // the last press was a drag: the click that follows is not a click
  };
  const listeners = {
    wheel(e) {
      e.preventDefault();
      const r = svgEl.getBoundingClientRect();
      const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? view.size.h : 1;
      zoomBy(Math.exp(-e.deltaY * unit * 0.0015), e.clientX - r.left, e.clientY - r.top);
    },
    pointerdown: (e) => pointerDown(g, view, svgEl, e),
    pointermove: (e) => pointerMove(g, view, svgEl, e),
    pointerup: (e) => pointerUp(g, view, svgEl, e),
    pointercancel: (e) => pointerUp(g, view, svgEl, e),
  };
  for (const [type, fn] of Object.entries(listeners)) {
    svgEl.addEventListener(type, fn, type === "wheel" ? { passive: false } : undefined);
  }
  return {
    takeDrag() {
      const d = g.dragged;
      g.dragged = false;
      return d;
    },
    destroy() {
      for (const [type, fn] of Object.entries(listeners)) svgEl.removeEventListener(type, fn);
    },
  };
}

function pointerDown(g, view, svgEl, e) {
  if (e.pointerType === "mouse" && e.button !== 0) return;
  g.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
  if (g.pointers.size === 2) {
    const [a, b] = [...g.pointers.values()];
    const c = local(svgEl, (a.x + b.x) / 2, (a.y + b.y) / 2);
    g.pinch = { dist: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)), cx: c.x, cy: c.y,
                k: view.k, tx: view.tx, ty: view.ty };
    g.press = null;
    g.dragged = true;           // the fingers lifting after a pinch make no click
    return;
  }
  if (g.pointers.size > 2) return;
  g.press = { x: e.clientX, y: e.clientY, tx: view.tx, ty: view.ty, id: e.pointerId, dragging: false };
  g.dragged = false;
}

function pointerMove(g, view, svgEl, e) {
  if (g.pointers.has(e.pointerId)) g.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
  if (g.pinch) {
    if (g.pointers.size >= 2) movePinch(g, view, svgEl);
    return;
  }
  const press = g.press;
  if (!press || e.pointerId !== press.id) return;
  const dx = e.clientX - press.x;
  const dy = e.clientY - press.y;
  if (!press.dragging && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
  if (!press.dragging) {
    press.dragging = true;
    svgEl.setPointerCapture(e.pointerId);
    svgEl.classList.add("tg-graph-dragging");
  }
  view.set({ tx: press.tx + dx, ty: press.ty + dy });
}

/** Two fingers: the scene point under their first midpoint follows the midpoint, scaled by their spread. */
function movePinch(g, view, svgEl) {
  const [a, b] = [...g.pointers.values()];
  const { pinch } = g;
  const c = local(svgEl, (a.x + b.x) / 2, (a.y + b.y) / 2);
  const nk = clamp(pinch.k * (Math.hypot(a.x - b.x, a.y - b.y) / pinch.dist));
  const sx = (pinch.cx - pinch.tx) / pinch.k;
  const sy = (pinch.cy - pinch.ty) / pinch.k;
  view.set({ k: nk, tx: c.x - sx * nk, ty: c.y - sy * nk });
}

function pointerUp(g, view, svgEl, e) {
  g.pointers.delete(e.pointerId);
  if (g.pinch) {
    if (g.pointers.size < 2) {
      g.pinch = null;
      // the finger still down goes on panning from where it is
      const [id, p] = [...g.pointers.entries()][0] ?? [];
      g.press = id === undefined ? null : { x: p.x, y: p.y, tx: view.tx, ty: view.ty, id, dragging: true };
    }
    return;
  }
  const press = g.press;
  if (!press || e.pointerId !== press.id) return;
  g.dragged = press.dragging;
  if (press.dragging && svgEl.hasPointerCapture(e.pointerId)) svgEl.releasePointerCapture(e.pointerId);
  svgEl.classList.remove("tg-graph-dragging");
  g.press = null;
}

/** Client coordinates as coordinates in the SVG element. */
function local(svgEl, x, y) {
  const r = svgEl.getBoundingClientRect();
  return { x: x - r.left, y: y - r.top };
}
