// The playground's service worker (dist/sw.js, built by web/build.mjs): keeps what a visit used so
// that, after one visit, the page, its default example and the engine work with the network off;
// the packages only other examples import are kept when the user asks.
//
// - Installed once the first visit's first run has settled (offline/keep.js), it keeps, in the
//   cache "tapegrad-offline-<version>", this build's own files (OFFLINE.files but the wheels: the
//   page, its scripts, Pyodide, the snapshot and its libraries), skipping those this build's boot
//   cache already holds (boot-cache.js keeps the largest ones, decompressed): the visit has just
//   downloaded them, so they come from the browser's HTTP cache. Of the wheels it keeps only those
//   the visit downloaded (read from the HTTP cache alone: "only-if-cached"); then every build file
//   a later request fetches through it is kept as it passes (an example that imported networkx
//   online works offline after).
// - The other wheels (matplotlib and its dependencies, the packages' files the visit never
//   needed) and the full standard library are kept only when the user asks: "Keep for offline use" in the page's menu, or the
//   page opened with ?offline=all (the page posts "keep-all"). A cache that holds them all says so
//   (KEEP_ALL), and the next build's worker keeps them all too.
// - Online, every request goes to the network as before (the HTTP cache and the server's
//   immutable/no-cache headers decide); only when the network fails does the answer come from
//   the caches, a page navigation (any ?example=) from the kept page. A build file that was not
//   kept is then answered 503 with NOT_KEPT (the worker names the package: not kept for offline use).
// - A new build is a new version (a hash of the files' bytes): the new worker installs its own
//   cache, takes over at once and deletes the caches of other versions.
import { fromServiceWorker, handlerOf } from "../messages.js";

/* global __OFFLINE__ */
const OFFLINE = __OFFLINE__;
const PREFIX = "tapegrad-offline-";
const CACHE = PREFIX + OFFLINE.version;
const SCOPE = self.registration.scope;
const PAGE = new URL("./", SCOPE).href;
const KEEP_ALL = new URL("__tapegrad_keep_all__", SCOPE).href;   // a marker entry, never a request
const NOT_KEPT = "x-tapegrad-offline";                             // web/src/pyodide-boot.js NOT_KEPT_HEADER
const PARALLEL = 4;
const FILES = OFFLINE.files.map((file) => new URL(file, SCOPE).href);
// Kept as used, or when asked: the wheels, and the full standard library (the page boots with the
// slim one, python_stdlib_slim.zip, and fetches this only for a module that one left out).
const ON_REQUEST = (url) => url.endsWith(".whl") || url.endsWith("/python_stdlib.zip");
const BUILD_FILES = new Set(FILES);

self.addEventListener("install", (event) => {
  event.waitUntil(keepVisit().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(dropOtherVersions().then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || request.headers.has("range") || !request.url.startsWith(SCOPE)) return;
  if (request.url === new URL("sw.js", SCOPE).href) return;
  const navigate = request.mode === "navigate";
  event.respondWith(networkElseKept(request, navigate, event));
});

self.addEventListener("message", (event) => {
  const target = event.ports[0] ?? event.source;
  handlerOf("page-to-sw", {
    "keep-all": () => event.waitUntil(keepAll().then(
      () => fromServiceWorker(target, "kept-all"),
      (err) => fromServiceWorker(target, "keep-failed", { text: String(err?.message ?? err) }))),
    "keep-status": () => event.waitUntil(caches.open(CACHE).then((c) => c.match(KEEP_ALL))
      .then((m) => fromServiceWorker(target, "kept-status", { all: !!m }))),
  })(event.data);
});

/** The network's answer (a build file is kept as it passes); when the network fails, the kept
 * copy (the page itself for a navigation), else for a build file a 503 that says it was not kept. */
async function networkElseKept(request, navigate, event) {
  let response;
  try {
    response = await fetch(request);
  } catch (err) {
    const kept = await caches.match(navigate ? PAGE : request.url, { ignoreVary: true, ignoreSearch: navigate });
    if (kept) return kept;
    if (!BUILD_FILES.has(request.url)) throw err;
    return new Response(`${request.url} was not kept for offline use\n`,
                        { status: 503, statusText: "Not kept for offline use", headers: { [NOT_KEPT]: "not-kept" } });
  }
  if (response.status === 200 && BUILD_FILES.has(request.url)) event.waitUntil(keepPassing(request.url, response.clone()));
  return response;
}

/** A build file fetched through this worker: kept unless a cache holds it already. */
async function keepPassing(url, response) {
  try {
    const cache = await caches.open(CACHE);
    if (await cache.match(url, { ignoreVary: true }) || await (await bootCache())?.match(url, { ignoreVary: true })) return;
    await cache.put(url, response);
  } catch { /* storage full or off: the file is simply not kept */ }
}

async function bootCache() {
  const name = `tapegrad-boot-${OFFLINE.bootId}`;
  return OFFLINE.bootId && await caches.has(name) ? caches.open(name) : null;
}

/** Keeps `urls` that no cache holds yet; `onlyCached`: only those in the HTTP cache (no download). */
async function keepFiles(urls, { onlyCached = false } = {}) {
  const cache = await caches.open(CACHE);
  const boot = await bootCache();
  const queue = [...urls];
  const worker = async () => {
    for (let url = queue.shift(); url; url = queue.shift()) {
      if (await cache.match(url, { ignoreVary: true }) || await boot?.match(url, { ignoreVary: true })) continue;
      const response = await fetch(url, onlyCached ? { cache: "only-if-cached", mode: "same-origin" } : undefined)
        .catch((err) => (onlyCached ? null : Promise.reject(err)));
      if (onlyCached && response?.status !== 200) continue;   // the visit did not download it
      if (!response.ok) throw new Error(`keeping ${url} for offline use: HTTP ${response.status}`);
      await cache.put(url, response);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

/** At install: the build's own files, the wheels the visit downloaded, and every wheel when an
 * older version's cache held them all (the user asked then). */
async function keepVisit() {
  await keepFiles(FILES.filter((url) => !ON_REQUEST(url)));
  if (await keptAllBefore()) return keepAll();
  await keepFiles(FILES.filter(ON_REQUEST), { onlyCached: true });
}

/** "Keep for offline use": every file of this build, the marker last. */
async function keepAll() {
  await keepFiles(FILES);
  await (await caches.open(CACHE)).put(KEEP_ALL, new Response("all"));
}

async function keptAllBefore() {
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX) && await (await caches.open(name)).match(KEEP_ALL)) return true;
  }
  return false;
}

async function dropOtherVersions() {
  const names = await caches.keys();
  await Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n)));
}
