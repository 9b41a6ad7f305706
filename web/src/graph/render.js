// Draws the visible graph into one SVG and applies step states to it by changing only the
// classes and texts that differ from the previous state.

import { svg, setText } from "./dom.js";
import { shortValue, shapeShort } from "./format.js";
import { bitsOf, classNames } from "./state.js";

const CHAR_W = 6.6;          // average width of a 12px label character, for truncation
// Level of detail. Every text drawn is at least 11 CSS px tall on screen: at a zoom of 1 or more
// the drawing is as designed (its smallest texts are 11 px); below, down to SCALED_MIN, the name
// in each box is drawn at SCALED_PX on screen (shortened to what fits the box) and the other texts
// are hidden; further out only the shapes are drawn.
const SCALED_MIN = 0.38;
const SCALED_PX = 11.5;
const NAME_MARGIN = { op: 12, variable: 12, watched: 12, constant: 8, group: 10 };  // box width - name's
const EDGE_CHAR_W = 6.4;     // the same for the 11px texts on edges (digits are tabular)
const ARROW_ROOM = 14;       // length kept free at each end of an edge for its arrowheads
const BADGE_ROOM = 22;       // height kept free above a box for its badge (its gradient, "seed 1")
// A group shows a member's state when any member has it, or when all members have it.
const ANY = ["tg-graph-current", "tg-graph-done", "tg-graph-reached", "tg-graph-target",
  "tg-graph-source", "tg-graph-result", "tg-graph-none", "tg-graph-summed", "tg-graph-flow",
  "tg-graph-noneflow"];
const ALL = ["tg-graph-future", "tg-graph-offtape", "tg-graph-inactive", "tg-graph-unvisited",
  "tg-graph-pruned"];
const ANY_BITS = bitsOf(...ANY);
const ALL_BITS = bitsOf(...ALL);

function fit(text, width) {
  const s = String(text ?? "");
  const max = Math.max(3, Math.floor(width / CHAR_W));
  return s.length <= max ? s : s.slice(0, max - 1) + "…";
}

/** Arrow markers; each instance has its own ids so that two panels on a page do not clash. */
function markers(prefix) {
  const arrow = (name, back) => svg("marker", {
    id: `${prefix}-${name}`, viewBox: "0 0 10 10", refX: back ? 1 : 9, refY: 5,
    markerWidth: 9, markerHeight: 9, markerUnits: "userSpaceOnUse", orient: "auto-start-reverse", class: `tg-graph-marker-${name}`,
  }, [svg("path", { d: "M0,0 L10,5 L0,10 z" })]);
  return svg("defs", {}, [arrow("arrow"), arrow("current"), arrow("muted"),
    arrow("flow", true), arrow("none", true)]);
}

function nodeShape(item) {
  const { w, h } = item;
  if (item.kind === "tensor") return svg("circle", { class: "tg-graph-shape", r: w / 2 });
  const rx = item.kind === "op" ? h / 2 : item.kind === "constant" ? 4 : 8;
  return svg("rect", { class: "tg-graph-shape", x: -w / 2, y: -h / 2, width: w, height: h, rx });
}

/** The name written in a box, before it is shortened to fit. */
function fullName(item) {
  if (item.group) return item.group.label;
  return item.kind === "op" ? item.node.label || item.node.op : item.node.label;
}

