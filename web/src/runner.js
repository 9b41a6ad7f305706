// The page's handle on the Python worker: boots it on demand, runs code one run at a time, and
// stops a run. Stop first raises KeyboardInterrupt through Pyodide's interrupt buffer (needs a
// SharedArrayBuffer, so a cross-origin-isolated page); when that is not possible, or Python has
// not even read the interrupt STOP_GRACE_MS later, the worker is terminated and a fresh one boots.
// Python reading it (Pyodide sets the buffer back to 0) means the run is ending: what it does on
// its way out (a big graph's export, the user's own `except KeyboardInterrupt` cleanup) gets
// STOP_ANSWERED_MS more before the worker is replaced, so a slow machine does not lose the session;
// a run still downloading its packages (web/src/stop-signal.js, the phase) gets STOP_PREPARING_MS,
// and then ends without starting its code.

import { keptBootId, noteKeptBoot } from "./boot-cache.js";
import { handlerOf, toWorker } from "./messages.js";
import { PHASE, SIGINT, newStopSignal } from "./stop-signal.js";

const STOP_GRACE_MS = 1500;
const STOP_ANSWERED_MS = 6000;
const STOP_PREPARING_MS = 60_000;   // a run still downloading its packages (slow network)

/** The worker's boot and first-run steps as performance marks "tapegrad:<step>"
 * (tests/browser/bench_boot.py reads them). `marks`: {step: absolute time in ms}. */
function markSteps(marks = {}) {
  for (const [step, at] of Object.entries(marks)) {
    try {
      performance.mark(`tapegrad:${step}`, { startTime: Math.max(0, at - performance.timeOrigin) });
    } catch {
      // marks are for measuring only
    }
  }
}

export class PythonRunner {
  /**
   * @param {URL|string} workerUrl  the bundled worker script
   * @param {(state: string, detail: object) => void} onState  "booting" (detail: step, total, text),
   *        "ready", "running", "stopping", "error" (detail: text)
   * @param {{worker: Worker, interrupt: Uint8Array|null, events: Array}|null} early  a worker the
   *        page started already (web/src/early-boot.js), with what it sent so far: the first
   *        start() adopts it instead of starting one
   */
  constructor(workerUrl, onState = () => {}, early = null) {
    this.workerUrl = workerUrl;
    this.onState = onState;
    this.early = early;
    this.worker = null;
    this.ready = null;          // promise resolved when the current worker can run code
    this.current = null;        // {sink, resolve} of the run in progress
    this.queue = Promise.resolve();
    this.interrupt = early ? early.interrupt : newStopSignal();   // web/src/stop-signal.js
  }

  get booted() {
    return this.worker !== null;
  }

  /** Starts the worker if none is running; resolves when it is ready. */
  start() {
    if (this.worker) return this.ready;
    const early = this.early;
    this.early = null;
    const worker = early ? early.worker : new Worker(this.workerUrl);
    this.worker = worker;
    this.onState("booting", { step: 0, total: 3, text: "Starting the Python worker" });
    this.ready = new Promise((resolve, reject) => {
      const onMessage = this.#receiver(resolve, reject);
      const onError = (ev) => {
        const text = `the Python worker failed: ${ev.message || "unknown error"}`;
        this.#fail(worker, text);
        reject(new Error(text));
      };
      worker.onmessage = (ev) => onMessage(ev.data);
      worker.onerror = onError;
      for (const [kind, data] of early?.events ?? []) {
        if (this.worker !== worker) break;      // an error ended it
        if (kind === "message") onMessage(data);
        else onError(data);
      }
    });
    this.ready.catch(() => {});   // callers that await it see the error; no unhandled rejection
    if (!early) toWorker(worker, "init", { interrupt: this.interrupt, keptBoot: keptBootId() });
    return this.ready;
  }

