// The graph JSON (docs/graph-json.md) checked and indexed, and the part of it that is visible
// when some groups are collapsed. The compact form (version 2) is expanded first (compact.js).

import { expandDocument } from "./compact.js";

export const NODE_KINDS = ["variable", "watched", "constant", "op", "tensor"];
const GROUP_SIZE = { w: 130, h: 44 };
const FRAME_PAD = 12;
const FRAME_HEADER = 18;
const EDGE_ROOM = 44;
const ROW_GAP = 64;      // the layout's distance between two rows (engine/tapegrad/graph/layout.py)    // free length between two neighbouring columns' boxes, for an edge

function fail(where, what) {
  throw new TypeError(`tapegrad graph JSON: ${where} ${what}`);
}

function need(cond, where, what) {
  if (!cond) fail(where, what);
}

function isNumber(x) {
  return typeof x === "number" && Number.isFinite(x);
}

function checkNode(n, i) {
  // (checked without building a message for each node: a big tape has tens of thousands)
  if (!n || typeof n !== "object") fail(`nodes[${i}]`, "must be an object");
  if (typeof n.id !== "string" || !n.id) fail(`nodes[${i}]`, `needs a string "id" (got ${JSON.stringify(n.id)})`);
  if (!NODE_KINDS.includes(n.kind)) {
    fail(`nodes[${i}] (${n.id})`, `has an unknown kind ${JSON.stringify(n.kind)}; expected one of ${NODE_KINDS.join(", ")}`);
  }
  for (const k of ["x", "y", "w", "h"]) {
    if (!isNumber(n[k])) fail(`nodes[${i}] (${n.id})`, `needs a number "${k}" (got ${JSON.stringify(n[k])})`);
  }
}

/** Checks a parsed graph document and indexes it; throws a TypeError naming what is wrong. */
export function buildModel(compactOrFull) {
  const doc = expandDocument(compactOrFull);
  need(doc && typeof doc === "object" && !Array.isArray(doc), "document", "must be a JSON object");
  need(doc.version === 1, "document", `has version ${JSON.stringify(doc.version)}; this page reads versions 1 and 2`);
  for (const key of ["nodes", "edges", "groups", "tapes"]) {
    need(Array.isArray(doc[key]), "document", `needs an array "${key}"`);
  }
  const nodes = indexNodes(doc);
  const { edges, edgesInto, edgesFrom } = indexEdges(doc, nodes);
  const groups = indexGroups(doc, nodes);
  const chains = groupChains(nodes, groups);
  checkTapes(doc);

  const tapeNodeSets = new Map();
  return {
    doc,
    nodes,
    edges,
    edgesInto,
    edgesFrom,
    groups,
    tapes: doc.tapes,
    chainOf: (id) => chains.get(id) || [],
    /** Ids of the nodes the tape recorded or watched. */
    tapeNodes(ti) {
      if (!tapeNodeSets.has(ti)) {
        const set = new Set();
        for (const n of nodes.values()) if (Array.isArray(n.tapes) && n.tapes.includes(ti)) set.add(n.id);
        tapeNodeSets.set(ti, set);
      }
      return tapeNodeSets.get(ti);
    },
  };
}

/** The nodes by id. */
function indexNodes(doc) {
  const nodes = new Map();
  doc.nodes.forEach((n, i) => {
    checkNode(n, i);
    if (nodes.has(n.id)) fail(`nodes[${i}]`, `repeats the id ${JSON.stringify(n.id)}`);
    nodes.set(n.id, n);
  });
  return nodes;
}

/** The edges ({key, source, target}), and the edges into and out of each node. */
function indexEdges(doc, nodes) {
  const edges = [];
  const edgesInto = new Map();
  const edgesFrom = new Map();
  doc.edges.forEach((e, i) => {
    if (!e || !nodes.has(e.source)) fail(`edges[${i}]`, `has an unknown source ${JSON.stringify(e && e.source)}`);
    if (!nodes.has(e.target)) fail(`edges[${i}]`, `has an unknown target ${JSON.stringify(e.target)}`);
    const edge = { key: edgeKey(e.source, e.target), source: e.source, target: e.target };
    edges.push(edge);
    push(edgesFrom, e.source, edge);
    push(edgesInto, e.target, edge);
  });
  return { edges, edgesInto, edgesFrom };
}

