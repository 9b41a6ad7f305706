// The forward timeline: position p shows the first p recorded ops of a tape; the p-th is current.

import { StepState } from "./state.js";

export function forwardLength(model, ti) {
  return model.tapes[ti].forward.length;
}

function opEdges(model, op) {
  return (model.edgesInto.get(op) || []).concat(model.edgesFrom.get(op) || []);
}

// The nodes and edges off each tape, marked once per tape (a big tape's has many nodes)
const offTapeStates = new WeakMap();   // tape -> {model, state}

function offTapeState(model, ti) {
  const known = offTapeStates.get(model.tapes[ti]);
  if (known && known.model === model) return known.state;
  const state = new StepState();
  const onTape = model.tapeNodes(ti);
  for (const id of model.nodes.keys()) if (!onTape.has(id)) state.node(id, "tg-graph-offtape");
  for (const e of model.edges) {
    if (!onTape.has(e.source) || !onTape.has(e.target)) state.edge(e.key, "tg-graph-offtape");
  }
  offTapeStates.set(model.tapes[ti], { model, state });
  return state;
}

export function forwardState(model, ti, position) {
  const steps = model.tapes[ti].forward;
  const state = new StepState(offTapeState(model, ti));
  // an op recorded twice by one tape (it cannot be, but a summarized graph folds ops) counts once
  const recorded = new Set();
  for (let i = 0; i < Math.min(position, steps.length); i++) recorded.add(steps[i].op);
  for (let i = position; i < steps.length; i++) {
    const s = steps[i];
    if (recorded.has(s.op) || !drawable(model, s.op)) continue;
    state.node(s.op, "tg-graph-future");
    state.node(s.output, "tg-graph-future");
    for (const e of opEdges(model, s.op)) state.edge(e.key, "tg-graph-future");
  }
  const tape = model.tapes[ti];
  const total = steps.length;
  if (position > 0 && position <= total) {
    const s = steps[position - 1];
    state.node(s.op, "tg-graph-current");
    state.node(s.output, "tg-graph-current");
    for (const e of opEdges(model, s.op)) state.edge(e.key, "tg-graph-current");
    state.focus = drawable(model, s.op) ? s.op : null;
    state.line = s.line ?? null;
    state.caption = (s.count > 1 ? `${tapeName(tape)} recorded step ${position} of ${total}: ` +
      `${s.count} ops in ${stepName(model, s.op)}` : `${tapeName(tape)} recorded op ${position} of ${total}: ` +
      stepName(model, s.op)) + (s.line != null ? ` (line ${s.line})` : "");
  } else if (total === 0) {
    state.caption = `${tapeName(tape)} recorded no op`;
  } else {
    state.caption = `${tapeName(tape)} before its first op (${total} to record)`;
  }
  return state;
}

/** Whether a step's op is drawn: a node, or a big tape's box (its box view's steps). */
export function drawable(model, id) {
  return model.nodes.has(id) || model.groups.has(id);
}

/** What a step's caption calls its op: its label, or a big tape's box's. */
export function stepName(model, id) {
  const op = model.nodes.get(id);
  if (op) return op.label || op.op;
  return model.groups.get(id)?.label ?? "a folded op";
}

/** "outer (tape 0)"; just "tape 0" when the user's name adds nothing. */
export function tapeName(tape) {
  const label = String(tape.label ?? `tape ${tape.id}`);
  return tape.name && tape.name !== "tape" ? `${tape.name} (${label})` : label;
}
