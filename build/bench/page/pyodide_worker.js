// Runs Python peers (tapegrad, or NumPy with hand-written derivatives) inside Pyodide from this
// site's Pyodide folder (the build's dist/; site_config.js, written by peerbench/site.py, names it
// PYODIDE_DIR). The peerbench modules come from py/ (listed in py/manifest.json) and run exactly as
// natively: peerbench.run_peer.run(peer, cases, policy).
importScripts("site_config.js");
importScripts(self.PYODIDE_DIR + "pyodide.js");

// threads "all": the playground's kernel pool (dist's assets/kernel-pool.js, one worker per further
// core), attached as the page's worker attaches it (web/src/worker.js); null without isolation.
function kernelPool(threads) {
  if (threads !== "all") return null;
  importScripts("assets/kernel-pool.js");
  const pool = tapegradKernelPool.createKernelPool(new URL("assets/kernel-pool-worker.js", self.location.href).href);
  if (!pool) throw new Error(`no kernel pool: crossOriginIsolated ${self.crossOriginIsolated}, ` +
                             `hardwareConcurrency ${navigator.hardwareConcurrency}`);
  return pool;
}

async function boot(peer, env, threads) {
  const pool = kernelPool(threads);
  const indexURL = new URL(self.PYODIDE_DIR, self.location.href).href;
  // TAPEGRAD_KERNELS and the like must be set before tapegrad is imported: loadPyodide's env does.
  const pyodide = await loadPyodide({ indexURL, env: { HOME: "/home/pyodide", ...env },
                                      packages: [peer === "tapegrad" ? "tapegrad" : "numpy"] });
  const files = await (await fetch("py/manifest.json")).json();
  for (const file of files) {
    const text = await (await fetch("py/" + file)).text();
    pyodide.FS.mkdirTree("/bench/" + file.split("/").slice(0, -1).join("/"));
    pyodide.FS.writeFile("/bench/" + file, text);
  }
  pyodide.runPython("import sys; sys.path.insert(0, '/bench')");
  if (pool) {
    pool.attach(pyodide);
    pyodide.pyimport("tapegrad.kernels.threads").attach(pool);
  }
  return pyodide;
}

self.onmessage = async ({ data: m }) => {
  try {
    const pyodide = await boot(m.peer, m.env, m.threads);
    postMessage({ type: "progress", text: `Pyodide ${pyodide.version} ready; running ${m.cases.join(", ")}` });
    pyodide.globals.set("_request", pyodide.toPy({ peer: m.peer, cases: m.cases, policy: m.policy, threads: m.threads }));
    const out = pyodide.runPython(`
import json
from peerbench.run_peer import run
from peerbench.timing import Policy
_info = run(_request["peer"], _request["cases"], Policy(**_request["policy"]))
_info["runtime"] = "Pyodide " + __import__("pyodide").__version__
if _request["threads"] == "all":
    from tapegrad.kernels import threads as _threads
    _info["notes"] = "; ".join(filter(None, [_info.get("notes"), f"{_threads.count()} threads (kernel pool): "
                      f"{_threads.split()} products split, {_threads.by_workers()} with a worker's rows"]))
json.dumps(_info)
`);
    postMessage({ type: "result", info: JSON.parse(out) });
  } catch (err) {
    postMessage({ type: "result", info: { status: "failed", reason: String(err), results: [] } });
  }
};
