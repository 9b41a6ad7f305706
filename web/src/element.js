// <tapegrad-playground>: a runnable snippet for documentation pages, included with one tag:
//
//   <script src="/tapegrad-playground.js"></script>
//   <tapegrad-playground readonly>
//     <script type="text/x-python">...code, written as is...</script>
//   </tapegrad-playground>
//
// The code is the element's text (or that of a <script type="text/x-python"> child, so `<` needs
// no escaping), dedented. `readonly` makes the editor read-only (Run still works). Python boots
// only on the first Run; all elements on a page share one worker and run one at a time.
// The element's stylesheet and the worker are found next to this script.
import "../styles/element.css";
import { el } from "./dom.js";
import { createEditor } from "./editor.js";
import { assemblePlayground } from "./playground.js";
import { PythonRunner } from "./runner.js";
import { plainFragment } from "./share.js";

const SCRIPT_URL = document.currentScript?.src ?? location.href;
const base = (rel) => new URL(rel, SCRIPT_URL).href;

let runner = null;           // shared by every element, made on the first Run
let active = null;           // the element whose run is in progress
const elements = new Set();

function sharedRunner() {
  runner ??= new PythonRunner(base("assets/worker.js"), (state, detail) => {
    // Booting and failing concern every element; running and stopping only the active one.
    if (state === "running" || state === "stopping") active?.setStatus(state, detail);
    else for (const e of elements) e.setStatus(state, detail);
  });
  return runner;
}

/** Removes the indentation the surrounding HTML gave the code, and blank edge lines. */
export function dedent(text) {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  while (lines.length && !lines[0].trim()) lines.shift();
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  const indents = lines.filter((l) => l.trim()).map((l) => l.match(/^[ \t]*/)[0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(cut)).join("\n") + "\n";
}

function ensureStylesheet() {
  const href = base("tapegrad-playground.css");
  if (!document.querySelector(`link[data-tapegrad-playground]`)) {
    document.head.append(el("link", { rel: "stylesheet", href, "data-tapegrad-playground": "" }));
  }
}

class TapegradPlayground extends HTMLElement {
  #built = false;
  #runs = 0;
  #busy = false;       // Run clicked, until its run ends (it may wait behind another element's)
  #running = false;    // its run has started in the worker and not yet ended

  connectedCallback() {
    elements.add(this);
    if (this.#built) return;
    // With the script in <head>, the parser upgrades the element before its code is parsed.
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", () => this.connectedCallback(), { once: true });
      return;
    }
    this.#built = true;
    ensureStylesheet();
    const source = this.querySelector('script[type="text/x-python"]')?.textContent ?? this.textContent;
    const code = dedent(source);
    this.replaceChildren();
    this.classList.add("tgp");

    const runButton = el("button", { type: "button", class: "tgp-run", "data-testid": "run",
                                     title: "Run (Ctrl+Enter)" }, "▶ Run");
    const stopButton = el("button", { type: "button", class: "tgp-stop", "data-testid": "stop", disabled: true }, "■ Stop");
    const status = el("span", { class: "tgp-status", role: "status", "aria-live": "polite" });
    const open = el("a", { class: "tgp-open", href: base("./"), target: "_blank", rel: "noopener" }, "Open in playground ↗");
    const editorBox = el("div", { class: "tgp-editor", "data-testid": "editor" });
    const consoleBox = el("div", { class: "tgp-console", "data-testid": "console" });
    const plotBox = el("div", { class: "tgp-plot", "data-testid": "plot" });
    const graphBox = el("div", { class: "tgp-graph", "data-testid": "graph" });
    const outputs = el("div", { class: "tgp-outputs", hidden: true }, consoleBox, plotBox);
    const graphWrap = el("div", { class: "tgp-graph-wrap", hidden: true }, graphBox);
    this.append(el("div", { class: "tgp-toolbar" }, runButton, stopButton, status, open),
                editorBox, outputs, graphWrap);

    const editor = createEditor(editorBox, {
      doc: code, readOnly: this.hasAttribute("readonly"), label: "Python example code",
      fontSize: "13px", maxHeight: "420px", onRun: () => this.run(),
    });
    this.playground = assemblePlayground({
      console: consoleBox, plot: plotBox, graph: graphBox,
      status, run: runButton, stop: stopButton, stateHost: this,
    }, {
      editor,
      onRun: () => this.run(),
      onStop: () => { if (this.#running) runner?.stop(); },
      onGraph: (doc) => { graphWrap.hidden = doc.nodes.length === 0; },
    });
    this.editor = this.playground.editor;
    this.setStatus = this.playground.setStatus;
    this.setStatus("idle", { text: "Python starts on the first Run" });
    open.addEventListener("click", () => { open.href = base("./") + plainFragment(this.editor.getCode()); });
  }

  disconnectedCallback() {
    elements.delete(this);
  }

  async run() {
    if (this.#busy) return;
    this.#busy = true;
    this.querySelector(".tgp-outputs").hidden = false;
    const r = sharedRunner();
    // Queued behind other elements' runs: this element becomes the active one only when the
    // worker actually starts its run.
    const started = () => { active = this; this.#running = true; };
    const runner_ = { run: (code, sink) => r.run(code, { ...sink, started }) };
    this.#runs += 1;
    try {
      const status = await this.playground.run(runner_, this.#runs);
      this.dataset.runs = String(this.#runs);
      this.dataset.lastRun = status.ok ? "ok" : status.interrupted ? "interrupted" : "error";
    } finally {
      this.#running = false;
      if (active === this) active = null;
      this.#busy = false;
    }
  }
}

if (!customElements.get("tapegrad-playground")) {
  customElements.define("tapegrad-playground", TapegradPlayground);
}
