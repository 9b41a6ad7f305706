// The playground page (dist/index.html): editor, Run/Stop, console, plots, the graph panel, the
// examples gallery, autosave and share links. `?embed=1` gives the compact layout for iframes
// (Python then boots on the first Run, and nothing is autosaved); `?example=<id>` opens an example.
import "../styles/playground.css";
import "../styles/dark.css";
import { EXAMPLES, createGallery, exampleById } from "./gallery.js";
import { createPageEditor } from "./page-editor.js";
import { assemblePlayground } from "./playground.js";
import { PythonRunner } from "./runner.js";
import { announceRun, runQueue } from "./scripting.js";
import { decodeFragment, encodeFragment, plainFragment } from "./share.js";
import { clearAllData, createStore } from "./storage.js";
import { clearBootCaches } from "./boot-cache.js";
import { forgetOffline } from "./offline/keep.js";
import { createNotebookMode } from "./notebook/index.js";
import { isNotebookFragment } from "./notebook/files.js";

const $ = (sel) => document.querySelector(sel);
const params = new URLSearchParams(location.search);
const embed = params.get("embed") === "1";
document.body.classList.toggle("embed", embed);

const store = embed ? null : createStore("page");
let example = exampleById(params.get("example")) ?? EXAMPLES[0];
// The editor opens with the autosaved code (unless ?example= names one), else the example's: given
// at creation, as replacing the text of a just-made editor cost ~0.15 s of a boot's main thread.
const saved = params.has("example") ? null : store?.load();
if (saved) example = exampleById(saved.example) ?? example;
let programmatic = false;     // true while the page itself replaces the code (not autosaved)
let saveTimer = 0;
let cleared = false;          // "Clear my data" was used and nothing was edited or loaded since
let runs = 0;
const queue = runQueue();     // Run clicked or scripted, one at a time (clicks while one is
                              // queued or running are ignored; scripted runs wait their turn)

// The editor is the page's own textarea until CodeMirror takes over (page-editor.js; when: below).
// It holds the default example from the first paint and may have been typed into already; unless
// early-boot.js marked other code as pending (autosaved, ?example=, a link), it keeps its text.
const area = $("[data-testid=editor] textarea");
const typedEarly = document.documentElement.dataset.code !== "pending" && area.value !== example.code;
const pageEditor = createPageEditor(area, {
  code: document.documentElement.dataset.code !== "pending" ? area.value : saved ? saved.code : example.code,
  onRun: () => run(),
  onChange: () => {
    if (programmatic || !store) return;
    cleared = false;
    clearTimeout(saveTimer);
    saveTimer = setTimeout(save, 300);
  },
});
document.documentElement.removeAttribute("data-code");   // set by early-boot.js: the text is right now
if (typedEarly) saveTimer = setTimeout(save, 300);        // edits made before this script ran
const playground = assemblePlayground({
  console: $("[data-testid=console]"), plot: $("[data-testid=plot]"),
  graph: $("[data-testid=graph]"), status: $(".status"), run: $("#run"), stop: $("#stop"),
}, {
  editor: pageEditor,
  onRun: () => run(),
  onStop: () => stop(),
});
const { editor, output, setStatus } = playground;
performance.mark("tapegrad:editorCreated");
// The worker was started by the page's first script (early-boot.js), unless this is ?embed=1.
const runner = new PythonRunner(new URL("./worker.js", import.meta.url), setStatus, self.__tapegradEarlyWorker);

// Notebook mode (web/src/notebook/): a .ipynb's cells in place of the script's panes.
const notebook = createNotebookMode({ runner, stop: () => stop(), note: (text, kind) => output.note(text, kind),
                                      toggle: $("#notebook-toggle"), embed });

function save() {
  clearTimeout(saveTimer);
  cleared = false;
  if (store) store.save(editor.getCode(), example.id);
}

/** On leaving the page: saves, unless the data was just cleared (that must stay cleared). */
function saveUnlessCleared() {
  if (!cleared) save();
}

function replaceCode(code) {
  programmatic = true;
  try {
    editor.setCode(code);
  } finally {
    programmatic = false;
  }
}

function pickExample(ex) {
  example = ex;
  editor.focus();            // first: the plain editor's replacement is undoable only when focused
  replaceCode(ex.code);
  save();
  output.note(`Loaded the example “${ex.title}” (Ctrl+Z brings your previous code back).`);
}

/** Run (the button, Ctrl+Enter): ignored while a run is queued or running. */
function run() {
  if (queue.pending === 0) queue.enqueue(() => runNow());
}

/** The scripting API's run (docs/scripting.md): after the runs before it, `code` (when given)
 * replaces the editor's code and runs; resolves with the run's result. */
function scriptedRun(code) {
  if (code !== undefined && typeof code !== "string") {
    return Promise.reject(new TypeError("tapegrad.run(code): code must be a string (or left out: the editor's code)"));
  }
  return queue.enqueue(() => runNow(code));
}

async function runNow(code) {
  if (code !== undefined) replaceCode(code);
  runs += 1;
  const status = await playground.run(runner, runs);
  document.body.dataset.runs = String(runs);
  document.body.dataset.lastRun = status.result.status;
  announceRun(window, status.result);
  setTimeout(upgradeEditorSoon, 0);   // once this run is no longer pending
  return status.result;
}

