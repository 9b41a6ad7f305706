// Boots Pyodide from this site as fast as it allows (the playground worker and the boot-check page
// both use this). What it does, each step measured (build/README.md, "Boot path"):
//  1. At once, in parallel: `pyodide.asm.wasm` (compiled as it streams in), the memory snapshot
//     (snapshot-file.js: its zero pages are left out), the shared libraries the snapshot links
//     (NumPy's, each a .wasm file of its own, compiled as it streams in), the lock file and the
//     standard library (answered to Pyodide's own requests later). Nothing else is downloaded
//     before Python runs.
//  2. loadPyodide restores the snapshot instead of starting Python (falls back to a plain start).
//     The snapshot was taken with NumPy and tapegrad imported: their shared libraries are linked
//     back in as the heap is restored (snapshot-libs.js, with the build's snapshot-libs.json).
//  3. The packages' files (their modules are in the heap already) are downloaded only when
//     something needs them: an import the snapshot lacks, the engine's kernel library
//     (filesOnDemand). Nothing is downloaded after Ready that the code did not ask
//     for. Each wheel is unpacked here, in JavaScript, straight into Pyodide's file system: the
//     build stores the wheels' entries uncompressed (build/prepare_wheels.mjs). Without the snapshot,
//     the wheels are installed before Ready (falling back to pyodide.loadPackage for a package
//     whose wheel is not as expected).
//
// Loads pyodide.js (importScripts; it defines self.loadPyodide) once the downloads have started.
import { restoreLibraries } from "./snapshot-libs.js";
import { restoreSparse, sparseHeader, sparseSnapshot } from "./snapshot-file.js";
import { bootCache } from "./boot-cache.js";
import { BYTES, integrityOf, startBootDownloads } from "./boot-downloads.js";

const ZIP_END = 0x06054b50;
const ZIP_CENTRAL = 0x02014b50;
const ZIP_LOCAL = 0x04034b50;

/** The files of a zip whose entries are all stored: [[name, Uint8Array view], ...]. */
export function storedZipEntries(bytes) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && dv.getUint32(end, true) !== ZIP_END) end--;
  if (end < 0) throw new Error("not a zip file (no end of central directory)");
  const count = dv.getUint16(end + 10, true);
  let p = dv.getUint32(end + 16, true);
  const names = new TextDecoder();
  const files = [];
  for (let i = 0; i < count; i++) {
    if (dv.getUint32(p, true) !== ZIP_CENTRAL) throw new Error(`zip central directory entry ${i} is damaged`);
    const method = dv.getUint16(p + 10, true);
    const size = dv.getUint32(p + 20, true);
    const nameLength = dv.getUint16(p + 28, true);
    const skip = nameLength + dv.getUint16(p + 30, true) + dv.getUint16(p + 32, true);
    const local = dv.getUint32(p + 42, true);
    const name = names.decode(bytes.subarray(p + 46, p + 46 + nameLength));
    if (method !== 0) throw new Error(`${name} is compressed (method ${method}); expected stored entries`);
    if (dv.getUint32(local, true) !== ZIP_LOCAL) throw new Error(`zip local header of ${name} is damaged`);
    const data = local + 30 + dv.getUint16(local + 26, true) + dv.getUint16(local + 28, true);
    if (!name.endsWith("/")) files.push([name, bytes.subarray(data, data + size)]);
    p += 46 + skip;
  }
  return files;
}

/** `names` and everything they depend on in the lock, dependencies first. */
function installOrder(lock, names) {
  const order = [];
  const visit = (name) => {
    if (order.includes(name)) return;
    const entry = lock.packages[name];
    if (!entry) throw new Error(`package ${name} is not in pyodide-lock.json`);
    for (const dep of entry.depends) visit(dep);
    order.push(name);
  };
  names.forEach(visit);
  return order;
}

