// The "Tape | graph of f" bar above the graph: shown only when the run traced tf.functions (the
// graph message's field `functions`, tapegrad.graph.function_view). "Tape" draws the run's tape;
// "graph of f" draws one of f's concrete functions (a graph document like the tape's, without
// gradient calls), chosen in a select listing f's traces in order, each retrace marked.

import { html, setText } from "./dom.js";

/**
 * @param {{onView(doc): void}} actions  onView: draw this graph document (the tape's or a trace's)
 * @returns {{el, set(doc | null): void, view: string}}
 */
export function createFunctionsBar({ onView }) {
  const buttons = html("span", { class: "tg-graph-modes", role: "group", "aria-label": "graph shown" });
  const traceSelect = html("select", { "data-testid": "function-trace-select", "aria-label": "concrete function" });
  const traceLabel = html("label", { class: "tg-graph-trace-label" }, ["concrete function ", traceSelect]);
  const el = html("div", { class: "tg-graph-views", "data-testid": "graph-views", hidden: true },
    [buttons, traceLabel]);
  let tapeDoc = null;
  let functions = [];
  let shown = "tape";     // "tape" or the index of a function, as a string

  function choose(which, trace = 0) {
    shown = which;
    for (const b of buttons.children) b.setAttribute("aria-pressed", String(b.dataset.view === which));
    el.dataset.view = which;
    if (which === "tape") {
      traceLabel.hidden = true;
      onView(tapeDoc);
      return;
    }
    const fn = functions[Number(which)];
    traceSelect.replaceChildren(...fn.traces.map((t, i) => html("option", { value: String(i) }, [t.text])));
    traceSelect.value = String(trace);
    traceSelect.disabled = fn.traces.length <= 1;
    traceSelect.title = fn.traces[trace].text;
    traceLabel.hidden = false;
    onView(fn.traces[trace].graph);
  }

  traceSelect.addEventListener("change", () => choose(shown, Number(traceSelect.value)));

  return {
    el,
    get view() { return shown; },
    /** A new run's graph document: the bar lists its functions (hidden without any). */
    set(doc) {
      tapeDoc = doc;
      functions = (doc && Array.isArray(doc.functions)) ? doc.functions : [];
      shown = "tape";
      el.dataset.view = "tape";
      const tab = (view, text, title) => {
        const b = html("button", { type: "button", class: "tg-graph-mode", "data-view": view,
          "data-testid": view === "tape" ? "graph-view-tape" : "graph-view-function",
          "aria-pressed": String(view === "tape"), title }, [text]);
        b.addEventListener("click", () => { if (shown !== view) choose(view); });
        return b;
      };
      buttons.replaceChildren(tab("tape", "Tape", "the run's tape"),
        ...functions.map((f, i) => tab(String(i), `graph of ${f.name}`,
          `the graph tf.function traced for ${f.name}, one per concrete function`)));
      traceLabel.hidden = true;
      setText(traceSelect, "");
      el.hidden = functions.length === 0;
    },
  };
}
