// What one step of the timeline looks like, as plain data: classes per node and edge, texts on
// edges and next to nodes. The renderer turns the difference between two states into DOM updates.
//
// A node's or edge's classes are one integer, a bit per class of CLASSES: a big tape's state marks
// tens of thousands of nodes on every step of its animation, and a collapsed group merges its
// members' classes with a bitwise OR and AND (render.js).

export const CLASSES = ["tg-graph-current", "tg-graph-done", "tg-graph-reached", "tg-graph-target",
  "tg-graph-source", "tg-graph-result", "tg-graph-none", "tg-graph-summed", "tg-graph-flow",
  "tg-graph-noneflow", "tg-graph-future", "tg-graph-offtape", "tg-graph-inactive",
  "tg-graph-unvisited", "tg-graph-pruned", "tg-graph-unconnected"];
const BIT = new Map(CLASSES.map((c, i) => [c, 1 << i]));

/** The bits of classes `names`. */
export const bitsOf = (...names) => names.reduce((bits, c) => bits | bitOf(c), 0);

function bitOf(cls) {
  const bit = BIT.get(cls);
  if (bit === undefined) throw new Error(`graph state: unknown class ${cls}`);
  return bit;
}

const namesCache = new Map();

/** The class names of `bits`, in the order of CLASSES. */
export function classNames(bits) {
  let names = namesCache.get(bits);
  if (!names) {
    names = CLASSES.filter((c, i) => bits & (1 << i));
    namesCache.set(bits, names);
  }
  return names;
}

export class StepState {
  constructor(base) {
    this.nodes = new Map(base ? base.nodes : []);      // node id -> bits of its classes
    this.edges = new Map(base ? base.edges : []);      // edge key -> bits of its classes
    this.edgeLabels = new Map(base ? base.edgeLabels : []); // edge key -> {text, cls}
    this.badges = new Map(base ? base.badges : []);    // node id -> {text, cls}
    this.focus = null;           // the node the step is about (kept in view)
    this.line = null;            // the editor line of the step
    this.caption = "";
  }

  node(id, cls) {
    if (id == null) return;
    this.nodes.set(id, (this.nodes.get(id) ?? 0) | bitOf(cls));
  }

  edge(key, cls) {
    this.edges.set(key, (this.edges.get(key) ?? 0) | bitOf(cls));
  }

  nodeHas(id, cls) {
    return ((this.nodes.get(id) ?? 0) & bitOf(cls)) !== 0;
  }

  /** Adds a text on an edge; a second text on the same edge joins the first with " + ". */
  edgeLabel(key, text, cls) {
    const prev = this.edgeLabels.get(key);
    this.edgeLabels.set(key, prev ? { text: `${prev.text} + ${text}`, cls: prev.cls } : { text, cls });
  }

  badge(id, text, cls) {
    this.badges.set(id, { text, cls });
  }
}
