// Boot-check Web Worker: boots Pyodide from this site's {{PYODIDE_DIR}}/ with tapegrad preloaded
// (numpy comes in as its dependency through pyodide-lock.json, fetched while the interpreter
// starts), computes a first gradient, then runs code sent by the page. Start-up restores the
// build's memory snapshot (snapshot.bin) and falls back to a plain boot without it.
// networkx (used lazily by the engine) loads right after the first gradient; matplotlib only
// when user code imports it.
const now = () => performance.timeOrigin + performance.now();
const marks = { workerStart: now() };
// For the benchmark's breakdown: time spent compiling and instantiating WebAssembly from bytes,
// which is how Pyodide loads packages' shared libraries (its own module streams instead).
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
importScripts("{{PYODIDE_DIR}}/pyodide.js");
marks.pyodideJs = now();
const indexURL = new URL("{{PYODIDE_DIR}}/", self.location.href).href;

const FIRST_GRADIENT = `
import time as _time
_t0 = _time.perf_counter()
import numpy
_t1 = _time.perf_counter()
try:
    import tapegrad as tf
    _t2 = _time.perf_counter()
    x = tf.Variable(3.0)
    with tf.GradientTape() as t:
        y = x * x
    _text = f"d(x*x)/dx at x=3.0: {t.gradient(y, x)}"
except (ImportError, AttributeError) as e:  # engine API not there yet: report what did load
    _t2 = _time.perf_counter()
    _text = f"engine API not ready ({e!r}); numpy {numpy.__version__} loaded"
_text, 1000 * (_t1 - _t0), 1000 * (_t2 - _t1)
`;

let pyodide = null;
let lazyPackages = null;

async function boot(interrupt) {
  try {
    try {
      const snapshot = fetch(indexURL + "snapshot.bin").then((r) => {
        if (!r.ok) throw new Error(`snapshot.bin: HTTP ${r.status}`);
        return r.arrayBuffer();
      });
      pyodide = await loadPyodide({ indexURL, packages: ["tapegrad"], _loadSnapshot: snapshot });
      marks.snapshot = true;
    } catch (err) {
      console.warn("boot snapshot not used:", err);
      pyodide = await loadPyodide({ indexURL, packages: ["tapegrad"] });
      marks.snapshot = false;
    }
    // The snapshot froze one interpreter state: give this session its own random seed.
    pyodide.runPython("import random; random.seed()");
    marks.booted = now();
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
