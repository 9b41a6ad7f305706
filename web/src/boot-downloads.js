// The boot's three large downloads, each compiled or read as it streams in: Pyodide's
// `pyodide.asm.wasm`, the memory snapshot and the shared libraries the snapshot links (NumPy's,
// each a .wasm file of its own, checked against the sha256 in snapshot-libs.json).
//
// They start wherever they can start first. On the playground page that is its first script
// (early-boot.js, on the main thread, 0.1-0.3 s before the worker has fetched and run its own
// script); the page hands the results to the worker (`sendDownloads`, `downloadsFromPage`). A
// worker started without them (the embedded element, a restart after Stop) makes its own.
import { bootCache } from "./boot-cache.js";
import { toWorker } from "./messages.js";

export const WASM = "application/wasm";
export const BYTES = "application/octet-stream";
const PARTS = ["record", "wasm", "snapshot", "libraries"];

/** "sha256-<base64>" for a hex digest, as fetch's integrity option wants it. */
export function integrityOf(hex) {
  let bin = "";
  for (let i = 0; i < hex.length; i += 2) bin += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16));
  return `sha256-${btoa(bin)}`;
}

/** Reads a network response's copy in the background and hands its bytes to the boot cache. */
function keepBytes(cache, url, response, type) {
  response.arrayBuffer().then((bytes) => cache.keep(url, bytes, type), () => {});
}

/**
 * Starts the downloads; `cache` is a boot cache (boot-cache.js) they are looked up in and kept
 * for. Returns {record: Promise<snapshot-libs.json>, wasm: Promise<WebAssembly.Module>,
 * snapshot: Promise<{bytes, cached}>, libraries: Promise<{record, modules}>} (modules: {library
 * path: WebAssembly.Module}); `marks` gets the performance.now() time each was done.
 */
export function startBootDownloads(indexURL, cache, marks = {}) {
  const wasmURL = indexURL + "pyodide.asm.wasm";
  const wasm = cache.response(wasmURL, undefined, WASM).then(({ response, cached }) => {
    if (!cached && response.ok) keepBytes(cache, wasmURL, response.clone(), WASM);
    return WebAssembly.compileStreaming(response);
  }).then((module) => {
    marks.wasmCompiled = performance.now();
    return module;
  });
  const snapshot = cache.response(indexURL + "snapshot.bin").then(async ({ response, cached }) => {
    if (!response.ok) throw new Error(`snapshot.bin: HTTP ${response.status}`);
    const bytes = await response.arrayBuffer();
    marks.snapshotFetched = performance.now();
    return { bytes, cached };
  });
  const record = fetch(indexURL + "snapshot-libs.json").then((response) => {
    if (!response.ok) throw new Error(`snapshot-libs.json: HTTP ${response.status}`);
    return response.json();
  });
  const libraries = compileSnapshotLibraries(indexURL, cache, record).then((done) => {
    marks.librariesCompiled = performance.now();
    return done;
  });
  const downloads = { record, wasm, snapshot, libraries };
  for (const part of PARTS) downloads[part].catch(() => {});   // each consumer handles its failure
  return downloads;
}

async function compileSnapshotLibraries(indexURL, cache, recordPromise) {
  const record = await recordPromise;
  const modules = {};
  await Promise.all(record.libs.map(async (lib) => {
    if (!lib.url || !lib.sha256) throw new Error(`snapshot-libs.json names no file for ${lib.name}`);
    const url = indexURL + lib.url;
    const { response, cached } = await cache.response(url, { integrity: integrityOf(lib.sha256) }, WASM);
    if (!cached && response.ok) keepBytes(cache, url, response.clone(), WASM);
    modules[lib.name] = await WebAssembly.compileStreaming(response);
  }));
  return { record, modules };
}

/**
 * The page's side: starts the downloads and posts each result to `worker` as it is done
 * ({type: "boot-download", part, value | error}), with the bytes to keep for the next visit
 * ({type: "boot-download", part: "keep", url, bytes, mime}) and the files found in the boot cache
 * (`hits`). `lookup`: whether the page notes this build's files as kept (boot-cache.js).
 */
export function sendDownloads(worker, indexURL, bootId, lookup) {
  const post = (message, transfer = []) => toWorker(worker, "boot-download", message, transfer);
  const cache = bootCache(bootId, { lookup });
  const forwarding = { ...cache, keep: (url, bytes, mime) => post({ part: "keep", url, bytes, mime }, [bytes]) };
  // Each step's time becomes a performance mark of the page ("tapegrad:wasmCompiled", ...).
  const marks = new Proxy({}, { set(_, step, at) {
    performance.mark(`tapegrad:${step}`, { startTime: at });
    return true;
  } });
  const downloads = startBootDownloads(indexURL, forwarding, marks);
  // A first visit: Pyodide's JavaScript, which the worker loads with importScripts as soon as it
  // runs, downloads now into the HTTP cache (the worker starts 0.1-0.3 s later).
  if (!lookup) {
    for (const name of ["pyodide.js", "pyodide.asm.js"]) {
      fetch(indexURL + name).then((r) => r.arrayBuffer()).catch(() => {});
    }
  }
  for (const part of PARTS) {
    downloads[part].then((value) => {
      post({ part, value, hits: cache.hits.splice(0) }, part === "snapshot" ? [value.bytes] : []);
    }, (err) => post({ part, error: String(err?.message ?? err) }));
  }
}

/**
 * The worker's side: `downloads` resolve as the page's messages come in (`take(message)`); a
 * part the page could not get is made here after all (`fallback()` starts the worker's own
 * downloads). `useCache(cache)` hands over what the page kept and found.
 */
export function downloadsFromPage() {
  const settle = {};
  const given = {};
  for (const part of PARTS) given[part] = new Promise((resolve, reject) => { settle[part] = { resolve, reject }; });
  let cache = null;
  const pending = [];        // keep/hit messages before the cache is known
  const apply = (m) => {
    if (m.part === "keep") cache.keep(m.url, m.bytes, m.mime);
    if (m.hits) cache.hits.push(...m.hits);
  };
  return {
    take(m) {
      if (cache) apply(m);
      else pending.push(m);
      if (m.part in settle) {
        if (m.error) settle[m.part].reject(new Error(`the page's download: ${m.error}`));
        else settle[m.part].resolve(m.value);
      }
    },
    /** The downloads, each falling back to `start()`'s (the worker's own) if the page's failed. */
    downloads(useCache, start) {
      cache = useCache;
      pending.splice(0).forEach(apply);
      let own = null;
      const downloads = {};
      for (const part of PARTS) {
        downloads[part] = given[part].catch((err) => {
          console.warn(`tapegrad boot: ${part}:`, err.message, "- downloading it in the worker");
          own ??= start();
          return own[part];
        });
        downloads[part].catch(() => {});
      }
      return downloads;
    },
  };
}