/** The groups by id, each with its children's ids (`members` is filled by groupChains). */
function indexGroups(doc, nodes) {
  const groups = new Map();
  doc.groups.forEach((g, i) => {
    need(g && typeof g.id === "string", `groups[${i}]`, "needs a string \"id\"");
    need(Array.isArray(g.nodes), `groups[${i}] (${g.id})`, "needs an array \"nodes\"");
    for (const m of g.nodes) if (!nodes.has(m)) fail(`groups[${i}] (${g.id})`, `lists an unknown node ${JSON.stringify(m)}`);
    groups.set(g.id, { id: g.id, label: String(g.label ?? g.id), parent: g.parent ?? null,
      own: g.nodes.slice(), children: [], members: [], kind: g.kind ?? groupKind(g.id),
      fixed: g.fixed === true, box: g.fixed ? g.box : null, sub: g.sub ?? null, ops: g.ops ?? null,
      loaded: null });    // (loaded: a big tape's box's members, as the worker lists them)
  });
  for (const g of groups.values()) {
    if (g.parent === null) continue;
    need(groups.has(g.parent), `group ${g.id}`, `has an unknown parent ${JSON.stringify(g.parent)}`);
    groups.get(g.parent).children.push(g.id);
  }
  return groups;
}

/** Each node's groups, innermost to outermost; adds the node to each group's `members`. Nodes
 * with the same innermost group share one chain (a big tape's box holds thousands of nodes). */
function groupChains(nodes, groups) {
  const innermost = new Map();
  for (const g of groups.values()) for (const m of g.own) innermost.set(m, g.id);
  const chainOfGroup = new Map();
  const chainFrom = (first) => {
    const chain = [];
    const seen = new Set();
    for (let g = first; g != null; g = groups.get(g).parent) {
      if (seen.has(g)) fail(`group ${g}`, "is its own ancestor");
      seen.add(g);
      chain.push(g);
    }
    return chain;
  };
  const none = [];
  const chains = new Map();
  for (const id of nodes.keys()) {
    const first = innermost.get(id);
    if (first != null && !chainOfGroup.has(first)) chainOfGroup.set(first, chainFrom(first));
    const chain = first == null ? none : chainOfGroup.get(first);
    for (const g of chain) groups.get(g).members.push(id);
    chains.set(id, chain);
  }
  return chains;
}

function checkTapes(doc) {
  doc.tapes.forEach((t, i) => {
    need(t && Array.isArray(t.forward), `tapes[${i}]`, "needs an array \"forward\"");
    need(Array.isArray(t.gradients), `tapes[${i}]`, "needs an array \"gradients\"");
    t.gradients.forEach((c, j) => need(c && Array.isArray(c.events) && Array.isArray(c.results)
      && Array.isArray(c.targets), `tapes[${i}].gradients[${j}]`, "needs arrays \"events\", \"targets\" and \"results\""));
  });
}

export function edgeKey(source, target) {
  return `${source}>${target}`;
}

function push(map, key, value) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** What a group stands for, from its id when the document does not say (docs/graph-json.md):
 * "function" (g:function:f), "model" (g:model:Sequential:m), "name_scope", "tf.function" or
 * "layer" (a Keras layer or tf.Module: g:Dense:dense). */
function groupKind(id) {
  const kind = id.replace(/^g:/, "").split("/").pop().split(":")[0];
  return ["function", "model", "name_scope", "tf.function"].includes(kind) ? kind : "layer";
}

/** Above this many nodes a graph starts with its groups collapsed (issue: about 40). */
export const COLLAPSE_ABOVE = 40;

/**
 * Groups that start collapsed. A big tape's boxes never open. A small graph shows the user's
 * code: its functions and name scopes open, the library's inside (layers, tf.function calls)
 * closed. Past COLLAPSE_ABOVE nodes every group starts closed, except that a model, function,
 * tf.function call or name scope that holds groups stays open as a frame around their boxes
 * (a model around its layers; a layer stays one box with its sub-layers inside).
 */
export function initiallyCollapsed(model) {
  const big = model.nodes.size > COLLAPSE_ABOVE;
  const out = new Set();
  for (const g of model.groups.values()) {
    const frame = big && g.kind !== "layer" && g.children.length > 0;
    const library = g.kind === "layer" || (!big && g.kind === "tf.function");
    if (g.fixed || library || (big && !frame)) out.add(g.id);
  }
  return out;
}

function bounds(items) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const it of items) {
    x0 = Math.min(x0, it.x - it.w / 2);
    y0 = Math.min(y0, it.y - it.h / 2);
    x1 = Math.max(x1, it.x + it.w / 2);
    y1 = Math.max(y1, it.y + it.h / 2);
  }
  return { x0, y0, x1, y1 };
}

