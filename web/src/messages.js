// Every message passed between the page and the Python worker (and from that worker to its kernel
// pool's threads), each kind once: who sends it
// (`from`), its fields (a trailing "?" marks an optional one) and what it is for. Messages are
// plain objects {type, ...fields}; "python" kinds are sent by the Python runtime
// (web/python/playground_runtime/messages.py names them) and travel inside a worker "msg"
// ({kind, payload: a JSON string of the fields}).
//
// Send with toWorker / toPage and receive with handlerOf: each checks the kinds against this
// table (tests/browser/test_messages.py checks the sources and the Python names too).

export const MESSAGES = {
  // page -> worker
  init: { from: "page", fields: ["interrupt", "keptBoot?", "downloads?"],
    about: "start the boot: Stop's shared bytes (stop-signal.js: the interrupt buffer and the run's phase, "
      + "or null), "
      + "the build id of the boot files the page notes as kept, \"page\" when the page makes the "
      + "boot's large downloads" },
  "boot-download": { from: "page", fields: ["part", "value?", "error?", "hits?", "url?", "bytes?", "mime?"],
    about: "one of the boot's downloads made by the page, or bytes to keep (boot-downloads.js)" },
  run: { from: "page", fields: ["code", "notebook?"],
    about: "run this code; notebook \"keep\" or \"fresh\": as a notebook cell, in the namespace "
      + "the notebook's cells share (\"fresh\": a new one), web/src/notebook/" },
  files: { from: "page", fields: ["files"],
    about: "stored weights [{path, data (base64)}], written into Python's files before a run" },
  "graph-members": { from: "page", fields: ["id", "group", "start?", "count?"],
    about: "the members of a big tape's box (docs/graph-json.md, \"The box view\"): the last run's "
      + "whole graph stays in the worker; answered by \"graph-group\" with the same id" },

  // worker -> page
  progress: { from: "worker", fields: ["step", "total", "text"], about: "a boot step" },
  marks: { from: "worker", fields: ["marks"],
    about: "boot and first-run steps done: {name: ms since 1970}, made performance marks" },
  ready: { from: "worker", fields: ["snapshot"], about: "booted (from the memory snapshot or not)" },
  "boot-error": { from: "worker", fields: ["text"], about: "the boot failed" },
  "boot-kept": { from: "worker", fields: ["bootId"],
    about: "this build's boot files were kept for the next visit (null: none)" },
  out: { from: "worker", fields: ["stream", "text"], about: "output of the run: stream \"stdout\" or \"stderr\"" },
  info: { from: "worker", fields: ["text"], about: "a note for the console, e.g. \"Loading matplotlib\"" },
  msg: { from: "worker", fields: ["kind", "payload"], about: "a message of the Python runtime: a \"python\" kind below" },
  "csp-violation": { from: "worker", fields: ["text"],
    about: "something the worker's Content-Security-Policy blocked (the page cannot see its events)" },
  "graph-group": { from: "worker", fields: ["id", "payload"],
    about: "the answer to \"graph-members\": payload, a JSON string {group, total, start, members} "
      + "(total -1: the worker no longer holds that graph; playground_runtime/graph.py)" },
  done: { from: "worker", fields: ["status"],
    about: "the run ended: {ok, error: {type, line, message} | null, interrupted, stopped?, gradients, "
      + "gradients_omitted} (gradients: the run's named gradients, docs/scripting.md)" },

  // worker -> the threads of its kernel pool (web/src/kernel-pool.js): one message each, then
  // they only read their slot of the shared control array (Atomics)
  "pool-start": { from: "worker-to-pool", fields: ["memory", "module", "control", "index"],
    about: "a pool thread's shared memory, the kernel module to instantiate in it, the control "
      + "array and its slot (web/src/kernel-pool-worker.js)" },

  // python -> page (inside "msg")
  traceback: { from: "python", fields: ["text", "line"], about: "the run's error, the user's frames only" },
  graph: { from: "python", fields: ["version", "nodes", "edges", "tapes", "functions?", "..."],
    about: "the captured graph (docs/graph-json.md); functions: each tf.function the run traced, "
      + "its traces and each trace's graph (tapegrad.graph.function_view, web/src/graph/functions.js)" },
  "graph-preview": { from: "python", fields: ["version", "preview", "nodes", "groups", "layout", "..."],
    about: "a big tape's collapsed view alone (docs/graph-json.md, \"Preview\"), drawn while the "
      + "rest of its graph is exported; the run's \"graph\" follows and replaces it" },
  "live-graph": { from: "python", fields: ["version", "nodes", "edges", "tapes", "live", "..."],
    about: "while a training loop or fit runs, its latest complete step's graph (a graph document "
      + "with live: {tape, export_ms, text}), at most about once a second (the worker throttles it: "
      + "tapegrad.graph.training_view.LiveSteps)" },
  nones: { from: "python", fields: ["items"], about: "each None gradient's sentence, for the console" },
  plot: { from: "python", fields: ["key", "png"], about: "a matplotlib figure; a known key replaces its image" },
  training: { from: "python", fields: ["event", "..."], about: "the live training plot (training-plot.js)" },
  weights: { from: "python", fields: ["path", "data"], about: "a file model.save_weights or model.save wrote, to keep" },
  output: { from: "python", fields: ["parts", "full?", "unsaved?"],
    about: "a batch of the run's stdout/stderr (at most one per 50 ms): parts [[stream, text]], a "
      + "\"skipped\" part where a long batch was cut, its whole text as full when cut (for Save "
      + "output), unsaved: characters past the run's 16 MB kept for saving (output.py)" },
  note: { from: "python", fields: ["text"], about: "a note for the console, e.g. figures not shown" },

  // page -> its offline service worker, and the answers (web/src/offline/keep.js, service-worker.js)
  "keep-all": { from: "page-to-sw", fields: [],
    about: "keep every file of this build for offline use (\"Keep for offline use\", ?offline=all)" },
  "keep-status": { from: "page-to-sw", fields: [], about: "ask whether every file is kept already" },
  "kept-all": { from: "sw", fields: [], about: "every file of this build is kept" },
  "keep-failed": { from: "sw", fields: ["text"], about: "keeping every file failed, and why" },
  "kept-status": { from: "sw", fields: ["all"], about: "the answer to keep-status: all, a boolean" },
};

