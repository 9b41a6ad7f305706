// The compact graph JSON (version 2, docs/graph-json.md) turned into the version 1 form the panel
// reads. This is the one place the page converts: buildModel (model.js) calls it first, so every
// other part sees version 1. (The engine's own decoder is tapegrad/graph/compact.py's expand.)

const KINDS = ["variable", "watched", "constant", "op", "tensor"];
const PREFIX = { variable: "v", op: "o" };
// a node's fields (the table "fields"): its kind, x, y, then indices into the tables (-1: absent)
const FIELDS = ["kind", "x", "y", "label", "op", "value", "scope", "attrs", "where", "group", "size",
  "rest", "tapes"];
const TABLE = { label: "strings", op: "strings", value: "values", tapes: "lists", scope: "lists",
  attrs: "objects", where: "sources", group: "strings", size: "sizes", rest: "objects" };
const CODES = ["value", "summed", "pruned", "none"];

function fail(what) {
  throw new TypeError(`tapegrad graph JSON: document ${what}`);
}

/** The version 1 document of `doc`; a version 1 document is returned as it is. */
export function expandDocument(doc) {
  if (!doc || typeof doc !== "object" || doc.version !== 2) return doc;
  const { tables, nodes: cols, edges: e } = doc;
  if (!tables || typeof tables !== "object") fail("has version 2 but no \"tables\"");
  if (!cols || !Array.isArray(cols.id) || !Array.isArray(cols.fields) || !e || !Array.isArray(e.source)) {
    fail("has version 2 but its \"nodes\" and \"edges\" are not columns");
  }
  // each distinct set of fields expanded once; nodes alike (a big tape's) share its values
  const bases = tables.fields.map((f) => baseNode(Object.fromEntries(FIELDS.map((k, i) => [k, f[i]])), tables));
  const ids = cols.id.map((id, row) => (typeof id === "string" ? id
    : (PREFIX[bases[cols.fields[row]].kind] ?? "t") + id));
  const nodes = ids.map((id, row) => ({ id, ...bases[cols.fields[row]] }));
  placeBoxed(nodes, doc.groups || []);
  const groups = (doc.groups || []).map((g) => ({ ...g, nodes: g.nodes.map((m) => ids[m]),
    ...(Array.isArray(g.box) ? { fixed: true } : {}) }));
  const edges = e.source.map((s, i) => ({ source: ids[s], target: ids[e.target[i]], index: e.index[i] }));
  const tapes = (doc.tapes || []).map((t) => expandTape(t, tables, ids));
  const out = { ...doc, version: 1, nodes, edges, groups, tapes };
  delete out.tables;
  return out;
}

function baseNode(f, tables) {
  const n = { kind: KINDS[f.kind] };
  for (const [k, table] of Object.entries(TABLE)) {
    const i = f[k];
    if (i < 0) continue;
    const v = tables[table][i];
    if (k === "where") [n.file, n.line, n.function] = v;
    else if (k === "size") [n.w, n.h] = v;
    else if (k === "rest") Object.assign(n, v);
    else n[k] = table === "lists" ? v.slice() : v;
  }
  if (f.x !== null && f.x !== undefined) {
    n.x = f.x;
    n.y = f.y;
  }
  return n;
}

/**
 * A big tape's view lays out only boxes (groups with a `box`): their members (rows) take the box's
 * place, and such a group stays closed (`fixed`), since its members have no layout of their own.
 */
function placeBoxed(nodes, groups) {
  for (const g of groups) {
    if (!Array.isArray(g.box)) continue;
    const [x, y, w, h] = g.box;
    for (const row of g.nodes) {
      const n = nodes[row];
      if (n.x !== undefined) continue;
      n.x = x;
      n.y = y;
      if (n.w === undefined) {
        n.w = w;
        n.h = h;
      }
    }
  }
}

function expandTape(t, tables, ids) {
  const f = t.forward;
  const forward = f.op.map((op, i) => ({ step: i, op: ids[op], output: ids[f.output[i]],
    record: f.record[i], line: f.line[i] }));
  return { ...t, forward, gradients: t.gradients.map((c) => expandCall(c, tables, ids)) };
}

function expandCall(c, tables, ids) {
  const node = (i) => (i < 0 ? null : ids[i]);
  const value = (i) => tables.values[i] ?? undefined;     // null (a big tape's) reads as none
  const ev = c.events;
  const flat = ev.contributions;
  let at = 0;
  const events = ev.op.map((op, i) => {
    const contributions = [];
    for (let k = 0; k < ev.parts[i]; k++, at += 4) {
      const [to, index, code, v] = [flat[at], flat[at + 1], flat[at + 2], flat[at + 3]];
      contributions.push(code >= 2 ? { to: node(to), index, [CODES[code]]: true }
        : { to: node(to), index, value: value(v), summed: code === 1 });
    }
    return { step: i, op: ids[op], output: ids[ev.output[i]], upstream: value(ev.upstream[i]),
      line: ev.line[i], contributions };
  });
  return { ...c, events, targets: c.targets.map((t) => ({ ...t, node: node(t.node) })),
    results: c.results.map((r) => ({ ...r, node: node(r.node) })),
    unvisited: c.unvisited.map((i) => ids[i]) };
}
