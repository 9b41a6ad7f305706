// What one step of the timeline looks like, as plain data: classes per node and edge, texts on
// edges and next to nodes. The renderer turns the difference between two states into DOM updates.

export class StepState {
  constructor() {
    this.nodes = new Map();      // node id -> Set of class names
    this.edges = new Map();      // edge key -> Set of class names
    this.edgeLabels = new Map(); // edge key -> {text, cls}
    this.badges = new Map();     // node id -> {text, cls}
    this.focus = null;           // the node the step is about (kept in view)
    this.line = null;            // the editor line of the step
    this.caption = "";
  }

  node(id, cls) {
    if (id == null) return;
    let set = this.nodes.get(id);
    if (!set) this.nodes.set(id, (set = new Set()));
    set.add(cls);
  }

  edge(key, cls) {
    let set = this.edges.get(key);
    if (!set) this.edges.set(key, (set = new Set()));
    set.add(cls);
  }

  nodeHas(id, cls) {
    const set = this.nodes.get(id);
    return !!set && set.has(cls);
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