/** Throws unless `type` is a kind of the table sent by `from`. */
function check(type, from) {
  const entry = Object.hasOwn(MESSAGES, type) ? MESSAGES[type] : null;
  if (!entry || entry.from !== from) {
    throw new Error(`tapegrad: ${JSON.stringify(type)} is not a message kind sent by the ${from} `
      + "(web/src/messages.js)");
  }
}

/** Posts message `type` from the page to `worker`. */
export function toWorker(worker, type, fields = {}, transfer = []) {
  check(type, "page");
  worker.postMessage({ type, ...fields }, transfer);
}

/** Posts message `type` from the worker to one thread of its kernel pool. */
export function toPoolThread(thread, type, fields = {}) {
  check(type, "worker-to-pool");
  thread.postMessage({ type, ...fields });
}

/** Posts message `type` from the page to its service worker `sw`; the answer comes on `transfer`'s port. */
export function toServiceWorker(sw, type, fields = {}, transfer = []) {
  check(type, "page-to-sw");
  sw.postMessage({ type, ...fields }, transfer);
}

/** Posts answer `type` from the service worker to `target` (a MessagePort or a client). */
export function fromServiceWorker(target, type, fields = {}) {
  check(type, "sw");
  target.postMessage({ type, ...fields });
}

/** Posts message `type` from the worker to the page (in the worker only). */
export function toPage(type, fields = {}) {
  check(type, "worker");
  self.postMessage({ type, ...fields });
}

/**
 * A receiver of the kinds sent by `from` ("page", "worker", "worker-to-pool", "page-to-sw", "sw" or "python"): `handlers` maps kinds
 * of the table to functions, `receive(message)` calls the one of `message.type` (for "python":
 * `receive(kind, data)`). A handler or a message of a kind not in the table is an error.
 */
export function handlerOf(from, handlers) {
  for (const type of Object.keys(handlers)) check(type, from);
  const known = (type) => Object.hasOwn(handlers, type) || (check(type, from), false);
  if (from === "python") return (kind, data) => { if (known(kind)) handlers[kind](data); };
  return (message) => { if (known(message.type)) handlers[message.type](message); };
}
