// The playground's service worker (dist/sw.js, built by web/build.mjs): keeps this build's files
// so that, after one visit, the page, its examples and the engine work with the network off.
//
// - Installed once the first visit's first run has settled (offline/keep.js), it fetches this
//   build's files (OFFLINE.files: the page, its scripts, Pyodide, the snapshot and every wheel
//   the examples import) into the cache "tapegrad-offline-<version>", skipping those this
//   build's boot cache already holds (boot-cache.js keeps the largest ones, decompressed). Most
//   come from the browser's HTTP cache: the visit has just downloaded them.
// - Online, every request goes to the network as before (the HTTP cache and the server's
//   immutable/no-cache headers decide); only when the network fails does the answer come from
//   the caches, a page navigation (any ?example=) from the kept page.
// - A new build is a new version (a hash of the files' bytes): the new worker installs its own
//   cache, takes over at once and deletes the caches of other versions.
/* global __OFFLINE__ */
const OFFLINE = __OFFLINE__;
const PREFIX = "tapegrad-offline-";
const CACHE = PREFIX + OFFLINE.version;
const SCOPE = self.registration.scope;
const PAGE = new URL("./", SCOPE).href;
const PARALLEL = 4;

self.addEventListener("install", (event) => {
  event.waitUntil(keepFiles().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(dropOtherVersions().then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || request.headers.has("range") || !request.url.startsWith(SCOPE)) return;
  if (request.url === new URL("sw.js", SCOPE).href) return;
  const navigate = request.mode === "navigate";
  event.respondWith(networkElseKept(request, navigate));
});

/** The network's answer; when the network fails, the kept copy (the page itself for a navigation). */
async function networkElseKept(request, navigate) {
  try {
    return await fetch(request);
  } catch (err) {
    const kept = await caches.match(navigate ? PAGE : request.url, { ignoreVary: true, ignoreSearch: navigate });
    if (kept) return kept;
    throw err;
  }
}

/** Fetches every file of this build that no cache holds yet into this version's cache. */
async function keepFiles() {
  const cache = await caches.open(CACHE);
  const bootName = `tapegrad-boot-${OFFLINE.bootId}`;
  const boot = OFFLINE.bootId && await caches.has(bootName) ? await caches.open(bootName) : null;
  const queue = OFFLINE.files.map((file) => new URL(file, SCOPE).href);
  const worker = async () => {
    for (let url = queue.shift(); url; url = queue.shift()) {
      if (await cache.match(url, { ignoreVary: true }) || await boot?.match(url, { ignoreVary: true })) continue;
      const response = await fetch(url);
      if (!response.ok) throw new Error(`keeping ${url} for offline use: HTTP ${response.status}`);
      await cache.put(url, response);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

async function dropOtherVersions() {
  const names = await caches.keys();
  await Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n)));
}