async function fetchBytes(url, integrity) {
  const response = await fetch(url, integrity ? { integrity } : undefined);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Writes a (stored-entry) wheel's files into site-packages; returns the paths of its shared libraries. */
function writeWheelFiles(pyodide, bytes) {
  const site = pyodide._api.sitepackages;
  const libs = [];
  const made = new Set();
  for (const [path, data] of storedZipEntries(bytes)) {
    const full = `${site}/${path}`;
    const dir = full.slice(0, full.lastIndexOf("/"));
    if (!made.has(dir)) {
      pyodide.FS.mkdirTree(dir);
      made.add(dir);
    }
    pyodide.FS.writeFile(full, data);
    if (path.endsWith(".so")) libs.push(full);
  }
  return libs;
}

/** Writes a wheel's files and loads its shared libraries, as Pyodide's installer would. */
async function installWheel(pyodide, name, bytes, marks) {
  const t0 = performance.now();
  const libs = writeWheelFiles(pyodide, bytes);
  const t1 = performance.now();
  for (const lib of libs) await pyodide._api.loadDynlib(lib, false, [`${pyodide._api.sitepackages}/${name}.libs`]);
  pyodide.loadedPackages[name] = "default channel";   // so loadPackage never installs it again
  marks.unpackMs += t1 - t0;
  marks.sharedLibrariesMs += performance.now() - t1;
}

/** Installs downloaded wheels in order (unpacked here; loadPackage when that fails); returns the names unpacked here. */
async function installAll(pyodide, pending, marks) {
  const fast = [];
  for (const { name, bytes } of pending) {
    if (name in pyodide.loadedPackages) continue;
    try {
      const data = await bytes;
      marks.downloaded = performance.now();
      await installWheel(pyodide, name, data, marks);
      fast.push(name);
    } catch (err) {
      console.warn(`tapegrad boot: ${name} goes through loadPackage:`, err);
      await pyodide.loadPackage([name], { messageCallback: () => {} });
    }
  }
  return fast;
}

/**
 * Starts, at once, the requests Pyodide itself would make only later: the lock file and the
 * standard library's zip (which Pyodide would request once its module exists). `during(fn)` runs fn
 * (the loadPyodide call) with Pyodide's own requests for these files answered by the early ones and
 * its instantiation routed to `compiled` (pyodide.asm.wasm, compiled early: boot-downloads.js);
 * if that failed, Pyodide's own path runs. `lock` resolves to the parsed lock file; `marks` gets
 * wasmInstantiated.
 */
function startEarly(indexURL, marks, compiled) {
  const url = indexURL + "pyodide.asm.wasm";
  const early = new Map();
  // Pyodide's request for the standard library gets the slim one the snapshot was taken with.
  for (const [name, file] of [["pyodide-lock.json", "pyodide-lock.json"], ["python_stdlib.zip", STDLIB_SLIM]]) {
    const response = fetch(indexURL + file);
    response.catch(() => {});
    early.set(indexURL + name, response);
  }
  const lock = early.get(indexURL + "pyodide-lock.json").then((r) => {
    if (!r.ok) throw new Error(`pyodide-lock.json: HTTP ${r.status}`);
    return r.clone().json();
  });
  async function during(fn) {
    const realFetch = self.fetch;
    const realInstantiate = WebAssembly.instantiateStreaming;
    self.fetch = (input, init) => {
      const key = String(input);
      if (key === url) return Promise.resolve(new Response(new ArrayBuffer(0)));
      const response = early.get(key);
      if (response) {
        early.delete(key);   // each early response is handed out once; a failed one is asked for again
        return response.then((r) => (r.ok ? r : realFetch.call(self, input, init)),
                             () => realFetch.call(self, input, init));
      }
      return realFetch.call(self, input, init);
    };
    WebAssembly.instantiateStreaming = async (source, imports) => {
      let module;
      try {
        module = await compiled;
      } catch (err) {
        console.warn("tapegrad boot: compiling pyodide.asm.wasm early failed:", err);
        return realInstantiate.call(WebAssembly, realFetch.call(self, url), imports);
      }
      const instance = await WebAssembly.instantiate(module, imports);
      marks.wasmInstantiated = performance.now();
      return { module, instance };
    };
    try {
      return await fn();
    } finally {
      self.fetch = realFetch;
      WebAssembly.instantiateStreaming = realInstantiate;
    }
  }
  // A plain start (the snapshot not used) takes Pyodide's own standard library, the full one.
  const plainStart = () => early.delete(indexURL + "python_stdlib.zip");
  return { during, lock, compiled, plainStart };
}

/**
 * Runs fn (the loadPyodide call) with Pyodide's restore of the heap followed by the linking of
 * `libraries` ({record, modules}); resolves to fn's result. `snapshot`: what the restore restores,
 * a sparseSnapshot buffer (snapshot-file.js). Both may be promises: loadPyodide needs only the
 * snapshot's length (fn passes it a buffer of that length as _loadSnapshot), so Pyodide's module
 * is instantiated and set up while they arrive, and they are awaited just before the restore.
 * Needs pyodide.asm.js loaded (it defines _createPyodideModule, which loadPyodide calls and this
 * wraps). Also used under Node (build/bench_boot.mjs).
 */
export async function withLinkedLibraries(libraries, snapshot, marks, fn) {
  const create = globalThis._createPyodideModule;
  globalThis._createPyodideModule = async (settings) => {
    const Module = await create(settings);
    marks.moduleReady = performance.now();
    const [linking, full] = await Promise.all([libraries, snapshot]);
    const restore = settings.API.restoreSnapshot;
    settings.API.restoreSnapshot = () => {
      marks.restoreStarted = performance.now();
      const header = sparseHeader(full);   // a sparseSnapshot: Pyodide reads the header only
      const result = restore(header ?? full);
      if (header) restoreSparse(Module.HEAP8, full);
      marks.heapRestored = performance.now();
      restoreLibraries(Module, linking.record, linking.modules);
      marks.librariesLinked = performance.now();
      return result;
    };
    return Module;
  };
  try {
    return await fn();
  } finally {
    globalThis._createPyodideModule = create;
  }
}

/** New files in site-packages: refresh that folder's finder. (Not importlib.invalidate_caches(),
 * which imports importlib.metadata: 0.3 s warm, 0.8 s cold, measured.) */
function refreshFinder(pyodide) {
  pyodide.runPython(`
import sys
_finder = sys.path_importer_cache.get(${JSON.stringify(pyodide._api.sitepackages)})
if _finder is not None:
    _finder.invalidate_caches()
del _finder
`);
}

// A build file the service worker did not keep for offline use, asked for with the network off,
// is answered 503 with this header (web/src/offline/service-worker.js).
export const NOT_KEPT_HEADER = "x-tapegrad-offline";
// The standard library the snapshot was taken with: python_stdlib.zip without the modules nothing
// the page runs imports (build/build_dist.py STDLIB_SLIM); the full one is fetched when a program
// imports one of those (web/python/_tapegrad_boot.py LeftOutStdlib).
export const STDLIB_SLIM = "python_stdlib_slim.zip";

/** A wheel's bytes, downloaded synchronously (a worker may): Python needs its files now. Throws
 * an error naming `name` and why (offline: not kept for offline use). */
function downloadNow(url, name) {
  const xhr = new XMLHttpRequest();
  xhr.open("GET", url, false);
  xhr.responseType = "arraybuffer";
  try {
    xhr.send(null);
  } catch (err) {
    throw new Error(`the files of ${name} could not be downloaded (${err?.message ?? err})`);
  }
  if (xhr.getResponseHeader(NOT_KEPT_HEADER) === "not-kept") {
    throw new Error(`${name} was not kept for offline use, and this page is offline ("Keep for offline use" ` +
                    "in the menu keeps everything, online)");
  }
  if (xhr.status !== 200) throw new Error(`the files of ${name} could not be downloaded (${url}: HTTP ${xhr.status})`);
  return new Uint8Array(xhr.response);
}

/**
 * The files of the packages the snapshot holds imported (and of the `later` ones), written on
 * demand: their modules are in the restored heap already, so the files matter only to what needs
 * them: a module imported later, the engine's kernel library (web/python/_tapegrad_boot.py
 * decides when; a traceback's source lines show once they are written). `ensure(importName)` downloads the package's wheel
 * then and there (synchronously: Python is waiting) and writes its files. Nothing is downloaded
 * that the code did not ask for.
 */
function filesOnDemand(pyodide, lock, names, indexURL, marks) {
  const written = new Set();
  const byImport = new Map(names.flatMap((name) => lock.packages[name].imports.map((i) => [i, name])));
  function ensure(importName) {
    const name = byImport.get(importName);
    if (!name || written.has(name)) return;
    const entry = lock.packages[name];
    const url = indexURL + entry.file_name;
    const t0 = performance.now();
    const bytes = downloadNow(url, name);
    // A synchronous request has no integrity option: the wheel's hash is checked as soon as the
    // browser can (crypto.subtle is asynchronous), and a mismatch is reported.
    crypto.subtle.digest("SHA-256", bytes).then((d) => {
      const hex = [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
      if (hex !== entry.sha256) console.error(`tapegrad boot: ${url} does not match its sha256 in the lock file`);
    }, () => {});
    const t1 = performance.now();
    writeWheelFiles(pyodide, bytes);   // its libraries are linked already, or opened on import
    written.add(name);
    marks.downloadOnDemandMs = (marks.downloadOnDemandMs ?? 0) + t1 - t0;
    marks.unpackMs = (marks.unpackMs ?? 0) + performance.now() - t1;
  }
  // web/python/_tapegrad_boot.py, imported in the snapshot: reseeds random, and has ensure called
  // on the first import or kernel library that needs a package's files.
  // The full standard library, for a module the slim one left out: written to `path`.
  const fetchFull = (path) => {
    const t0 = performance.now();
    pyodide.FS.writeFile(path, downloadNow(indexURL + "python_stdlib.zip", "the full standard library"));
    marks.downloadOnDemandMs = (marks.downloadOnDemandMs ?? 0) + performance.now() - t0;
  };
  const boot = pyodide.pyimport("_tapegrad_boot");
  const importNames = pyodide.toPy([...byImport.keys()]);
  boot.after_restore(ensure, importNames, pyodide._api.sitepackages, fetchFull);
  importNames.destroy();
  boot.destroy();
  for (const name of names) pyodide.loadedPackages[name] = "default channel";   // never through loadPackage
  return { written };
}

/**
 * The boot's downloads, started at once: the page's (boot-downloads.js, started by its first
 * script) or ours; the lock, the snapshot read into a heap-sized buffer, the libraries it links;
 * `fetchWheels(names)` downloads the wheels of `names` and their dependencies.
 */
function startDownloads({ indexURL, cache, fromPage, marks }) {
  const ours = () => startBootDownloads(indexURL, cache, marks);
  const downloads = fromPage ? fromPage.downloads(cache, ours) : ours();
  const early = startEarly(indexURL, marks, downloads.wasm);
  const lock = early.lock;
  lock.catch(() => {});
  const snapshotURL = indexURL + "snapshot.bin";
  // Pyodide sizes its heap by the snapshot's length (snapshot-libs.json has it) and is started
  // while the file arrives: the file fills this buffer, read just before the restore.
  const heap = downloads.record.then((record) => {
    if (!Number.isInteger(record.snapshotLength)) throw new Error("snapshot-libs.json gives no snapshotLength");
    return new Uint8Array(record.snapshotLength);
  });
  const snapshot = Promise.all([heap, downloads.snapshot]).then(([into, { bytes, cached }]) => {
    if (!cached) cache.keep(snapshotURL, bytes, BYTES);
    return sparseSnapshot(bytes, into);
  });
  heap.catch(() => {});
  snapshot.catch(() => {});
  const fetchWheels = (names) => lock.then((l) => installOrder(l, names).map((name) => {
    const entry = l.packages[name];
    const bytes = fetchBytes(indexURL + entry.file_name, integrityOf(entry.sha256));
    bytes.catch(() => {});           // a failed download is handled at install time
    return { name, bytes };
  }));
  // downloads.libraries: if it fails, the snapshot is not used (startInterpreter)
  return { downloads, early, lock, heap, snapshot, libraries: downloads.libraries, fetchWheels };
}

/**
 * Loads Pyodide's JavaScript halves. pyodide.asm.js (1.3 MB) is loaded with importScripts, which
 * holds this thread until the file has arrived and run. When this thread compiles
 * pyodide.asm.wasm, the streaming compilation needs it to take in its bytes (a trace showed it
 * stalled for 0.5 s behind importScripts): then the file is downloaded now, into the HTTP cache,
 * and run once the compilation is over. When the page compiles it, it runs at once.
 */
async function loadPyodideScripts({ indexURL, early, fromPage, marks }) {
  if (typeof self.loadPyodide !== "function") importScripts(indexURL + "pyodide.js");
  if (typeof self._createPyodideModule !== "function" && typeof importScripts === "function") {
    if (!fromPage) {
      const asmJs = fetch(indexURL + "pyodide.asm.js").then((r) => r.arrayBuffer());
      await Promise.allSettled([early.compiled, asmJs]);
    }
    importScripts(indexURL + "pyodide.asm.js");
    marks.asmJsLoaded = performance.now();
  }
}

/**
 * Starts Python: restores the snapshot, else (it failed to load or link) a plain start. Returns
 * {pyodide, snapshotUsed, inSnapshot}: the names of the packages the snapshot holds.
 */
async function startInterpreter({ indexURL, started, cache, marks, onStep }) {
  const { downloads, early, heap, snapshot, libraries } = started;
  let pyodide;
  let snapshotUsed = true;
  let inSnapshot = new Set();
  try {
    const record = await downloads.record;
    const into = await heap;
    snapshot.then(() => onStep("Starting Python with NumPy and tapegrad loaded"), () => {});
    pyodide = await early.during(() => withLinkedLibraries(libraries, snapshot, marks,
      () => self.loadPyodide({ indexURL, packages: [], _loadSnapshot: into })));
    inSnapshot = new Set(record.packages);
  } catch (err) {
    console.warn("tapegrad boot: snapshot not used:", err);
    if (cache.hits.length) await cache.forget();   // the next visit downloads them again
    onStep("Starting Python");
    snapshotUsed = false;
    early.plainStart();
    pyodide = await early.during(() => self.loadPyodide({ indexURL, packages: [] }));
  }
  marks.interpreter = performance.now();
  return { pyodide, snapshotUsed, inSnapshot };
}

/**
 * After a snapshot restore: the snapshot's packages and the `later` ones (pure Python: nothing to
 * link) have their files written on demand; any other package is installed now. Returns
 * {filesLater, fastInstall}.
 */
async function installAfterRestore({ pyodide, inSnapshot, packages, later, indexURL, started, marks }) {
  // A snapshot freezes one interpreter state: _tapegrad_boot reseeds random. (NumPy's
  // generators are not in it: numpy.random is imported on first use.)
  const l = await started.lock;
  const all = installOrder(l, [...packages, ...later]);
  const lazy = (n) => inSnapshot.has(n) || later.includes(n);
  const filesLater = filesOnDemand(pyodide, l, all.filter(lazy), indexURL, marks);
  const fastInstall = all.filter(lazy);
  const rest = all.filter((n) => !lazy(n));
  if (rest.length) {
    fastInstall.push(...(await installAll(pyodide, await started.fetchWheels(rest), marks)));
    refreshFinder(pyodide);
  }
  return { filesLater, fastInstall };
}

/**
 * Without the snapshot: the packages are downloaded and installed now, as Pyodide would (through
 * loadPackage for a wheel that is not as expected); the `later` ones start downloading. Returns
 * {laterWheels, fastInstall}.
 */
async function installWithoutSnapshot({ pyodide, packages, later, started, marks, onStep }) {
  onStep("Installing NumPy and tapegrad");
  pyodide.runPython("import random; random.seed()");   // in case a package seeded it at import
  let pending = [];
  try {
    pending = await started.fetchWheels(packages);
  } catch (err) {
    console.warn("tapegrad boot: falling back to loadPackage:", err);
  }
  const laterWheels = later.length ? started.fetchWheels(later) : Promise.resolve([]);
  laterWheels.catch(() => {});
  const fastInstall = await installAll(pyodide, pending, marks);
  const rest = packages.filter((p) => !(p in pyodide.loadedPackages));
  if (rest.length) await pyodide.loadPackage(rest, { messageCallback: () => {} });
  refreshFinder(pyodide);
  return { laterWheels, fastInstall };
}

/**
 * bootPyodide's `installLater()`: after a restore, stores this visit's downloads for the next one
 * and writes the packages' files; without it, installs the `later` packages.
 */
function installerOfLater({ pyodide, later, cache, filesLater, laterWheels, fastInstall, marks }) {
  return async function installLater() {
    if (filesLater) {
      // For the next visit: what this one downloaded (in memory already). The packages' files
      // are written on demand (filesOnDemand), not here.
      const stored = await cache.store();
      return { kept: stored + cache.hits.length > 0 };
    }
    let pendingLater = [];
    try {
      pendingLater = await laterWheels;
    } catch (err) {
      console.warn("tapegrad boot: falling back to loadPackage:", err);
    }
    fastInstall.push(...(await installAll(pyodide, pendingLater, marks)));
    const missing = later.filter((p) => !(p in pyodide.loadedPackages));
    if (missing.length) await pyodide.loadPackage(missing, { messageCallback: () => {} });
    refreshFinder(pyodide);
    return { kept: false };
  };
}

/**
 * Boots Pyodide with `packages` installed. Returns {pyodide, snapshotUsed, fastInstall, marks,
 * installLater}: `fastInstall` lists the packages unpacked here (the others went through
 * loadPackage), `marks` holds performance.now() times of the steps, and `installLater()` installs
 * the `later` packages (networkx, for programs that import it) without the snapshot, and after
 * a snapshot restore only stores the boot's files for the next visit (the packages' files are
 * written on demand: filesOnDemand); it resolves to {kept}: whether this build's boot
 * files are in Cache Storage for the next visit (stored now, or read from there by this boot). `onStep(text)` is told what is happening.
 * `bootCacheLookup` false: the page knows of no kept files (boot-cache.js), so none are looked for.
 *
 * The boot downloads only what the restore needs (the interpreter, the snapshot, the libraries it
 * links, the standard library) before Python runs; the wheels come after. Without the snapshot
 * (it failed to load or link) the packages are downloaded and installed before Ready, as Pyodide
 * would.
 */
export async function bootPyodide({ indexURL, packages = ["tapegrad"], later = [], onStep = () => {},
                                    bootId = null, bootCacheLookup = true, fromPage = null }) {
  const marks = { start: performance.now() };
  onStep("Downloading Python, NumPy and tapegrad");
  // This build's large files from the last visit (boot-cache.js); bootCacheLookup false: none kept.
  const cache = bootCache(bootId, { lookup: bootCacheLookup });
  const started = startDownloads({ indexURL, cache, fromPage, marks });
  await loadPyodideScripts({ indexURL, early: started.early, fromPage, marks });
  const { pyodide, snapshotUsed, inSnapshot } = await startInterpreter({ indexURL, started, cache, marks, onStep });
  marks.unpackMs = 0;
  marks.sharedLibrariesMs = 0;
  const installed = snapshotUsed
    ? await installAfterRestore({ pyodide, inSnapshot, packages, later, indexURL, started, marks })
    : await installWithoutSnapshot({ pyodide, packages, later, started, marks, onStep });
  marks.installed = performance.now();
  const { fastInstall, filesLater = null, laterWheels = Promise.resolve([]) } = installed;
  const installLater = installerOfLater({ pyodide, later, cache, filesLater, laterWheels, fastInstall, marks });
  return { pyodide, snapshotUsed, fastInstall, marks, installLater, cacheHits: cache.hits };
}
