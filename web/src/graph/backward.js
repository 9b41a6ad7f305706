// The backward timeline of one gradient call: position p shows the first p events (one op's rule
// each) of the pass from the targets to the sources.

import { edgeKey } from "./model.js";
import { StepState } from "./state.js";
import { addData, formatData, shortValue } from "./format.js";
import { drawable, stepName } from "./forward.js";

export function backwardLength(call) {
  return call.events.length;
}

const shortName = (label) => String(label).replace(/:0$/, "");

export function callTitle(call) {
  const ofs = (call.targets || []).map((t) => shortName(t.label)).join(", ") || "target";
  const wrt = (call.results || []).map((r) => shortName(r.label)).join(", ") || "sources";
  const what = call.kind === "jacobian" ? `jacobian row ${call.row}` : `gradient ${call.id + 1}`;
  return `${what}: d ${ofs} / d ${wrt}` + (call.line != null ? ` (line ${call.line})` : "");
}

/** Nodes the call touches: targets, the ops it ran and their outputs, inputs that got a gradient. */
function touched(call) {
  const set = new Set();
  for (const t of call.targets) set.add(t.node);
  for (const r of call.results) set.add(r.node);
  for (const ev of call.events) {
    set.add(ev.op);
    set.add(ev.output);
    for (const c of ev.contributions || []) if (!c.pruned) set.add(c.to);
  }
  return set;
}

/** A running sum of the contributions that reached one node (data is summed when it is small). */
class Accumulator {
  constructor() {
    this.count = 0;
    this.data = undefined;
    this.last = null;
  }

  add(value) {
    this.count += 1;
    this.last = value;
    if (this.count === 1) this.data = value && value.data;
    else if (this.data !== undefined && this.data !== null && value && value.data !== undefined) {
      this.data = addData(this.data, value.data);
    } else this.data = null;
  }

  text() {
    if (this.count === 1) return shortValue(this.last);
    const sum = this.data !== null && this.data !== undefined ? formatData(this.data) : null;
    return sum !== null && sum.length <= 20 ? `Σ ${sum}` : `Σ of ${this.count}`;
  }
}

// What holds at every step of a call, made once per call and tape (a big tape's takes a while)
const callStates = new WeakMap();   // call -> {model, ti, state}

function callState(model, ti, call) {
  const known = callStates.get(call);
  if (known && known.model === model && known.ti === ti) return known.state;
  const state = new StepState();
  markCall(state, model, ti, call);
  callStates.set(call, { model, ti, state });
  return state;
}

export function backwardState(model, ti, call, position) {
  const state = new StepState(callState(model, ti, call));
  markFlow(state, call, position);
  const total = call.events.length;
  if (position >= total) {
    for (const r of call.results) {
      if (r.none || r.reason) continue;
      state.node(r.node, "tg-graph-result");
      state.badge(r.node, `∂ ${shortValue(r.gradient)}`, "tg-graph-badge-result");
    }
  }
  if (position > 0 && position <= total) markStep(state, model, call, position);
  else {
    state.line = call.line ?? null;
    state.caption = total === 0
      ? (call.results.some((r) => r.reason)
        ? "Nothing flowed back to the sources: why is said below."   // e.g. used but never watched
        : "Nothing flowed back: no recorded operation leads from the target to the sources.")
      : `seed: ${call.targets.map((t) => `d${t.label}/d${t.label} = ${shortValue(t.seed)}`).join(", ")}; ` +
        `${total} step${total === 1 ? "" : "s"} back to the sources`;
  }
  return state;
}

/** What holds at every step of the call: off the tape, not on its path, pruned, targets, sources. */
function markCall(state, model, ti, call) {
  const onTape = model.tapeNodes(ti);
  const active = touched(call);
  for (const id of model.nodes.keys()) {
    if (!onTape.has(id) && !active.has(id)) state.node(id, "tg-graph-offtape");
    else if (!active.has(id)) state.node(id, "tg-graph-inactive");
  }
  for (const e of model.edges) {
    if (!active.has(e.source) || !active.has(e.target)) state.edge(e.key, "tg-graph-inactive");
  }
  for (const op of call.unvisited || []) state.node(op, "tg-graph-unvisited");
  for (const ev of call.events) {
    for (const c of ev.contributions || []) {
      if (c.pruned) state.edge(edgeKey(c.to, ev.op), "tg-graph-pruned");
    }
  }
  for (const t of call.targets) {
    state.node(t.node, "tg-graph-target");
    state.badge(t.node, `seed ${shortValue(t.seed)}`, "tg-graph-badge-seed");
  }
  for (const r of call.results) {
    state.node(r.node, "tg-graph-source");
    if (r.none) {
      state.node(r.node, "tg-graph-none");
      state.badge(r.node, "None", "tg-graph-badge-none");
    } else if (r.reason) {
      state.node(r.node, "tg-graph-unconnected");
      state.badge(r.node, `${shortValue(r.gradient)} (unconnected)`, "tg-graph-badge-none");
    }
  }
}

