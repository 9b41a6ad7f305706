// The scripting API's result of one run (docs/scripting.md): what `window.tapegrad.run(code)` and
// `element.run(code)` resolve with and what the "tapegrad:run" event carries. run-code.js gathers
// the run's output and graph here while the run goes on, and builds the result from its status.

/** The event every run dispatches when it ends, its detail the run's result. */
export const RUN_EVENT = "tapegrad:run";

/**
 * Gathers a run's stdout, stderr and graph: `output(stream, text)` and `message(kind, data,
 * payload)` see what the worker sends (payload: the message's JSON text); `result(status)` is the
 * run's result.
 */
export function collectRun() {
  const streams = { stdout: [], stderr: [] };
  let graphText = null;   // the graph's JSON as it came: parsed only when a script reads it
  return {
    output(stream, text) {
      streams[stream]?.push(text);
    },
    message(kind, data, payload) {
      if (kind === "graph") graphText = payload ?? JSON.stringify(data);   // before the panel draws it
      else if (kind === "output") addBatch(streams, data);
    },
    result(status) {
      return runResult(status, { stdout: streams.stdout.join(""), stderr: streams.stderr.join(""), graphText });
    },
  };
}

/** A batch of the Python runtime's output ({parts, full?}): a batch the console cut comes whole
 * in `full` (both streams together), given to its one stream, or shown cut when it mixed both. */
function addBatch(streams, { parts, full }) {
  const shown = parts.filter(([stream]) => stream !== "skipped");
  const kinds = new Set(shown.map(([stream]) => stream));
  if (full !== undefined && kinds.size === 1) {
    streams[[...kinds][0]]?.push(full);
    return;
  }
  for (const [stream, text] of parts) streams[stream === "skipped" ? "stdout" : stream]?.push(text);
}

/**
 * The result of a run from its status (the worker's "done", or the runner's for a failed worker):
 * {status: "ok"|"interrupted"|"error", error: {type, message, line} | null, stdout, stderr,
 *  graph, gradients, gradientsOmitted}.
 */
export function runResult(status, { stdout = "", stderr = "", graphText = null } = {}) {
  const outcome = status.ok ? "ok" : status.interrupted ? "interrupted" : "error";
  const error = outcome !== "error" ? null : {
    type: status.error?.type ?? "Error",
    message: status.error?.message ?? status.failed ?? "",
    line: status.error?.line ?? null,
  };
  const result = {
    status: outcome, error, stdout, stderr, graph: null,
    gradients: status.gradients ?? {},
    gradientsOmitted: status.gradients_omitted ?? [],
  };
  if (graphText !== null) lazyGraph(result, graphText);
  return result;
}

/** `result.graph`, read from the run's JSON text on first use (a big tape's graph is megabytes:
 * a page nobody scripts never parses it twice); still an ordinary, enumerable property. */
function lazyGraph(result, text) {
  let graph;
  Object.defineProperty(result, "graph", {
    enumerable: true, configurable: true,
    get: () => (graph === undefined ? (graph = JSON.parse(text)) : graph),
    set: (value) => { graph = value; },
  });
}

/** Dispatches the "tapegrad:run" event on `target` (an element's bubbles up to window). */
export function announceRun(target, result) {
  target.dispatchEvent(new CustomEvent(RUN_EVENT, { detail: result, bubbles: true, composed: true }));
}

/**
 * Runs one at a time, in the order asked: `enqueue(task)` starts `task()` once every task
 * enqueued before has ended and resolves with its result; `pending` counts those not ended.
 */
export function runQueue() {
  let tail = Promise.resolve();
  const queue = {
    pending: 0,
    enqueue(task) {
      queue.pending += 1;
      const next = tail.then(task).finally(() => { queue.pending -= 1; });
      tail = next.catch(() => {});
      return next;
    },
  };
  return queue;
}
