// The boot-check page's Web Worker (dist/boot/): boots Pyodide exactly as the playground does
// (../src/pyodide-boot.js), computes a first gradient, reports how long each part took, then
// runs code sent by the page. The boot benchmark (tests/browser/bench_boot.py) reads the marks.
// networkx (used lazily by the engine) loads right after the first gradient; matplotlib only
// when code imports it.
import { bootPyodide } from "../src/pyodide-boot.js";

/* global __PYODIDE_DIR__ */
const now = () => performance.timeOrigin + performance.now();
const marks = { workerStart: now() };

// For the breakdown: time spent compiling and instantiating WebAssembly from bytes, which is how
// Pyodide loads packages' shared libraries (its own module streams instead).
const instantiate = WebAssembly.instantiate;
marks.dynlibMs = 0;
marks.dynlibs = 0;
WebAssembly.instantiate = function (source, imports) {
  const t = performance.now();
  const result = instantiate.call(WebAssembly, source, imports);
  if (!(source instanceof WebAssembly.Module)) {
    result.then(() => { marks.dynlibMs += performance.now() - t; marks.dynlibs += 1; }, () => {});
  }
  return result;
};

const indexURL = new URL(`../${__PYODIDE_DIR__}/`, self.location.href).href;
importScripts(indexURL + "pyodide.js");
marks.pyodideJs = now();

const FIRST_GRADIENT = `
import time as _time
_t0 = _time.perf_counter()
import numpy
_t1 = _time.perf_counter()
import tapegrad as tf
_t2 = _time.perf_counter()
x = tf.Variable(3.0)
with tf.GradientTape() as t:
    y = x * x
f"d(x*x)/dx at x=3.0: {t.gradient(y, x)}", 1000 * (_t1 - _t0), 1000 * (_t2 - _t1)
`;

let pyodide = null;
let lazyPackages = null;

async function boot(interrupt) {
  try {
    const booted = await bootPyodide({ indexURL, packages: ["tapegrad"] });
    pyodide = booted.pyodide;
    const toEpoch = (t) => performance.timeOrigin + t;
    Object.assign(marks, {
      snapshot: booted.snapshotUsed,
      fastInstall: booted.fastInstall.join(" "),
      interpreter: toEpoch(booted.marks.interpreter),
      downloaded: toEpoch(booted.marks.downloaded ?? booted.marks.interpreter),
      unpackMs: booted.marks.unpackMs,
      sharedLibrariesMs: booted.marks.sharedLibrariesMs,
      booted: toEpoch(booted.marks.installed),
    });
    if (interrupt) pyodide.setInterruptBuffer(interrupt);
    const [text, importNumpyMs, importTapegradMs] = pyodide.runPython(FIRST_GRADIENT).toJs();
    marks.gradient = now();
    Object.assign(marks, { importNumpyMs, importTapegradMs });
    postMessage({ type: "ready", text, marks });
    lazyPackages = pyodide.loadPackage(["networkx"], { messageCallback: () => {} });
  } catch (err) {
    postMessage({ type: "boot-error", text: String(err), marks });
  }
}

async function run(code) {
  let out = "";
  pyodide.setStdout({ batched: (s) => { out += s + "\n"; } });
  pyodide.setStderr({ batched: (s) => { out += s + "\n"; } });
  try {
    await lazyPackages;
    await pyodide.loadPackagesFromImports(code, { messageCallback: () => {} });
    await pyodide.runPythonAsync(code);
  } catch (err) {
    out += String(err);
  }
  postMessage({ type: "output", text: out });
}

self.onmessage = (ev) => {
  const m = ev.data;
  if (m.type === "init") boot(m.interrupt);
  else if (m.type === "run") run(m.code);
};