function nodeTexts(item) {
  const n = item.node;
  const { w, h } = item;
  switch (item.kind) {
    case "group": {
      const g = item.group;
      const ops = g.members.length;
      return [svg("text", { class: "tg-graph-label", y: -3 }, [fit(g.label, w - 10)]),
        svg("text", { class: "tg-graph-sub", y: 12 }, [fit(g.sub ?? `▸ ${ops} nodes · click to open`, w - 8)])];
    }
    case "op":
      return [svg("text", { class: "tg-graph-label", y: 4 }, [fit(n.label || n.op, w - 12)])];
    case "tensor": {
      const named = n.label ? String(n.label) : "";
      const text = named || shortValue(n.value, 14) || shapeShort(n.value && n.value.shape);
      return [svg("text", { class: named ? "tg-graph-label" : "tg-graph-sub", y: h / 2 + 12 },
        [fit(text, 110)])];
    }
    case "constant":
      return [svg("text", { class: "tg-graph-label", y: 4 }, [fit(n.label, w - 8)])];
    default: // variable, watched
      return [svg("text", { class: "tg-graph-label", y: -3 }, [fit(n.label, w - 12)]),
        svg("text", { class: "tg-graph-sub", y: 12 }, [fit(shortValue(n.value, 16), w - 12)])];
  }
}

function edgeGeometry(a, b) {
  const x1 = a.x + a.w / 2;
  const y1 = a.y;
  const x2 = b.x - b.w / 2 - 2;
  const y2 = b.y;
  const mx = (x1 + x2) / 2;
  // (the boxes' tops: a text that cannot sit between them goes above the ones it would cross)
  return { d: `M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2},${y2}`,
    ends: { x1, y1, x2, y2, top1: a.y - (a.h || 0) / 2, top2: b.y - (b.h || 0) / 2 } };
}

/**
 * Where the text on an edge goes, on a background that hides the lines under it: the middle of
 * the curve (that point is on it) when the text fits between the arrowheads at its ends, else
 * just above the curve's higher end, so that no arrowhead is covered, and above the top of each
 * box the text reaches over and its badge, so that it touches none of them.
 */
function edgeLabelBox({ x1, y1, x2, y2, top1 = y1, top2 = y2 }, text) {
  const w = String(text).length * EDGE_CHAR_W + 8;
  const h = 15;
  const x = (x1 + x2) / 2;
  if (x2 - x1 >= w + 2 * ARROW_ROOM) return { x, y: (y1 + y2) / 2, w, h };
  let bottom = Math.min(y1, y2) - 6;
  if (x - w / 2 < x1 + 2) bottom = Math.min(bottom, top1 - BADGE_ROOM);
  if (x + w / 2 > x2 - 2) bottom = Math.min(bottom, top2 - BADGE_ROOM);
  return { x, y: bottom - h / 2, w, h };
}

/** The class names of one visible item that stands for `ids` (their classes' bits: `bitsOfId`). */
function mergedClasses(ids, bitsOfId) {
  if (ids.length === 1) return classNames(bitsOfId(ids[0]) ?? 0);
  let any = 0;
  let all = ~0;
  for (const id of ids) {
    const bits = bitsOfId(id) ?? 0;
    any |= bits;
    all &= bits;
  }
  return classNames((any & ANY_BITS) | (all & ALL_BITS));
}

