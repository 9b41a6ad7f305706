// Keeps the playground for offline use (service-worker.js): the page registers its service worker
// once the first visit's first run has settled (the "tapegrad:settled" mark: the boot's work after
// that run is done), so that keeping the files never competes with the boot or the first run. The
// worker keeps what the visit used (the page, the default example and the engine then work
// offline); the packages other examples import are kept only when the user asks: "Keep for
// offline use" in the page's menu (#keep-offline), or the page opened with ?offline=all.
// Not in ?embed=1 pages (early-boot.js returns before), nor with Save-Data on, nor where the
// browser has no service workers (a page served over plain http from another host than
// localhost). <html data-offline> says where it stands: "keeping", "ready" (this build's files
// are kept: the page works offline), "off" (not kept, and why in data-offline-why);
// <html data-offline-all>: "keeping", "ready" (every package kept too), "failed".
import { handlerOf, toServiceWorker } from "../messages.js";

const SETTLED = "tapegrad:settled";

/** Registers `scriptUrl` (dist/sw.js) once the page's first run has settled (at once when the
 * user asks to keep everything), and puts "Keep for offline use" in the page's menu. */
export function keepForOffline(scriptUrl) {
  const root = document.documentElement;
  const off = (why) => { root.dataset.offline = "off"; root.dataset.offlineWhy = why; };
  if (!("serviceWorker" in navigator)) return off("this browser has no service workers here");
  if (navigator.connection?.saveData) return off("Save-Data is on");
  let registered = null;
  const register = () => {
    registered ??= (root.dataset.offline = "keeping", navigator.serviceWorker.register(scriptUrl, { updateViaCache: "none" })
      .then((reg) => activated(reg.installing ?? reg.waiting ?? reg.active).then(() => reg)));
    return registered;
  };
  const keepAll = () => {
    root.dataset.offlineAll = "keeping";
    return register().then((reg) => ask(reg.active, (sw, port) => toServiceWorker(sw, "keep-all", {}, [port])))
      .then((answer) => { root.dataset.offlineAll = answer.type === "kept-all" ? "ready" : "failed"; },
            () => { root.dataset.offlineAll = "failed"; });
  };
  whenMarked(SETTLED, () => {
    register().then(() => { root.dataset.offline = "ready"; },
                    // e.g. offline, where the update check fails: the kept build still answers
                    (err) => (navigator.serviceWorker.controller ? (root.dataset.offline = "ready")
                                                                  : off(String(err?.message ?? err))));
    if (new URLSearchParams(location.search).get("offline") === "all") keepAll();
  });
  const controller = navigator.serviceWorker.controller;
  if (controller) {
    ask(controller, (sw, port) => toServiceWorker(sw, "keep-status", {}, [port])).then((s) => { if (s.all) root.dataset.offlineAll = "ready"; }, () => {});
  }
  document.addEventListener("DOMContentLoaded", () => addKeepButton(keepAll), { once: true });
}

/** "Keep for offline use" in the page's menu, before "Clear my data"; its label follows
 * <html data-offline-all>. */
function addKeepButton(keepAll) {
  const menu = document.getElementById("more-menu");
  if (!menu) return;
  const root = document.documentElement;
  const button = document.createElement("button");
  button.type = "button";
  button.id = "keep-offline";
  button.dataset.testid = "keep-offline";
  button.className = "quiet";
  const label = () => {
    const state = root.dataset.offlineAll;
    button.textContent = { keeping: "Keeping for offline use…", ready: "Kept for offline use" }[state] ?? "Keep for offline use";
    button.disabled = state === "keeping" || state === "ready";
    button.title = state === "failed" ? "Keeping every package failed: try again online"
      : "Keep every package the examples use, so that all of them work offline (about 18 MB)";
  };
  button.addEventListener("click", keepAll);
  new MutationObserver(label).observe(root, { attributes: true, attributeFilter: ["data-offline-all"] });
  label();
  menu.insertBefore(button, document.getElementById("clear-data"));
}

/** Has `send(worker, port)` post a message to a service worker; resolves to its answer on
 * `port` (checked against the table). */
function ask(worker, send) {
  return new Promise((resolve, reject) => {
    if (!worker) return reject(new Error("no active service worker"));
    const channel = new MessageChannel();
    const answer = (message) => resolve(message);
    channel.port1.onmessage = (ev) => handlerOf("sw", { "kept-all": answer, "keep-failed": answer, "kept-status": answer })(ev.data);
    send(worker, channel.port2);
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
    delete document.documentElement.dataset.offlineAll;
    return names.length;
  } catch {
    return 0;
  }
}
