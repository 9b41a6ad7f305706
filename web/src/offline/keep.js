// Keeps the playground for offline use (service-worker.js): the page registers its service worker
// once the first visit's first run has settled (the "tapegrad:settled" mark: the boot's work after
// that run is done), so that keeping the files never competes with the boot or the first run.
// Not in ?embed=1 pages (early-boot.js returns before), nor with Save-Data on, nor where the
// browser has no service workers (a page served over plain http from another host than
// localhost). <html data-offline> says where it stands: "keeping", "ready" (this build's files
// are kept: the page works offline), "off" (not kept, and why in data-offline-why).

const SETTLED = "tapegrad:settled";

/** Registers `scriptUrl` (dist/sw.js) once the page's first run has settled. */
export function keepForOffline(scriptUrl) {
  const root = document.documentElement;
  const off = (why) => { root.dataset.offline = "off"; root.dataset.offlineWhy = why; };
  if (!("serviceWorker" in navigator)) return off("this browser has no service workers here");
  if (navigator.connection?.saveData) return off("Save-Data is on");
  whenMarked(SETTLED, () => {
    root.dataset.offline = "keeping";
    navigator.serviceWorker.register(scriptUrl, { updateViaCache: "none" })
      .then((reg) => activated(reg.installing ?? reg.waiting ?? reg.active))
      .then(() => { root.dataset.offline = "ready"; },
            // e.g. offline, where the update check fails: the kept build still answers
            (err) => (navigator.serviceWorker.controller ? (root.dataset.offline = "ready")
                                                          : off(String(err?.message ?? err))));
  });
}

/** Resolves when `worker` is active (its files kept), rejects if it was dropped. */
function activated(worker) {
  return new Promise((resolve, reject) => {
    if (!worker) return reject(new Error("no service worker was installed"));
    const check = () => {
      if (worker.state === "activated") resolve();
      else if (worker.state === "redundant") reject(new Error("the service worker could not keep the files"));
    };
    worker.addEventListener("statechange", check);
    check();
  });
}

/** Calls `then` once the performance mark `name` exists (made now or later). */
function whenMarked(name, then) {
  if (performance.getEntriesByName(name, "mark").length) return then();
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntriesByName(name).length) return;
    observer.disconnect();
    then();
  });
  observer.observe({ type: "mark", buffered: true });
}

/** "Clear my data": the service worker is unregistered and the kept files deleted (a later visit
 * keeps them again). Resolves to how many caches were deleted. */
export async function forgetOffline() {
  try {
    const regs = (await navigator.serviceWorker?.getRegistrations()) ?? [];
    await Promise.all(regs.map((r) => r.unregister()));
    const names = (await caches.keys()).filter((n) => n.startsWith("tapegrad-offline-"));
    await Promise.all(names.map((n) => caches.delete(n)));
    delete document.documentElement.dataset.offline;
    return names.length;
  } catch {
    return 0;
  }
}
