// One notebook cell on the page: a Markdown cell shows its text rendered (double-click or Enter
// edits it, Shift+Enter renders it again), a code cell has the page's code editor (code-editor.js)
// and, under it, its run's output, figures, live training chart and tape graph. Shift+Enter runs
// a cell (`onRunKey`); Escape leaves its editor for the cell itself (`onEscape`: editing.js).
import { el } from "../dom.js";
import { createGraphPanel } from "../graph/index.js";
import { handlerOf } from "../messages.js";
import { createTrainingPlot } from "../training-plot.js";
import { createCodeEditor } from "./code-editor.js";
import { createOutputs, outputText } from "./ipynb.js";
import { renderMarkdown } from "./markdown.js";

function fitHeight(area) {
  area.style.height = "auto";
  area.style.height = `${area.scrollHeight + 2}px`;
}

/** A Markdown cell: rendered; double-click (or Enter on it) to edit, Shift+Enter to render again. */
export function markdownCell(cell, { onRunKey, onChange, onEscape }) {
  const shown = el("div", { class: "nb-markdown", tabindex: "0", role: "document", "aria-label": "Markdown",
                            title: "Double-click or Enter to edit" });
  const area = el("textarea", { class: "nb-source", spellcheck: "true", "aria-label": "Markdown cell", rows: "1" });
  area.value = cell.source;
  area.hidden = true;
  const root = el("div", { class: "nb-cell nb-cell-markdown", "data-cell": "markdown" }, shown, area);
  const render = () => {
    const nodes = renderMarkdown(cell.source);
    shown.replaceChildren(...(nodes.length ? nodes : [el("p", { class: "nb-empty" }, "Empty Markdown cell: double-click to write in it.")]));
  };
  area.addEventListener("input", () => { fitHeight(area); cell.source = area.value; onChange(); });
  area.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && ev.shiftKey) {
      ev.preventDefault();
      onRunKey(api);   // runs it: renders the text again
    } else if (ev.key === "Escape") {
      ev.preventDefault();
      api.run();
      onEscape(api);
    }
  });
  shown.addEventListener("dblclick", () => api.edit());
  render();
  const api = {
    cell, root,
    run() { render(); area.hidden = true; shown.hidden = false; return Promise.resolve({ ok: true }); },
    focus: () => (area.hidden ? shown : area).focus(),
    edit() { area.hidden = false; shown.hidden = true; fitHeight(area); area.focus(); },
    destroy() {},
  };
  return api;
}

/** A code cell; `run(runner, notebook, count)` runs it on the runner in the notebook's session. */
export function codeCell(cell, { onRunKey, onChange, onEscape }) {
  const prompt = el("span", { class: "nb-prompt", "aria-hidden": "true" }, cell.count ? `[${cell.count}]` : "[ ]");
  const slot = el("div", { class: "nb-editor" });
  const out = el("div", { class: "nb-output", "data-testid": "cell-output", "aria-live": "polite" });
  const chart = createTrainingPlot();
  const graphBox = el("div", { class: "nb-graph graph", hidden: true, "data-testid": "cell-graph" });
  const root = el("div", { class: "nb-cell nb-cell-code", "data-cell": "code" },
                  el("div", { class: "nb-input" }, prompt, slot), out, chart.element, graphBox);
  const editor = createCodeEditor(slot, {
    source: cell.source,
    label: "Code cell",
    onChange: (code) => { cell.source = code; onChange(); },
    keys: [{ key: "Shift-Enter", run: () => { onRunKey(api); return true; } }],
    onEscape: () => onEscape(api),
  });
  let panel = null;
  const shown = createShown(out);
  for (const o of cell.outputs) shown.saved(o);

  const api = {
    cell, root,
    focus: () => editor.focus(),
    edit: () => editor.focus(),
    destroy: () => editor.destroy(),
    async run(runner, notebook, count) {
      root.dataset.state = "running";
      prompt.textContent = "[*]";
      out.replaceChildren();
      chart.clear();
      editor.clearMarks();
      panel?.clear();
      graphBox.hidden = true;
      const outputs = createOutputs();
      const sink = cellSink(shown, outputs, {
        chart,
        markError: (line) => editor.markError(line),
        showGraph(doc) {
          if (!doc.tapes?.length) return;   // the cell recorded no tape: no graph under it
          graphBox.hidden = false;
          panel ??= createGraphPanel(graphBox);
          panel.show(doc);
        },
      });
      let status;
      try {
        status = await runner.run(cell.source, sink, notebook);
      } catch (err) {
        status = { ok: false, error: { type: "BootError", line: null }, interrupted: false };
        shown.note(`Python could not start: ${err.message}`, "error");
      }
      if (status.interrupted) shown.note(`■ ${status.stopped?.text ?? "Stopped."}`, "stop");
      if (status.failed) shown.note(`Python stopped working (${status.failed}).`, "error");
      cell.outputs = outputs.outputs;
      cell.count = count;
      prompt.textContent = `[${count}]`;
      root.dataset.state = status.ok ? "done" : "error";
      onChange();
      return status;
    },
  };
  return api;
}

/** What a cell's output box shows: text (by stream), notes, figures. */
function createShown(out) {
  const text = (cls, t) => {
    const last = out.lastElementChild;
    if (last?.tagName === "PRE" && last.className === cls) last.append(t);
    else out.append(el("pre", { class: cls }, t));
  };
  return {
    text,
    note: (t, kind) => out.append(el("p", { class: `nb-note ${kind ?? ""}` }, t)),
    image: (png) => out.append(el("img", { class: "nb-figure", alt: "Figure", src: `data:image/png;base64,${png}` })),
    saved(o) {
      const png = o.data?.["image/png"];
      if (png) this.image(Array.isArray(png) ? png.join("") : png);
      const t = outputText(o);
      if (t) text(o.output_type === "error" || o.name === "stderr" ? "stderr" : "stdout", t);
    },
  };
}

/**
 * The runner's sink for one cell's run: output into the cell and into its nbformat outputs, the
 * live training chart, the error's line marked in the editor, the tape graph.
 */
function cellSink(shown, outputs, { chart, markError, showGraph }) {
  const stream = (name, t) => { shown.text(name, t); outputs.stream(name, t); };
  const python = handlerOf("python", {
    output: (d) => d.parts.forEach(([name, t]) => stream(name === "stderr" ? "stderr" : "stdout", t)),
    traceback(d) {
      shown.text("stderr", d.text);
      if (d.line) markError(d.line);
      const last = d.text.trim().split("\n").pop() ?? "";
      const [type, ...msg] = last.split(": ");
      outputs.error(type, msg.join(": "), d.text);
    },
    note: (d) => shown.note(d.text),
    nones: (d) => d.items.forEach((item) => shown.note(item.line == null ? item.text : `line ${item.line}: ${item.text}`)),
    plot(d) { shown.image(d.png); outputs.image(d.png); },
    training: (d) => chart.update(d),
    weights: () => {},
    graph: (d) => { try { showGraph(d); } catch (err) { shown.note(`Could not draw the graph: ${err.message}`, "error"); } },
    "live-graph": (d) => { try { showGraph(d); } catch { /* the final graph follows */ } },
  });
  return {
    output: stream,
    info: (t) => shown.note(t),
    message: (kind, data) => python(kind, data),
  };
}