/**
 * What is drawn with the given groups collapsed:
 *   items   nodes and collapsed groups ({id, kind, x, y, w, h, node | group})
 *   edges   edges between visible items ({key, source, target, parts: underlying edge keys,
 *           count, shape: what an edge into or out of a collapsed group carries})
 *   frames  boxes around expanded groups ({group, x0, y0, x1, y1, depth})
 *   visibleOf(nodeId) -> the id drawn for it (itself, or its outermost collapsed group; a big
 *           tape's box, which has no members here, is itself)
 *   visibleEdgeOf(edgeKey) -> the key of the visible edge that carries it, or undefined
 *   box     the bounds of everything drawn
 *
 * A collapsed group takes the place of its last op in the document's layout; the columns only
 * hidden members used are then taken out (compactColumns), so collapsing makes the drawing
 * smaller, and opening a group moves only what lies right of it, all by one distance.
 */
export function visibleGraph(model, collapsed) {
  const visibleOf = new Map();
  for (const id of model.nodes.keys()) {
    let shown = id;
    for (const g of model.chainOf(id)) if (collapsed.has(g)) shown = g;
    visibleOf.set(id, shown);
  }
  foldConstants(model, visibleOf);
  const items = [];
  for (const n of model.nodes.values()) {
    if (visibleOf.get(n.id) === n.id) items.push({ id: n.id, kind: n.kind, x: n.x, y: n.y, w: n.w, h: n.h, node: n });
  }
  const open = [];
  for (const g of model.groups.values()) {
    const ancestors = [];
    for (let p = g.parent; p != null; p = model.groups.get(p).parent) ancestors.push(p);
    // (a preview's boxes have no members: their box is drawn)
    if (ancestors.some((a) => collapsed.has(a)) || (g.members.length === 0 && !g.box)) continue;
    if (collapsed.has(g.id)) {
      // the box takes the slot of the group's last op, a place the layout kept free of others
      // (a big tape's box has its own place)
      const at = g.box ? { x: g.box[0], y: g.box[1] } : anchorOf(model, g);
      items.push({ id: g.id, kind: "group", x: at.x, y: at.y, w: g.box ? g.box[2] : GROUP_SIZE.w,
        h: g.box ? g.box[3] : GROUP_SIZE.h, group: g });
    } else {
      open.push({ group: g, depth: ancestors.length });
    }
  }
  compactColumns(items);
  compactRows(items);
  const frames = frameBoxes(model, items, open);
  const boxes = model.doc.preview || model.doc.boxes;
  const { edges, visibleEdgeOf } = boxes ? previewEdges(model) : visibleEdges(model, visibleOf);
  for (const it of items) if (it.group && it.group.members.length === 0) visibleOf.set(it.id, it.id);
  const box = bounds(items.concat(frames.map((f) => ({ x: (f.x0 + f.x1) / 2, y: (f.y0 + f.y1) / 2,
    w: f.x1 - f.x0, h: f.y1 - f.y0 }))));
  return {
    items,
    edges,
    frames,
    box,
    visibleOf: (id) => visibleOf.get(id),
    visibleEdgeOf: (key) => visibleEdgeOf.get(key),
  };
}

/** A constant that only ops inside one collapsed group use is drawn inside that group too (a
 * loop's many small constants would otherwise stay spread over the columns the group left). */
function foldConstants(model, visibleOf) {
  for (const n of model.nodes.values()) {
    if (n.kind !== "constant" || visibleOf.get(n.id) !== n.id) continue;
    const out = model.edgesFrom.get(n.id) || [];
    const into = new Set(out.map((e) => visibleOf.get(e.target)));
    const [only] = into;
    if (into.size === 1 && model.groups.has(only)) visibleOf.set(n.id, only);
  }
}

/**
 * Takes out the room of the columns that only hidden nodes used: each gap between two
 * neighbouring columns of drawn items shrinks to what their widest boxes and an edge between them
 * need (never grows). Items of one column keep their x and every item its y, so no two boxes
 * overlap that did not in the document's layout.
 */
function compactColumns(items) {
  const half = new Map();       // column x -> half the width of its widest item
  for (const it of items) half.set(it.x, Math.max(half.get(it.x) ?? 0, it.w / 2));
  const xs = [...half.keys()].sort((a, b) => a - b);
  const to = new Map();
  xs.forEach((x, i) => {
    if (i === 0) to.set(x, x);
    else to.set(x, to.get(xs[i - 1]) + Math.min(x - xs[i - 1], half.get(xs[i - 1]) + half.get(x) + EDGE_ROOM));
  });
  for (const it of items) it.x = to.get(it.x);
}

