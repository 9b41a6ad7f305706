// The playground's Web Worker: boots Pyodide from this site (pyodide-boot.js: memory snapshot,
// wheels fetched at once and unpacked in JavaScript), then runs the user's code through
// web/python/playground_runtime/. The messages it takes and sends: web/src/messages.js.
import RUNTIME_FILES from "virtual:runtime";
import { bootPyodide, NOT_KEPT_HEADER } from "./pyodide-boot.js";
import { downloadsFromPage } from "./boot-downloads.js";
import { handlerOf, toPage } from "./messages.js";
import { createKernelPool } from "./kernel-pool.js";
import { PHASE, SIGINT } from "./stop-signal.js";

/* global __PYODIDE_DIR__, __BOOT_ID__ */
const indexURL = new URL(`../${__PYODIDE_DIR__}/`, self.location.href).href;   // bootPyodide loads pyodide.js from it

// The worker has its own Content-Security-Policy (sent with this script): report what it blocks
// to the page, whose console shows it (a page cannot see its worker's violation events).
self.addEventListener("securitypolicyviolation", (e) => {
  toPage("csp-violation",
         { text: `${e.effectiveDirective || e.violatedDirective} blocked ${e.blockedURI || "inline code"}` });
});

const BOOT_STEPS = 3;
let pyodide = null;
let session = null;
let batcher = null;   // playground_runtime.output.OutputBatcher
// The modules of NumPy and tapegrad are in the boot snapshot, but not their files (nor
// networkx's, which only a program's own import needs): those are downloaded only when something
// needs them (an import, a traceback's source line, the kernel library: pyodide-boot.js). After
// the first run (or after FILES_IDLE_MS without one) the boot keeps its own files for the next
// visit (boot-cache.js), off the first run's path. Without the snapshot, networkx is installed then.
const FILES_IDLE_MS = 2000;
let installLater = null;   // from the boot: keeps the boot's files (and installs networkx without the snapshot)
let filesLater = null;     // that work, once started
function startFilesLater() {
  if (!filesLater && installLater) {
    // "settled": the boot's work after the first run is done (tests/browser/bench_boot.py waits
    // for it before opening the page again).
    filesLater = installLater()
      .then(({ kept }) => toPage("boot-kept", { bootId: kept ? __BOOT_ID__ : null }),
            (err) => console.warn("tapegrad: after the boot:", err))
      .then(() => postMarks({ settled: performance.now() }))
      .then(warmGraphExport);
  }
  return filesLater;
}

// A run that wanted a kernel before tapegrad's files were written found no kernel library: the
// engine used NumPy alone. The files are written now (the run asked for them) and the engine
// tries the library again on its next call (tapegrad.kernels.dispatch.retry_loading).
let filesOnDemand = false;   // a snapshot boot: the packages' files are written on demand
function kernelFilesIfWanted() {
  if (!filesOnDemand) return;
  try {
    const boot = pyodide.pyimport("_tapegrad_boot");
    boot.kernel_files_wanted();
    boot.destroy();
  } catch (err) {   // offline, tapegrad not kept: NumPy alone goes on
    console.warn("tapegrad: the kernel library's files:", err);
  }
}

// A big tape's first graph export in a fresh worker ran 2-3 times slower than later ones (memory
// and code still cold): one small export at idle, once the boot's work is done, warms them.
function warmGraphExport() {
  try {
    const graph = pyodide.pyimport("playground_runtime.graph");
    graph.warm_up();
    graph.destroy();
    postMarks({ graphWarm: performance.now() });
  } catch (err) {
    console.warn("tapegrad: warming the graph export failed:", err);
  }
}

// Output written below Python (not through sys.stdout, which Python batches itself) goes out in
// chunks: per line would flood the page, and the worker is busy while Python runs, so a timer
// could not flush. Flush on size or age.
const pending = { stdout: "", stderr: "" };
let lastFlush = 0;
function flushOutput() {
  if (firstRun && !firstRun.outputShown && pending.stdout) firstRun.outputShown = performance.now();
  for (const stream of ["stdout", "stderr"]) {
    if (pending[stream]) {
      toPage("out", { stream, text: pending[stream] });
      pending[stream] = "";
    }
  }
  lastFlush = performance.now();
}
function outputSink(stream) {
  const decoder = new TextDecoder();
  return {
    write(bytes) {
      pending[stream] += decoder.decode(bytes, { stream: true });
      if (pending[stream].length > 4096 || performance.now() - lastFlush > 50) flushOutput();
      return bytes.length;
    },
  };
}