export function createRenderer(svgEl, prefix) {
  svgEl.append(markers(prefix));
  const scene = svg("g", { class: "tg-graph-scene" });
  const layers = {
    frames: svg("g", { class: "tg-graph-frames" }),
    edges: svg("g", { class: "tg-graph-edges" }),
    nodes: svg("g", { class: "tg-graph-nodes" }),
    labels: svg("g", { class: "tg-graph-labels" }),
  };
  scene.append(layers.frames, layers.edges, layers.nodes, layers.labels);
  svgEl.append(scene);
  const r = {
    prefix, layers,
    view: null,
    nodeEls: new Map(),       // visible id -> {el, item, cls}
    edgeEls: new Map(),       // visible edge key -> {el, ends, cls, marker}
    labelEls: new Map(),      // visible edge key -> {el: <g> with a background and a text, text}
    badgeEls: new Map(),      // visible id -> text element
    selected: null,
    names: [],                // {el, full, width}: the name in each box and frame (level of detail)
    fontPx: 0,                // the names' font size in the scene while scaled (0: as designed)
    zoom: 1,
  };

  function draw(v) {
    r.view = v;
    for (const layer of Object.values(layers)) layer.replaceChildren();
    r.labelEls = new Map();
    r.badgeEls = new Map();
    r.names = drawFrames(layers.frames, v.frames);
    r.edgeEls = drawEdges(layers.edges, v, prefix);
    r.nodeEls = drawNodes(layers.nodes, v.items, r.names);
    if (r.selected && r.nodeEls.has(r.selected)) r.nodeEls.get(r.selected).el.classList.add("tg-graph-selected");
    r.fontPx = 0;
    zoomed(r.zoom);
  }

  /** The scene's zoom changed: the level of detail that keeps every drawn text readable. */
  const zoomed = (k) => levelOfDetail(r, svgEl, k);

  function apply(state) {
    if (!r.view) return;
    applyNodeClasses(r, state);
    applyEdgeClasses(r, state);
    syncEdgeLabels(r, wantedEdgeLabels(r, state));
    // texts next to nodes (not for members hidden in a collapsed group)
    const badges = new Map();
    for (const [id, b] of state.badges) if (r.view.visibleOf(id) === id && r.nodeEls.has(id)) badges.set(id, b);
    syncTexts(layers.labels, r.badgeEls, badges, (id) => {
      const it = r.nodeEls.get(id).item;
      return { x: it.x, y: it.y - it.h / 2 - 6 };
    }, "tg-graph-badge", 0);
  }

  function select(id) {
    const { nodeEls } = r;
    if (r.selected && nodeEls.has(r.selected)) nodeEls.get(r.selected).el.classList.remove("tg-graph-selected");
    r.selected = id;
    if (id && nodeEls.has(id)) nodeEls.get(id).el.classList.add("tg-graph-selected");
  }

  return {
    scene,
    draw,
    apply,
    select,
    zoomed,
    item: (id) => (r.nodeEls.has(id) ? r.nodeEls.get(id).item : null),
    get view() {
      return r.view;
    },
  };
}

/** Draws the level of detail of zoom `k` (SCALED_MIN, SCALED_PX): which texts are drawn, and the
 * names' size and length while scaled. */
function levelOfDetail(r, svgEl, k) {
  r.zoom = k;
  const level = k >= 1 ? "full" : k >= SCALED_MIN ? "scaled" : "shapes";
  if (svgEl.dataset.lod !== level) svgEl.dataset.lod = level;
  const px = level === "scaled" ? Math.ceil((SCALED_PX / k) * 2) / 2 : 0;
  if (px === r.fontPx) return;
  r.fontPx = px;
  for (const { el, full, width } of r.names) {
    el.style.fontSize = px ? `${px}px` : "";
    setText(el, px ? shortName(full, Math.floor(width / (px * 0.6))) : fit(full, width));   // (bold)
  }
}

/** A name in at most `max` characters: "dense/kernel" as "…/kernel" or "kernel" when the whole
 * does not fit (the variable's own part says more than its layer's, drawn beside it), a group's
 * "lstm (LSTM)" as "lstm", else cut. */
function shortName(full, max) {
  let s = String(full ?? "");
  if (s.length <= max) return s;
  const kind = s.lastIndexOf(" (");
  if (kind > 0 && s.endsWith(")")) s = s.slice(0, kind);
  if (s.length <= max) return s;
  const last = s.slice(s.lastIndexOf("/") + 1);
  if (last !== s && last.length + 2 <= max) return `…/${last}`;
  if (last !== s && last.length <= max) return last;
  return s.slice(0, Math.max(2, max - 1)) + "…";
}

/** The open groups' frames, behind everything else; returns their titles as names to scale. */
function drawFrames(layer, frames) {
  const names = [];
  for (const f of frames) {
    const full = `▾ ${f.group.label}`;
    const title = svg("text", { class: "tg-graph-frame-title", x: f.x0 + 8, y: f.y0 + 13 }, [full]);
    layer.append(svg("g", { class: `tg-graph-frame tg-graph-frame-${f.group.kind}`, "data-group-id": f.group.id }, [
      svg("rect", { class: "tg-graph-frame-box", x: f.x0, y: f.y0, width: f.x1 - f.x0, height: f.y1 - f.y0, rx: 10 }),
      title,
    ]));
    names.push({ el: title, full, width: f.x1 - f.x0 - 16 });
  }
  return names;
}

