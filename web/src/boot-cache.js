// The boot's large files kept decompressed in the browser's Cache Storage, for the next visit.
//
// The HTTP cache keeps them as the server sent them, gzip-encoded, and a warm load inflates them
// again: the 24 MB snapshot read back from the HTTP cache took 360-540 ms, from Cache Storage as
// stored bytes 80-100 ms (same machine and load). So the first visit stores what it downloaded
// (after its first run, off the boot's path) in a cache named after this build, and a later visit
// reads from there, falling back to the network for anything missing. Caches of other builds
// are deleted when this one is stored. Any failure of the Cache API (private mode, quota) just
// means the network is used.

const PREFIX = "tapegrad-boot-";
// The page's note of which build's boot files are kept (localStorage, which a worker cannot read:
// the page hands it over in the worker's "init" message). A first visit has none, and its worker
// then goes to the network at once: opening Cache Storage in a new profile took ~0.1 s of a cold
// boot's critical path. A stale note only costs that lookup (a miss falls back to the network).
const NOTE = "tapegrad.boot-cache";

/** The build id the page's note names, or null (main thread only). */
export function keptBootId() {
  try {
    return localStorage.getItem(NOTE);
  } catch {
    return null;
  }
}

/** Notes that this build's boot files are kept (id) or that none are (null). */
export function noteKeptBoot(id) {
  try {
    if (id) localStorage.setItem(NOTE, id);
    else localStorage.removeItem(NOTE);
  } catch { /* storage switched off: the next visit looks in Cache Storage anyway */ }
}

/** Deletes every build's boot cache ("Clear my data"); resolves to how many there were. */
export async function clearBootCaches() {
  noteKeptBoot(null);
  if (typeof caches === "undefined") return 0;
  try {
    const names = (await caches.keys()).filter((n) => n.startsWith(PREFIX));
    await Promise.all(names.map((n) => caches.delete(n)));
    return names.length;
  } catch {
    return 0;
  }
}

/**
 * @param {string|null} bootId  names this build's files (null: no caching)
 * @param {{lookup?: boolean}} options  lookup false: nothing is kept from before (the page's
 *        note says so), so responses come from the network without opening the cache first
 * @returns {{response(url, init?, type?): Promise<{response: Response, cached: boolean}>,
 *            keep(url, bytes, type): void, store(): Promise<number>, forget(): Promise<void>,
 *            hits: string[]}}
 *   response: the cached response for url, else fetch(url, init) (whose bytes the caller hands to
 *   keep, to be stored); store: puts what was kept, deletes other builds' caches, returns the count.
 */
export function bootCache(bootId, { lookup = true } = {}) {
  const usable = bootId && typeof caches !== "undefined";
  const name = PREFIX + bootId;
  let opened = null;
  const open = () => (opened ??= usable ? caches.open(name).catch(() => null) : Promise.resolve(null));
  const kept = new Map();
  const hits = [];
  return {
    hits,
    async response(url, init, type) {
      const cache = lookup ? await open() : null;
      const hit = cache && await cache.match(url).catch(() => undefined);
      if (hit) {
        hits.push(url.slice(url.lastIndexOf("/") + 1));
        // A stored Response has the type it was stored with; compileStreaming needs application/wasm.
        const response = type && hit.headers.get("Content-Type") !== type
          ? new Response(hit.body, { headers: { "Content-Type": type } }) : hit;
        return { response, cached: true };
      }
      return { response: await fetch(url, init), cached: false };
    },
    keep(url, bytes, type) {
      if (usable) kept.set(url, { bytes, type });
    },
    async store() {
      const cache = await open();
      if (!cache) return 0;
      let count = 0;
      for (const [url, { bytes, type }] of kept) {
        try {
          await cache.put(url, new Response(bytes, { headers: { "Content-Type": type } }));
          count += 1;
        } catch (err) {
          console.warn(`tapegrad boot: could not keep ${url} for the next visit:`, err);
        }
      }
      kept.clear();
      try {
        for (const other of await caches.keys()) {
          if (other.startsWith(PREFIX) && other !== name) await caches.delete(other);
        }
      } catch { /* another build's cache stays; it is only space */ }
      return count;
    },
    /** Drops this build's cache (after a boot from it failed: the next visit downloads again). */
    async forget() {
      kept.clear();
      if (usable) await caches.delete(name).catch(() => {});
    },
  };
}