/** Rows as columns: a gap between two neighbouring rows of drawn items that is wider than the
 * layout's row distance (rows only hidden members used) shrinks to it. Nodes of one column stay
 * at least a row distance apart, more than the tallest box. */
function compactRows(items) {
  const ys = [...new Set(items.map((it) => it.y))].sort((a, b) => a - b);
  const to = new Map();
  ys.forEach((y, i) => to.set(y, i === 0 ? y : to.get(ys[i - 1]) + Math.min(y - ys[i - 1], ROW_GAP)));
  for (const it of items) it.y = to.get(it.y);
}

/** The frames of the open groups (outermost first), each around the drawn items inside it and
 * the frames of its open subgroups, with room for its title above. */
function frameBoxes(model, items, open) {
  const inside = new Map(open.map((o) => [o.group.id, []]));
  for (const it of items) {
    const first = it.node ? model.chainOf(it.id).find((g) => inside.has(g)) : it.group.parent;
    for (let g = first; g != null; g = model.groups.get(g).parent) {
      if (inside.has(g)) {
        inside.get(g).push(it);
        break;
      }
    }
  }
  const frames = [];
  for (const { group: g, depth } of [...open].sort((a, b) => b.depth - a.depth)) {   // innermost first
    const content = inside.get(g.id);
    if (!content.length) continue;
    const b = bounds(content);
    const f = { group: g, depth, x0: b.x0 - FRAME_PAD, y0: b.y0 - FRAME_PAD - FRAME_HEADER,
      x1: b.x1 + FRAME_PAD, y1: b.y1 + FRAME_PAD };
    frames.push(f);
    for (let p = g.parent; p != null; p = model.groups.get(p).parent) {
      if (inside.has(p)) {
        inside.get(p).push({ x: (f.x0 + f.x1) / 2, y: (f.y0 + f.y1) / 2, w: f.x1 - f.x0, h: f.y1 - f.y0 });
        break;
      }
    }
  }
  return frames.sort((a, b) => a.depth - b.depth);
}

/** The edges between drawn items; an edge into or out of a collapsed group carries `count` edges
 * of the model and the `shape` of what flows along them (null when they differ). */
function visibleEdges(model, visibleOf) {
  const byKey = new Map();
  const visibleEdgeOf = new Map();
  for (const e of model.edges) {
    const s = visibleOf.get(e.source);
    const t = visibleOf.get(e.target);
    if (s === t) continue;
    const key = edgeKey(s, t);
    let v = byKey.get(key);
    if (!v) {
      v = { key, source: s, target: t, parts: [], count: 0, shape: undefined,
        grouped: s !== e.source || t !== e.target };
      byKey.set(key, v);
    }
    v.parts.push(e.key);
    v.count += 1;
    const value = model.nodes.get(e.source).value;
    const shape = value && Array.isArray(value.shape) ? value.shape.join("×") || "scalar" : null;
    v.shape = v.shape === undefined || v.shape === shape ? shape : null;
    visibleEdgeOf.set(e.key, key);
  }
  return { edges: [...byKey.values()], visibleEdgeOf };
}

/** A big tape's drawn edges (its preview and box view have no others): its layout's [from, to,
 * count, shape], as visibleEdges gives them from the whole document; each carries itself (the box
 * view's steps light them). */
function previewEdges(model) {
  const edges = (model.doc.layout?.edges ?? []).map(([source, target, count, shape]) => {
    const key = edgeKey(source, target);
    return { key, source, target, parts: [key], count, shape: shape ?? null,
      grouped: model.groups.has(source) || model.groups.has(target) };
  });
  return { edges, visibleEdgeOf: new Map(edges.map((e) => [e.key, e.key])) };
}

/**
 * The bounds of what one tape recorded or watched, as drawn in `view` (a collapsed group counts
 * when one of its members belongs to the tape). With several tapes in one run (a training loop
 * records one per step) fitting to this keeps the selected tape readable; everything drawn is the
 * fallback when the tape owns no node.
 */
export function boxOfTape(model, view, tapeIndex) {
  const ofTape = (node) => Array.isArray(node.tapes) && node.tapes.includes(tapeIndex);
  const mine = view.items.filter((it) => (it.node ? ofTape(it.node)
    : it.group.members.some((m) => ofTape(model.nodes.get(m)))));
  return mine.length ? bounds(mine) : view.box;
}

/** The rightmost op among a group's members (its output leaves the group there). */
function anchorOf(model, g) {
  let best = null;
  for (const m of g.members) {
    const n = model.nodes.get(m);
    if (n.kind === "op" && (!best || n.x > best.x)) best = n;
  }
  return best || model.nodes.get(g.members[0]);
}
