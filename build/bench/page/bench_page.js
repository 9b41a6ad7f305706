// Starts the worker for one browser peer (Pyodide for tapegrad and NumPy, TF.js for tfjs), hands it
// the cases, and publishes what comes back as window.__bench; #state[data-state] becomes done or error.
// mode=boot measures the time from navigation to a first computed gradient instead.
const params = new URLSearchParams(location.search);
const peer = params.get("peer") ?? "tapegrad";
const message = {
  peer,
  mode: params.get("mode") ?? "measure",
  cases: (params.get("cases") ?? "").split(",").filter(Boolean),
  policy: JSON.parse(params.get("policy") ?? "{}"),
  env: JSON.parse(params.get("env") ?? "{}"),
  threads: params.get("threads") ?? "1",     // "1", or "all": navigator.hardwareConcurrency
};
const state = document.getElementById("state");
const log = (text) => { document.getElementById("log").textContent += text + "\n"; };

function finish(result) {
  window.__bench = result;
  state.dataset.state = result.status === "ok" ? "done" : "error";
  state.textContent = result.status === "ok" ? "done" : `error: ${result.reason}`;
  log(JSON.stringify(result, null, 1));
}

const worker = new Worker(peer === "tfjs" ? "tfjs_worker.js" : "pyodide_worker.js");
worker.onmessage = (ev) => {
  const m = ev.data;
  if (m.type === "progress") return log(m.text);
  if (m.type === "first-gradient") m.info.firstGradientMs = performance.now();  // since navigation
  finish(m.info);
};
worker.onerror = (ev) => finish({ status: "failed", reason: `worker error: ${ev.message}`, results: [] });
worker.postMessage(message);
