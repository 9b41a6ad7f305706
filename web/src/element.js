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
// Scripts drive it with `await element.run(code?)` and `element.stop()`, and every run ends with
// a "tapegrad:run" event (docs/scripting.md).
// The element's stylesheet and the worker are found next to this script.
import "../styles/element.css";
import { el } from "./dom.js";
import { createEditor } from "./editor.js";
import { assemblePlayground } from "./playground.js";
import { PythonRunner } from "./runner.js";
import { announceRun, runQueue } from "./scripting.js";
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
  #queue = runQueue(); // its runs, clicked or scripted, one at a time (a run may also wait
                       // behind another element's in the shared worker)
  #running = false;    // its run has started in the worker and not yet ended
  #fixedConsole = null; // the console showing the page's pre-rendered output, until the first run

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
      fontSize: "13px", maxHeight: "420px", onRun: () => this.#clicked(),
    });
    this.playground = assemblePlayground({
      console: consoleBox, plot: plotBox, graph: graphBox,
      status, run: runButton, stop: stopButton, stateHost: this,
    }, {
      editor,
      onRun: () => this.#clicked(),
      onStop: () => this.stop(),
      onGraph: (doc) => { graphWrap.hidden = doc.nodes.length === 0; },
    });
    this.editor = this.playground.editor;
    this.setStatus = this.playground.setStatus;
    this.setStatus("idle", { text: "Python starts on the first Run" });
    this.#adoptPrerendered(outputs, graphWrap, consoleBox, graphBox);
    open.addEventListener("click", () => { open.href = base("./") + plainFragment(this.editor.getCode()); });
  }

  /**
   * A documentation page's pre-rendered output (the `.tapegrad-prerendered` block right after the
   * element, tapegrad.widget.docs_example) is shown in the element's own console and graph
   * boxes, which keep their size from then on: a run replaces their content in place, so
   * pressing Run does not move the page (its console scrolls instead of growing).
   */
  #adoptPrerendered(outputs, graphWrap, consoleBox, graphBox) {
    const pre = this.nextElementSibling;
    if (!pre?.classList.contains("tapegrad-prerendered")) return;
    const text = pre.querySelector(".tapegrad-output")?.textContent ?? "";
    const svg = pre.querySelector(".tapegrad-graph-svg svg");
    const { output } = this.playground;
    output.note("Output when this page was built (Run runs the code in your browser)", "run");
    if (text) output.output("stdout", text);
    output.settle();
    outputs.hidden = false;
    if (svg) {
      graphWrap.hidden = false;
      graphBox.append(el("div", { class: "tgp-static-graph", "data-testid": "static-graph" }, svg.cloneNode(true)));
    }
    pre.hidden = true;
    this.#fixedConsole = consoleBox;
  }

  disconnectedCallback() {
    elements.delete(this);
  }

  /** Run (the button, Ctrl+Enter): ignored while this element's run is queued or running. */
  #clicked() {
    if (this.#queue.pending === 0) this.run();
  }

  /**
   * The scripting API (docs/scripting.md): runs `code` (when given, it replaces the editor's
   * code; else the editor's code runs) after this element's runs before it, and resolves with
   * the run's result, also dispatched as a "tapegrad:run" event on the element (it bubbles).
   */
  run(code) {
    if (code !== undefined && typeof code !== "string") {
      return Promise.reject(new TypeError("run(code): code must be a string (or left out: the editor's code)"));
    }
    if (!this.#built) {
      return Promise.reject(new Error("run(): the element is not in the document yet"));
    }
    return this.#queue.enqueue(() => this.#runNow(code));
  }

  /** Stops this element's run in progress; resolves with "interrupted", "restarted" or "idle". */
  async stop() {
    return this.#running && runner ? runner.stop() : "idle";
  }

  async #runNow(code) {
    if (code !== undefined) this.editor.setCode(code);
    this.querySelector(".tgp-outputs").hidden = false;
    if (this.#fixedConsole) {     // the built output's place, kept: the run's lines replace it
      const box = this.#fixedConsole;
      box.style.height = `${box.getBoundingClientRect().height}px`;
      this.playground.output.clear();
      this.querySelector(".tgp-static-graph")?.remove();
      this.#fixedConsole = null;
    }
    const r = sharedRunner();
    // Queued behind other elements' runs: this element becomes the active one only when the
    // worker actually starts its run.
    const started = () => { active = this; this.#running = true; };
    const runner_ = { run: (source, sink) => r.run(source, { ...sink, started }), get worker() { return r.worker; } };
    this.#runs += 1;
    let status;
    try {
      status = await this.playground.run(runner_, this.#runs);
    } finally {
      this.#running = false;
      if (active === this) active = null;
    }
    this.dataset.runs = String(this.#runs);
    this.dataset.lastRun = status.result.status;
    announceRun(this, status.result);
    return status.result;
  }
}

if (!customElements.get("tapegrad-playground")) {
  customElements.define("tapegrad-playground", TapegradPlayground);
}