  /** A receiver of the worker's messages (web/src/messages.js); the boot ends in `resolveReady`
   * or `rejectReady`. */
  #receiver(resolveReady, rejectReady) {
    return handlerOf("worker", {
      progress: (m) => this.onState("booting", m),
      marks: (m) => markSteps(m.marks),
      ready: (m) => {
        performance.mark("tapegrad:ready");
        this.onState("ready", m);
        resolveReady();
      },
      "boot-error": (m) => {
        this.#fail(this.worker, m.text);
        rejectReady(new Error(m.text));
      },
      out: (m) => this.current?.sink.output?.(m.stream, m.text),
      info: (m) => this.current?.sink.info?.(m.text),
      msg: (m) => this.current?.sink.message?.(m.kind, JSON.parse(m.payload), m.payload),
      done: (m) => this.#finish(m.status),
      "csp-violation": (m) => console.error(`Content-Security-Policy violation in the Python worker: ${m.text}`),
      "boot-kept": (m) => noteKeptBoot(m.bootId),   // read by the next visit's first script (early-boot.js)
    });
  }

  /** A broken worker is dropped (the next run boots a fresh one); a run in progress ends with an error. */
  #fail(worker, text) {
    if (worker !== this.worker) return;   // an old worker's late error
    const run = this.current;
    this.current = null;
    clearInterval(this.stopTimer);
    worker.terminate();
    this.worker = null;
    this.onState("error", { text });
    run?.resolve({ ok: false, error: { type: "WorkerError", line: null }, interrupted: false,
                   failed: text });
  }

  #finish(status) {
    const run = this.current;
    this.current = null;
    clearInterval(this.stopTimer);
    if (run) {
      this.onState("ready", {});
      run.resolve(status);
    }
  }

  /**
   * Runs code after any run in progress. sink: {output(stream, text), info(text),
   * message(kind, data), started()} (started: called when the worker begins this run). Resolves with {ok, error: {type, line} | null, interrupted, restarted?}.
   * notebook: "keep" or "fresh" runs it as a notebook cell (web/src/messages.js).
   */
  run(code, sink, notebook = null) {
    const next = this.queue.then(() => this.#runNow(code, sink, notebook));
    this.queue = next.catch(() => {});
    return next;
  }

  async #runNow(code, sink, notebook) {
    await this.start();
    if (this.interrupt) this.interrupt.fill(0);   // no Stop yet; the worker sets the phase
    sink.started?.();
    this.onState("running", {});
    return new Promise((resolve) => {
      this.current = { sink, resolve };
      toWorker(this.worker, "run", notebook ? { code, notebook } : { code });
    });
  }

  /** Stops the run in progress. Resolves with "interrupted", "restarted" or "idle". */
  async stop() {
    if (!this.current) return "idle";
    const run = this.current;
    this.onState("stopping", {});
    if (this.interrupt) {
      this.interrupt[0] = SIGINT;
      const ended = await new Promise((resolve) => {
        const original = run.resolve;
        run.resolve = (status) => { original(status); resolve(true); };
        const started = performance.now();
        clearInterval(this.stopTimer);
        this.stopTimer = setInterval(() => {
          if (performance.now() - started < this.#stopPatience()) return;
          clearInterval(this.stopTimer);
          resolve(false);
        }, 100);
      });
      if (ended) return "interrupted";
    }
    this.restart();
    return "restarted";
  }

  /** How long a Stop waits for the run to end before the worker is replaced: STOP_GRACE_MS while
   * Python has not read the interrupt, more once it has (it is on its way out) or while the run
   * has not started its code (the worker is booting, busy between runs, or downloading the run's
   * packages; it will not start the code: worker.js). */
  #stopPatience() {
    if (this.interrupt[0] !== SIGINT) return STOP_GRACE_MS + STOP_ANSWERED_MS;
    if (this.interrupt[1] !== PHASE.CODE) return STOP_PREPARING_MS;
    return STOP_GRACE_MS;
  }

  /** Terminates the worker (ending any run) and boots a new one. */
  restart() {
    const run = this.current;
    this.current = null;
    clearInterval(this.stopTimer);
    this.worker?.terminate();
    this.worker = null;
    this.interrupt?.fill(0);   // the old worker's phase (it may have been in the code) is gone
    run?.resolve({ ok: false, error: { type: "KeyboardInterrupt", line: null }, interrupted: true,
                   restarted: true });
    this.start();
  }
}
