// The playground's Web Worker: boots Pyodide from this site (pyodide-boot.js: memory snapshot,
// wheels fetched at once and unpacked in JavaScript), then runs the user's code through
// web/python/playground_runtime.py.
//
// page -> worker  {type: "init", interrupt: Uint8Array on a SharedArrayBuffer or null,
//                  keptBoot?: the build id of the boot files the page notes as kept, or null,
//                  downloads?: "page" (the page makes the boot's large downloads and sends them)}
//                 {type: "boot-download", part, ...}       one of them (boot-downloads.js)
//                 {type: "run", code}
//                 {type: "files", files: [{path, data}]}   stored weights, written before a run
// worker -> page  {type: "progress", step, total, text}   boot steps
//                 {type: "marks", marks}                   steps done: {name: ms since 1970}
//                 {type: "ready", snapshot}  |  {type: "boot-error", text}
//                 {type: "boot-kept", bootId}              this build's boot files kept (or null: none)
//                 {type: "out", stream: "stdout"|"stderr", text}
//                 {type: "info", text}                     e.g. "Loading matplotlib"
//                 {type: "msg", kind: "traceback"|"graph"|"nones"|"plot", payload: JSON string}
//                 {type: "csp-violation", text}            something the worker's CSP blocked
//                 {type: "done", status: {ok, error, interrupted}}
import RUNTIME_SOURCE from "../python/playground_runtime.py";
import { bootPyodide } from "./pyodide-boot.js";
import { downloadsFromPage } from "./boot-downloads.js";

/* global __PYODIDE_DIR__, __BOOT_ID__ */
const indexURL = new URL(`../${__PYODIDE_DIR__}/`, self.location.href).href;   // bootPyodide loads pyodide.js from it

// The worker has its own Content-Security-Policy (sent with this script): report what it blocks
// to the page, whose console shows it (a page cannot see its worker's violation events).
self.addEventListener("securitypolicyviolation", (e) => {
  postMessage({ type: "csp-violation",
                text: `${e.effectiveDirective || e.violatedDirective} blocked ${e.blockedURI || "inline code"}` });
});

const BOOT_STEPS = 3;
let pyodide = null;
let session = null;
// The modules of NumPy and tapegrad are in the boot snapshot, but not their files (nor
// networkx's, which only a program's own import needs): those download in the background and are
// written after the first run (or after FILES_IDLE_MS without one), as their synchronous file
// writes would otherwise hold back the first run; an import that needs them sooner writes them
// first (pyodide-boot.js). Without the snapshot, networkx is installed from the start.
const FILES_IDLE_MS = 2000;
let installLater = null;   // from the boot: starts writing the files
let filesLater = null;     // that installation, once started
function startFilesLater() {
  if (!filesLater && installLater) {
    // "settled": the boot's work after the first run is done (tests/browser/bench_boot.py waits
    // for it before opening the page again).
    filesLater = installLater()
      .then(({ kept }) => postMessage({ type: "boot-kept", bootId: kept ? __BOOT_ID__ : null }),
            (err) => console.warn("tapegrad: writing the packages' files failed:", err))
      .then(() => postMarks({ settled: performance.now() }));
  }
  return filesLater;
}

// Output goes out in chunks: per line would flood the page when code prints in a tight loop,
// and the worker is busy while Python runs, so a timer could not flush. Flush on size or age.
const pending = { stdout: "", stderr: "" };
let lastFlush = 0;
function flushOutput() {
  if (firstRun && !firstRun.outputShown && pending.stdout) firstRun.outputShown = performance.now();
  for (const stream of ["stdout", "stderr"]) {
    if (pending[stream]) {
      postMessage({ type: "out", stream, text: pending[stream] });
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
  postMessage({ type: "progress", step, total: BOOT_STEPS, text });
}

let fromPage = null;   // the page's downloads, when it makes them (init's downloads: "page")

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
    if (interrupt) pyodide.setInterruptBuffer(interrupt);
    pyodide.FS.writeFile("/home/pyodide/playground_runtime.py", RUNTIME_SOURCE);
    const runtime = pyodide.pyimport("playground_runtime");
    session = runtime.Session((kind, payload) => {
      flushOutput();   // keep output and messages in the order Python produced them
      postMessage({ type: "msg", kind, payload });
    }, flushOutput);
    marks.runtime = performance.now();
    progress(3, "Importing tapegrad");
    pyodide.pyimport("tapegrad").destroy();   // imported already after a snapshot restore
    marks.tapegrad = performance.now();
    postMarks(marks);   // the page makes performance marks of them (tests/browser/bench_boot.py)
    postMessage({ type: "ready", snapshot: snapshotUsed });
    // The packages' files are written later (see above).
    installLater = booted.installLater;
    if (snapshotUsed) setTimeout(startFilesLater, FILES_IDLE_MS);
    else startFilesLater();
  } catch (err) {
    postMessage({ type: "boot-error", text: String(err && err.stack ? err.stack : err) });
  }
}

// The first run's steps, reported as marks like the boot's (ms on the page's clock).
let firstRun = {};
const stamp = (step) => { if (firstRun) firstRun[step] = performance.now(); };

function postMarks(marks) {
  const at = {};
  for (const [k, t] of Object.entries(marks)) if (!k.endsWith("Ms")) at[k] = performance.timeOrigin + t;
  postMessage({ type: "marks", marks: at });
}

async function run(code) {
  let status;
  try {
    stamp("runReceived");
    await filesLater;   // a run after the first waits for the files being written, if any
    stamp("filesWritten");
    await pyodide.loadPackagesFromImports(code, {
      messageCallback: (text) => {
        if (/^Loading /.test(text)) postMessage({ type: "info", text: text.replace(/,? ?$/, "") });
      },
      errorCallback: (text) => postMessage({ type: "out", stream: "stderr", text: text + "\n" }),
    });
    stamp("runStarted");
    const result = session.run(code);
    stamp("runEnded");
    status = result.toJs({ dict_converter: Object.fromEntries });
    result.destroy();
  } catch (err) {
    // Only the runner itself can end up here (user errors are caught in Python).
    status = { ok: false, error: { type: "InternalError", line: null }, interrupted: false };
    postMessage({ type: "out", stream: "stderr", text: `playground error: ${err}\n` });
  }
  flushOutput();
  if (firstRun) {
    postMarks(firstRun);
    firstRun = null;
  }
  postMessage({ type: "done", status });
  setTimeout(startFilesLater, 0);
}

self.onmessage = (ev) => {
  const m = ev.data;
  if (m.type === "init") {
    if (m.downloads === "page") fromPage = downloadsFromPage();
    boot(m.interrupt, m.keptBoot);
  } else if (m.type === "boot-download") fromPage?.take(m);
  else if (m.type === "run") run(m.code);
  else if (m.type === "files") writeFiles(m.files);
};

// {type: "files", files: [{path, data (base64)}]}: weights the page kept in the browser's storage,
// written before a run so that model.load_weights(path) finds them (web/src/run-code.js).
function writeFiles(files) {
  for (const { path, data } of files) {
    try {
      pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")) || "/");
      pyodide.FS.writeFile(path, Uint8Array.from(atob(data), (c) => c.charCodeAt(0)));
    } catch (err) {
      postMessage({ type: "out", stream: "stderr", text: `could not restore ${path}: ${err}\n` });
    }
  }
}