/** The view's edges; returns visible edge key -> {el, ends, cls, marker}. */
function drawEdges(layer, v, prefix) {
  const edgeEls = new Map();
  const itemOf = new Map(v.items.map((it) => [it.id, it]));
  const frag = document.createDocumentFragment();
  for (const e of v.edges) {
    const { d, ends } = edgeGeometry(itemOf.get(e.source), itemOf.get(e.target));
    const el = svg("path", { class: "tg-graph-edge", d, "data-edge": e.key, "marker-end": `url(#${prefix}-arrow)` });
    frag.append(el);
    edgeEls.set(e.key, { el, ends, cls: "", marker: "arrow" });
    const text = aggregateText(e);
    if (text) {
      frag.append(svg("text", { class: "tg-graph-edge-count", x: ((ends.x1 + ends.x2) / 2).toFixed(1),
        y: ((ends.y1 + ends.y2) / 2 - 5).toFixed(1), "data-for": e.key }, [text]));
    }
  }
  layer.append(frag);
  return edgeEls;
}

/** What an edge into or out of a collapsed group carries: "3× 64×10" (three edges, each a 64×10
 * tensor), "64×10" (one), "3×" (shapes that differ); "" for an edge between two nodes. */
export function aggregateText(e) {
  if (!e.grouped) return "";
  const count = e.count > 1 ? `${e.count}×` : "";
  return [count, e.shape ?? ""].filter(Boolean).join(" ");
}

/** The view's nodes; returns visible id -> {el, item, cls}; adds the name in each box (not a
 * tensor's, which is written under its dot) to `names`. */
function drawNodes(layer, items, names) {
  const nodeEls = new Map();
  const frag = document.createDocumentFragment();
  for (const it of items) {
    const el = svg("g", { class: "tg-graph-node", "data-node-id": it.id, "data-kind": it.kind,
      transform: `translate(${it.x},${it.y})` }, [nodeShape(it), ...nodeTexts(it)]);
    if (it.kind === "group") el.setAttribute("data-collapsed", "true");
    if (it.node && it.node.repeat) el.setAttribute("data-repeat", String(it.node.repeat));
    const name = it.kind === "tensor" ? null : el.querySelector(".tg-graph-label");
    if (name) names.push({ el: name, full: fullName(it), width: it.w - (NAME_MARGIN[it.kind] ?? 10) });
    frag.append(el);
    nodeEls.set(it.id, { el, item: it, cls: "" });
  }
  layer.append(frag);
  return nodeEls;
}

/** Members drawn as one visible item: visible id -> [model ids]. */
function membersByVisible(r, ids) {
  const out = new Map();
  for (const id of ids) {
    const vid = r.view.visibleOf(id);
    if (vid === undefined || !r.nodeEls.has(vid)) continue;
    if (!out.has(vid)) out.set(vid, []);
    out.get(vid).push(id);
  }
  return out;
}

/** Each node's classes of the state; a collapsed group merges its members' classes. */
function applyNodeClasses(r, state) {
  const members = membersByVisible(r, r.view.items.flatMap((it) => (it.group ? it.group.members : [it.id])));
  for (const [vid, entry] of r.nodeEls) {
    const ids = members.get(vid) || [vid];
    const cls = mergedClasses(ids, (id) => state.nodes.get(id)).join(" ");
    if (cls !== entry.cls) {
      entry.el.setAttribute("class", `tg-graph-node ${cls}${vid === r.selected ? " tg-graph-selected" : ""}`.trim());
      entry.cls = cls;
    }
  }
}

/** Each edge's classes and arrowhead; a visible edge may carry several edges of the model (into
 * or out of a group). */