function progress(step, text) {
  toPage("progress", { step, total: BOOT_STEPS, text });
}

let fromPage = null;   // the page's downloads, when it makes them (init's downloads: "page")
let interruptBuffer = null;   // the page's Stop and the run's phase (web/src/stop-signal.js)

async function boot(interrupt, keptBoot) {
  try {
    const booted = await bootPyodide({
      indexURL,
      packages: ["tapegrad"],
      later: ["networkx"],
      bootId: __BOOT_ID__,   // this build's files in Cache Storage for the next visit (boot-cache.js)
      // The page's note of kept files: none of this build's, no lookup (no note given: look).
      bootCacheLookup: keptBoot === undefined || keptBoot === __BOOT_ID__,
      fromPage,
      onStep: (text) => progress(1, text),
    });
    pyodide = booted.pyodide;
    const marks = { workerStart: 0, ...booted.marks };
    const snapshotUsed = booted.snapshotUsed;
    progress(2, "Starting tapegrad");
    pyodide.setStdout(outputSink("stdout"));
    pyodide.setStderr(outputSink("stderr"));
    interruptBuffer = interrupt;   // given to Pyodide for the user's runs only (see run())
    writeRuntime();
    const runtime = pyodide.pyimport("playground_runtime");
    // stdout/stderr of a run are batched in Python (playground_runtime/output.py): at most one
    // "output" message per 50 ms, a long batch cut to its head and tail, whatever the code prints.
    batcher = pyodide.pyimport("playground_runtime.output").OutputBatcher((kind, payload) => {
      flushOutput();   // keep output and messages in the order Python produced them
      if (kind === "output" && firstRun && !firstRun.outputShown) firstRun.outputShown = performance.now();
      toPage("msg", { kind, payload });
    }, flushOutput);
    // report: each run's status carries its error's message and its named gradients (the page's
    // scripting API, docs/scripting.md)
    session = runtime.Session(batcher.send, batcher.flush, true);
    marks.runtime = performance.now();
    progress(3, "Importing tapegrad");
    pyodide.pyimport("tapegrad").destroy();   // imported already after a snapshot restore
    attachKernelPool();
    marks.tapegrad = performance.now();
    postMarks(marks);   // the page makes performance marks of them (tests/browser/bench_boot.py)
    toPage("ready", { snapshot: snapshotUsed });
    // The packages' files are written later (see above).
    installLater = booted.installLater;
    filesOnDemand = snapshotUsed;
    if (snapshotUsed) setTimeout(startFilesLater, FILES_IDLE_MS);
    else startFilesLater();
  } catch (err) {
    toPage("boot-error", { text: String(err && err.stack ? err.stack : err) });
  }
}

// The first run's steps, reported as marks like the boot's (ms on the page's clock).
let firstRun = {};
const stamp = (step) => { if (firstRun) firstRun[step] = performance.now(); };

function postMarks(marks) {
  const at = {};
  for (const [k, t] of Object.entries(marks)) if (!k.endsWith("Ms")) at[k] = performance.timeOrigin + t;
  toPage("marks", { marks: at });
}

async function run(code, notebook = null) {
  let status;
  try {
    stamp("runReceived");
    setPhase(PHASE.PREPARING);
    await filesLater;   // a run after the first waits for the boot's work after the first run
    stamp("filesWritten");
    await sayingWhatWasNotKept(() => pyodide.loadPackagesFromImports(code, {
      messageCallback: (text) => {
        if (/^Loading /.test(text)) toPage("info", { text: text.replace(/,? ?$/, "") });
      },
      errorCallback: (text) => toPage("out", { stream: "stderr", text: text + "\n" }),
    }));
    stamp("runStarted");
    status = stoppedBeforeStart() ?? runInterruptibly(code, notebook);
    stamp("runEnded");
  } catch (err) {
    // Only the runner itself can end up here (user errors are caught in Python).
    status = { ok: false, error: { type: "InternalError", line: null }, interrupted: false };
    toPage("out", { stream: "stderr", text: `playground error: ${err}\n` });
  }
  setPhase(PHASE.IDLE);
  flushOutput();
  if (firstRun) {
    postMarks(firstRun);
    firstRun = null;
  }
  toPage("done", { status });
  setTimeout(() => {
    kernelFilesIfWanted();
    startFilesLater();
  }, 0);
}

/** Pyodide reads the interrupt buffer during the user's runs only. The worker's own Python work
 * between runs (keeping the boot's files, warming the graph export, a graph's members) would
 * otherwise take a Stop meant for the run waiting behind it, and the run would not end. */