// CodeMirror (a 460 KB chunk, about 0.3 s of script on a slow machine's main thread) comes once
// Python has booted and no run is in progress, when the page is idle: earlier it would compete
// with the boot for the visitor's processor. At the latest EDITOR_LATEST_MS after the page
// started (a slow network, a boot that failed). Until then the textarea is the editor.
const EDITOR_LATEST_MS = 3000;
let pythonSettled = embed;    // the embedded page boots Python on the first Run only
let upgradeAsked = false;
function upgradeEditor() {
  if (upgradeAsked) return;
  upgradeAsked = true;
  pageEditor.upgrade().then(
    () => performance.mark("tapegrad:editorUpgraded"),
    (err) => output.note(`The code editor could not load (${err.message}); the plain one stays.`, "error"));
}
function upgradeEditorSoon() {
  if (upgradeAsked || !pythonSettled || queue.pending) return;
  if (typeof requestIdleCallback === "function") requestIdleCallback(upgradeEditor, { timeout: 500 });
  else setTimeout(upgradeEditor, 50);
}

async function stop() {
  const how = await runner.stop();
  if (how === "restarted") setStatus("booting", { step: 0, total: 3, text: "Restarting Python" });
  return how;
}

// The scripting API (docs/scripting.md): tests and autograders drive the page with it.
window.tapegrad = Object.freeze({ run: scriptedRun, stop: () => stop() });

async function share() {
  const url = location.origin + location.pathname + (await encodeFragment(editor.getCode()));
  const dialog = $("#share-dialog");
  const field = $("#share-url");
  field.value = url;
  dialog.showModal();
  field.select();
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch { /* no clipboard permission: the link is selected for Ctrl+C */ }
  $("#share-note").textContent = copied ? "Copied to the clipboard." : "Press Ctrl+C to copy it.";
}

async function loadFromFragment() {
  if (isNotebookFragment(location.hash)) return false;   // the notebook view opens it
  let code;
  try {
    code = await decodeFragment(location.hash);
  } catch (err) {
    output.note(`Could not open the shared code: ${err.message}.`, "error");
    return false;
  }
  if (code === null) return false;
  replaceCode(code);
  save();
  // The link has done its job: a reload now restores the (possibly edited) autosaved code.
  history.replaceState(null, "", location.pathname + location.search);
  output.note("Opened the code from the link.");
  return true;
}

/** The narrow-screen menu (Examples, Share, Reset, Clear my data): opens under the header. */
function bindMenu() {
  const toggle = $("#menu-toggle");
  const topbar = $(".topbar");
  const setOpen = (open) => {
    topbar.classList.toggle("menu-open", open);
    toggle.setAttribute("aria-expanded", String(open));
  };
  toggle.addEventListener("click", () => setOpen(!topbar.classList.contains("menu-open")));
  // Choosing something in it closes it (opening the gallery inside it does not).
  $("#more-menu").addEventListener("click", (ev) => {
    if (ev.target.closest("button")) setOpen(false);
  });
  document.addEventListener("click", (ev) => {
    if (!topbar.contains(ev.target)) setOpen(false);
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && topbar.classList.contains("menu-open")) {
      setOpen(false);
      toggle.focus();
    }
  });
}

async function init() {
  createGallery($("[data-testid=examples]"), pickExample);
  await loadFromFragment();
  if (!embed) await notebook.start(params);
  window.addEventListener("hashchange", loadFromFragment);
  window.addEventListener("pagehide", saveUnlessCleared);
  document.addEventListener("visibilitychange", () => { if (document.hidden) saveUnlessCleared(); });

  $("#share").addEventListener("click", () => share());
  $("#share-close").addEventListener("click", () => $("#share-dialog").close());
  $("#reset").addEventListener("click", () => {
    replaceCode(example.code);
    save();
    output.note(`Reset to the example “${example.title}”.`);
  });
  $("#clear-data").addEventListener("click", () => {
    clearTimeout(saveTimer);
    const removed = clearAllData();
    clearBootCaches();   // Python's files kept for the next visit (downloaded again then)
    forgetOffline();     // and those kept for offline use
    cleared = true;
    example = EXAMPLES[0];
    replaceCode(example.code);
    output.note(`Cleared: ${removed} saved item(s) removed from this browser; the first example is back.`);
  });
  $("#clear-console").addEventListener("click", () => output.clear());
  bindMenu();
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey) && !ev.defaultPrevented) {
      ev.preventDefault();
      run();
    }
  });
  if (embed) {
    // The full playground opens with this code (set at click time, so it carries the latest edits).
    $("#open-full").addEventListener("click", (ev) => {
      ev.currentTarget.href = location.pathname + plainFragment(editor.getCode());
    });
    setStatus("idle", { text: "Python starts on the first Run" });
  } else {
    const settled = () => { pythonSettled = true; upgradeEditorSoon(); };
    runner.start().then(settled, settled);
  }
  upgradeEditorSoon();
  setTimeout(upgradeEditor, EDITOR_LATEST_MS);
}

init();
