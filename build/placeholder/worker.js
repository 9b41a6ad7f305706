// Placeholder Web Worker: boots Pyodide from this site's {{PYODIDE_DIR}}/ with tapegrad preloaded
// (numpy and networkx come in as its dependencies through pyodide-lock.json, in parallel),
// computes a first gradient, then runs code sent by the page. matplotlib loads only when imported.
const now = () => performance.timeOrigin + performance.now();
const marks = { workerStart: now() };
importScripts("{{PYODIDE_DIR}}/pyodide.js");
const indexURL = new URL("{{PYODIDE_DIR}}/", self.location.href).href;

const FIRST_GRADIENT = `
try:
    import tapegrad as tf
    x = tf.Variable(3.0)
    with tf.GradientTape() as t:
        y = x * x
    _text = f"d(x*x)/dx at x=3.0: {t.gradient(y, x)}"
except (ImportError, AttributeError) as e:  # engine API not there yet: report what did load
    import numpy
    _text = f"engine API not ready ({e!r}); numpy {numpy.__version__} loaded"
_text
`;

let pyodide = null;

async function boot(interrupt) {
  try {
    pyodide = await loadPyodide({ indexURL, packages: ["tapegrad"] });
    marks.booted = now();
    if (interrupt) pyodide.setInterruptBuffer(interrupt);
    const text = pyodide.runPython(FIRST_GRADIENT);
    marks.gradient = now();
    postMessage({ type: "ready", text, marks });
  } catch (err) {
    postMessage({ type: "boot-error", text: String(err), marks });
  }
}

async function run(code) {
  let out = "";
  pyodide.setStdout({ batched: (s) => { out += s + "\n"; } });
  pyodide.setStderr({ batched: (s) => { out += s + "\n"; } });
  try {
    await pyodide.loadPackagesFromImports(code);
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