function runInterruptibly(code, notebook) {
  if (interruptBuffer) pyodide.setInterruptBuffer(interruptBuffer);
  setPhase(PHASE.CODE);
  try {
    const result = batcher.run(session, code, notebook);
    const status = result.toJs({ dict_converter: Object.fromEntries });
    result.destroy();
    return status;
  } finally {
    if (interruptBuffer) pyodide.setInterruptBuffer(undefined);
  }
}

function setPhase(phase) {
  if (interruptBuffer) interruptBuffer[1] = phase;
}

/** A Stop that came while the run waited (for the boot's files, for its packages): the code does
 * not start. */
function stoppedBeforeStart() {
  if (!interruptBuffer || interruptBuffer[0] !== SIGINT) return null;
  interruptBuffer[0] = 0;
  return { ok: false, error: null, interrupted: true,
           stopped: { line: null, text: "Stopped before the code started." } };
}

/** Runs fn (a package download by Pyodide); offline, a package the service worker did not keep
 * (web/src/offline/service-worker.js answers its wheel 503 with NOT_KEPT_HEADER) is named on
 * stderr, saying so, before the run's own ModuleNotFoundError. */
async function sayingWhatWasNotKept(fn) {
  const realFetch = self.fetch;
  const notKept = [];
  const note = (input, response) => {
    if (response?.headers.get(NOT_KEPT_HEADER) === "not-kept") notKept.push(String(input).split("/").pop().split("-")[0]);
  };
  self.fetch = async (input, init) => {
    try {
      const response = await realFetch.call(self, input, init);
      note(input, response);
      return response;
    } catch (err) {   // Pyodide asks with an integrity check, which a 503 fails: ask again without
      note(input, await realFetch.call(self, input).catch(() => null));
      throw err;
    }
  };
  try {
    return await fn();
  } finally {
    self.fetch = realFetch;
    if (notKept.length) {
      const names = [...new Set(notKept)].sort((a, b) => a.length - b.length || a.localeCompare(b));
      toPage("out", { stream: "stderr", text: `${names.join(", ")} ${names.length > 1 ? "were" : "was"} not kept for ` +
        `offline use, and this page is offline: a program that imports ${names.length > 1 ? "them" : "it"} needs ` +
        `the network ("Keep for offline use" in the menu keeps every package, online).\n` });
    }
  }
}

const receive = handlerOf("page", {
  init(m) {
    if (m.downloads === "page") fromPage = downloadsFromPage();
    boot(m.interrupt, m.keptBoot);
  },
  "boot-download": (m) => fromPage?.take(m),
  run: (m) => run(m.code, m.notebook ?? null),
  files: (m) => writeFiles(m.files),
  "graph-members": (m) => graphMembers(m),
});

// A box's members of the last big tape's graph, which the page holds as boxes only.
function graphMembers({ id, group, start = 0, count = null }) {
  let payload;
  try {
    const graph = pyodide.pyimport("playground_runtime.graph");
    payload = graph.graph_members(group, start, count);
    graph.destroy();
  } catch (err) {
    payload = JSON.stringify({ group, total: -1, start, members: [], error: String(err) });
  }
  toPage("graph-group", { id, payload });
}
self.onmessage = (ev) => receive(ev.data);

/** The Python runtime's package (web/python/playground_runtime/), where Python imports it from. */
function writeRuntime() {
  const dir = "/home/pyodide/playground_runtime";
  pyodide.FS.mkdirTree(dir);
  for (const [name, source] of Object.entries(RUNTIME_FILES)) pyodide.FS.writeFile(`${dir}/${name}`, source);
}

// files: weights the page kept in the browser's storage, written before a run so that
// model.load_weights(path) finds them (web/src/run-code.js).
function writeFiles(files) {
  for (const { path, data } of files) {
    try {
      pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")) || "/");
      pyodide.FS.writeFile(path, Uint8Array.from(atob(data), (c) => c.charCodeAt(0)));
    } catch (err) {
      toPage("out", { stream: "stderr", text: `could not restore ${path}: ${err}\n` });
    }
  }
}

// Large products on every core: the kernel pool's workers (web/src/kernel-pool.js), one per core
// beside this one, start with this worker; none where the page is not cross-origin isolated.
const kernelPool = createKernelPool(new URL("kernel-pool-worker.js", self.location.href));
function attachKernelPool() {
  if (!kernelPool) return;
  kernelPool.attach(pyodide);
  const threads = pyodide.pyimport("tapegrad.kernels.threads");
  threads.attach(kernelPool);
  threads.destroy();
}
