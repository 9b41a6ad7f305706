// The playground page's first script (dist/assets/boot.js, a classic script in <head>): starts the
// Python worker and the boot's large downloads (boot-downloads.js: Pyodide's wasm and the
// snapshot's libraries compiled as they stream in, the snapshot read), which it hands to the
// worker: here they start 0.1-0.3 s before the worker could start them, as it must first fetch
// and run its own script. The main bundle's PythonRunner adopts this worker (runner.js): the
// messages it sent meanwhile are kept here and replayed in order. Once the first run has settled,
// the page keeps its build for offline use (offline/keep.js). In `?embed=1` mode Python starts on
// the first Run, so nothing starts here (and nothing is kept offline).
import { keptBootId } from "./boot-cache.js";
import { sendDownloads } from "./boot-downloads.js";
import { toWorker } from "./messages.js";
import { newStopSignal } from "./stop-signal.js";
import { keepForOffline } from "./offline/keep.js";
import { addThemeButton, applyTheme } from "./theme.js";

/* global __PYODIDE_DIR__, __BOOT_ID__ */

(() => {
  applyTheme();   // before the first paint: a dark page never flashes light
  const params = new URLSearchParams(location.search);
  // The editor's textarea holds the default example (index.html), editable from the first paint.
  // When the page opens other code (autosaved, ?example=, a share link), it is read-only and its
  // text hidden (the stylesheet) until main.js has put the right code in.
  let pending = params.has("example") || /(^#|&)(code|z)=/.test(location.hash);
  try {
    pending ||= params.get("embed") !== "1" && localStorage.getItem("tapegrad.playground.page") !== null;
  } catch { /* storage switched off: nothing was saved */ }
  if (pending) {
    document.documentElement.dataset.code = "pending";
    document.addEventListener("readystatechange", () => {   // parsed: before the page's module runs
      const area = document.querySelector("[data-testid=editor] textarea");
      if (area && document.documentElement.dataset.code === "pending") area.readOnly = true;
    }, { once: true });
  }
  if (params.get("embed") === "1") return;
  document.addEventListener("DOMContentLoaded", () => {
    const menu = document.getElementById("more-menu");
    if (menu) addThemeButton(menu, document.getElementById("clear-data"));
  }, { once: true });
  keepForOffline(new URL("../sw.js", document.currentScript.src));   // after the first run
  const interrupt = newStopSignal();
  const here = document.currentScript.src;
  const worker = new Worker(new URL("worker.js", here));
  const early = { worker, interrupt, events: [] };
  worker.onmessage = (ev) => early.events.push(["message", ev.data]);
  worker.onerror = (ev) => early.events.push(["error", ev]);
  const kept = keptBootId();
  const downloads = typeof WebAssembly?.compileStreaming === "function" ? "page" : undefined;
  toWorker(worker, "init", { interrupt, keptBoot: kept, downloads });
  if (downloads) {
    sendDownloads(worker, new URL(`../${__PYODIDE_DIR__}/`, here).href, __BOOT_ID__, kept === __BOOT_ID__);
  }
  performance.mark("tapegrad:workerCreated");
  self.__tapegradEarlyWorker = early;
})();