/** The gradients that flowed in the first `position` steps, and their sums at each node. */
function markFlow(state, call, position) {
  const sums = new Map();
  const end = Math.min(position, call.events.length);
  for (let k = 0; k < end; k++) {
    const ev = call.events[k];
    state.node(ev.op, "tg-graph-done");
    state.node(ev.output, "tg-graph-reached");
    state.edge(edgeKey(ev.op, ev.output), "tg-graph-flow");   // its value is the output's badge
    for (const c of ev.contributions || []) {
      const key = edgeKey(c.to, ev.op);
      if (c.pruned) continue;
      if (c.none) {
        state.edge(key, "tg-graph-noneflow");
        state.edgeLabel(key, "None", "tg-graph-label-none");
        continue;
      }
      state.edge(key, "tg-graph-flow");
      if (c.summed) state.edge(key, "tg-graph-summed");
      state.edgeLabel(key, shortValue(c.value), "tg-graph-label-flow");
      state.node(c.to, "tg-graph-reached");
      if (!sums.has(c.to)) sums.set(c.to, new Accumulator());
      sums.get(c.to).add(c.value);
    }
  }
  for (const [id, acc] of sums) {
    if (acc.count > 1) state.node(id, "tg-graph-summed");
    if (!state.nodeHas(id, "tg-graph-target")) state.badge(id, acc.text(), "tg-graph-badge-flow");
  }
}

/** The step at `position` (1 to the number of events): its op, edges, line and caption. */
function markStep(state, model, call, position) {
  const total = call.events.length;
  const ev = call.events[position - 1];
  state.node(ev.op, "tg-graph-current");
  state.edge(edgeKey(ev.op, ev.output), "tg-graph-current");
  for (const c of ev.contributions || []) if (!c.pruned) state.edge(edgeKey(c.to, ev.op), "tg-graph-current");
  state.focus = drawable(model, ev.op) ? ev.op : null;
  state.line = ev.line ?? null;
  const sent = (ev.contributions || []).filter((c) => !c.pruned && !c.none).length;
  const line = ev.line != null ? ` (line ${ev.line})` : "";
  // (a big tape's box view: a step is a run of the box's ops, its gradients sent along drawn edges)
  state.caption = ev.count > 1
    ? `step ${position} of ${total}: ${stepName(model, ev.op)} ran the gradient rules of ${ev.count} ` +
      `ops and sent gradients to ${sent} other box${sent === 1 ? "" : "es"} or node${sent === 1 ? "" : "s"}${line}`
    : `step ${position} of ${total}: ${stepName(model, ev.op)} received ` +
      `${shortValue(ev.upstream)} and sent ${sent} gradient${sent === 1 ? "" : "s"} back${line}`;
}

/**
 * The sentence of each source whose gradient the call returned as None, as the engine wrote it
 * (`why`: tapegrad.graph.explain.none_sentence, with the reason `tape.explain` gives):
 * [{text, line}], line: the line the reason points at, else the call's line.
 */
export function noneExplanations(call) {
  if (!call) return [];
  return (call.results || []).filter((r) => r.none).map((r) => ({
    text: r.why ?? "", line: (r.reason && r.reason.line) ?? call.line ?? null }));
}

/**
 * What the call says about each node: {text, value} for a gradient, {none, reason} for a None
 * source, {note} for a node the pass skipped.
 */
export function gradientsOfCall(call) {
  const out = new Map();
  for (const ev of call.events) {
    out.set(ev.output, { value: ev.upstream, note: "gradient that reached this tensor" });
    out.set(ev.op, { value: ev.upstream, note: "gradient at this op's output" });
    for (const c of ev.contributions || []) {
      if (c.pruned && !out.has(c.to)) out.set(c.to, { note: "not computed: leads to no source (pruned)" });
    }
  }
  for (const op of call.unvisited || []) out.set(op, { note: "not on a path from the sources to the target" });
  for (const t of call.targets) out.set(t.node, { value: t.seed, note: "seed (this is the target)" });
  for (const r of call.results) {
    if (r.none) out.set(r.node, { none: true, reason: r.reason });
    else out.set(r.node, { value: r.gradient, reason: r.reason, note: r.reason ? "zero: unconnected" : "result" });
  }
  return out;
}