function applyEdgeClasses(r, state) {
  const parts = new Map();
  for (const e of r.view.edges) parts.set(e.key, e.parts);
  for (const [key, entry] of r.edgeEls) {
    const cls = mergedClasses(parts.get(key), (k) => state.edges.get(k));
    const text = cls.join(" ");
    if (text !== entry.cls) {
      entry.el.setAttribute("class", `tg-graph-edge ${text}`.trim());
      entry.cls = text;
    }
    const marker = edgeMarker(cls);
    if (marker !== entry.marker) {
      const back = marker === "flow" || marker === "none";
      entry.el.setAttribute(back ? "marker-start" : "marker-end", `url(#${r.prefix}-${marker})`);
      entry.el.removeAttribute(back ? "marker-end" : "marker-start");
      entry.marker = marker;
    }
  }
}

function edgeMarker(cls) {
  if (cls.includes("tg-graph-noneflow")) return "none";
  if (cls.includes("tg-graph-flow")) return "flow";
  if (cls.includes("tg-graph-current")) return "current";
  return cls.some((c) => ALL.includes(c)) ? "muted" : "arrow";
}

/** The state's texts on edges, by visible edge (texts on edges folded into one are joined). */
function wantedEdgeLabels(r, state) {
  const wanted = new Map();
  for (const [key, label] of state.edgeLabels) {
    if (!label.text) continue;            // (a big tape's gradients carry no values)
    const vkey = r.view.visibleEdgeOf(key);
    if (vkey === undefined || !r.edgeEls.has(vkey)) continue;
    const prev = wanted.get(vkey);
    wanted.set(vkey, prev && prev.text !== label.text ? { text: `${prev.text} + ${label.text}`, cls: prev.cls } : label);
  }
  return wanted;
}

/** Texts on edges: each a <g class="tg-graph-edge-label"> holding a background and the text. */
function syncEdgeLabels(r, wanted) {
  const { labelEls } = r;
  for (const [key, entry] of labelEls) {
    if (!wanted.has(key)) {
      entry.el.remove();
      labelEls.delete(key);
    }
  }
  for (const [key, { text, cls }] of wanted) {
    let entry = labelEls.get(key);
    if (!entry) {
      const bg = svg("rect", { class: "tg-graph-edge-label-bg", rx: 4 });
      const t = svg("text", {});
      entry = { el: svg("g", { "data-for": key }, [bg, t]), bg, t, text: null };
      r.layers.labels.append(entry.el);
      labelEls.set(key, entry);
    }
    const c = `tg-graph-edge-label ${cls}`;
    if (entry.el.getAttribute("class") !== c) entry.el.setAttribute("class", c);
    if (entry.text !== text) placeEdgeLabel(entry, edgeLabelBox(r.edgeEls.get(key).ends, text), text);
  }
}

function placeEdgeLabel(entry, box, text) {
  for (const [k, v] of [["x", box.x - box.w / 2], ["y", box.y - box.h / 2], ["width", box.w], ["height", box.h]]) {
    entry.bg.setAttribute(k, v.toFixed(1));
  }
  entry.t.setAttribute("x", box.x.toFixed(1));
  entry.t.setAttribute("y", (box.y + 4).toFixed(1));
  setText(entry.t, text);
  entry.text = text;
}

function syncTexts(layer, els, wanted, at, base, dy) {
  for (const [key, el] of els) {
    if (!wanted.has(key)) {
      el.remove();
      els.delete(key);
    }
  }
  for (const [key, { text, cls }] of wanted) {
    let el = els.get(key);
    if (!el) {
      const p = at(key);
      el = svg("text", { x: p.x, y: p.y + dy, "data-for": key });
      layer.append(el);
      els.set(key, el);
    }
    const c = `${base} ${cls}`;
    if (el.getAttribute("class") !== c) el.setAttribute("class", c);
    setText(el, text);
  }
}
