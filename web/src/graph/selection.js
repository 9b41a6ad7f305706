// What the panel shows of a graph: the model, which groups are collapsed, the selected tape and
// gradient call, and the animation mode. Plain state with the rules for choosing each.

import { initiallyCollapsed } from "./model.js";
import { forwardLength } from "./forward.js";
import { backwardLength } from "./backward.js";

export class Selection {
  constructor() {
    this.model = null;
    this.collapsed = new Set();
    this.tape = 0;          // index of the selected tape
    this.callIndex = -1;    // index of the selected gradient call of that tape (-1: none)
    this.mode = "forward";  // "forward" (recording) or "backward" (gradient pass)
  }

  /** A new graph: layers collapsed; the first tape with a gradient call, shown backward. */
  load(model) {
    this.model = model;
    this.collapsed = initiallyCollapsed(model);
    const withCalls = model.tapes.findIndex((t) => t.gradients.length > 0);
    this.tape = withCalls >= 0 ? withCalls : 0;
    this.callIndex = withCalls >= 0 ? 0 : -1;
    this.mode = this.callIndex >= 0 ? "backward" : "forward";
  }

  clear() {
    this.model = null;
    this.collapsed = new Set();
    this.tape = 0;
    this.callIndex = -1;
    this.mode = "forward";
  }

  /** The selected gradient call, or null. */
  get call() {
    return this.model && this.callIndex >= 0 ? this.model.tapes[this.tape].gradients[this.callIndex] : null;
  }

  /** Steps in the current animation (0 without a model or tapes). */
  get length() {
    if (!this.model || this.model.tapes.length === 0) return 0;
    return this.mode === "backward" ? backwardLength(this.call) : forwardLength(this.model, this.tape);
  }

  /** Another tape: its first call (if any) is selected; without calls, only forward is possible. */
  selectTape(index) {
    this.tape = index;
    this.callIndex = this.model.tapes[index].gradients.length ? 0 : -1;
    if (this.callIndex < 0) this.mode = "forward";
  }

  /** Another gradient call of the selected tape, shown backward. */
  selectCall(index) {
    this.callIndex = index;
    this.mode = "backward";
  }

  /** Returns false (and changes nothing) for "backward" without a call. */
  selectMode(mode) {
    if (mode === "backward" && !this.call) return false;
    this.mode = mode;
    return true;
  }

  /** Opens every group when any can be opened, else collapses them all (a big tape's boxes
   * stay closed). */
  toggleAllGroups() {
    const fixed = [...this.model.groups.values()].filter((g) => g.fixed).map((g) => g.id);
    this.collapsed = this.collapsed.size > fixed.length ? new Set(fixed) : new Set(this.model.groups.keys());
  }
}
