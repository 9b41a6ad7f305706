// The members of a big tape's boxes, which the page does not hold: the Python worker keeps the
// last run's whole graph and lists a box's members on request (messages "graph-members" and
// "graph-group", web/src/messages.js; docs/graph-json.md, "The box view").

import { handlerOf, toWorker } from "../messages.js";

let asked = 0;

/**
 * A loader of box members through `worker()` (the current Python worker, or null):
 * `load(group, start)` resolves with {group, total, start, members} (total -1: the worker no
 * longer holds that graph).
 */
export function membersLoader(worker) {
  return function load(group, start = 0) {
    const w = worker();
    if (!w) return Promise.resolve({ group, total: -1, start, members: [] });
    const id = ++asked;
    return new Promise((resolve) => {
      const receive = handlerOf("worker", {
        "graph-group"(m) {
          if (m.id !== id) return;
          w.removeEventListener("message", answer);
          resolve(JSON.parse(m.payload));
        },
      });
      const answer = (ev) => receive(ev.data);
      w.addEventListener("message", answer);
      toWorker(w, "graph-members", { id, group, start });
    });
  };
}
