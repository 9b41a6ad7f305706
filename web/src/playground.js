// One playground assembled from its boxes: the editor, the console, the plots, the graph panel and
// the status line with Run and Stop, wired together. The full page (main.js) and the
// <tapegrad-playground> element (element.js) both build theirs here; they differ in the boxes
// they hand over, in their editor (the page's starts as a plain textarea, page-editor.js; the
// element's is CodeMirror at once, editor.js) and in what Run and Stop do around the run itself.
import { createGraphPanel } from "./graph/index.js";
import { createConsole } from "./console.js";
import { createPlots } from "./plots.js";
import { runCode } from "./run-code.js";
import { bindStatus } from "./status.js";

/**
 * @param {{console: HTMLElement, plot: HTMLElement, graph: HTMLElement,
 *          status: HTMLElement, run: HTMLButtonElement, stop: HTMLButtonElement,
 *          stateHost?: HTMLElement}} boxes  stateHost carries data-state (default: <body>)
 * @param {{editor: object, onRun: () => void, onStop: () => void, onGraph?: (doc: object) => void}} options
 *        editor: made by the caller (editor.js's interface: getCode, setCode, marks, goToLine, focus);
 *        onGraph: called before a graph document is drawn
 * @returns {{editor, output, plots, graph, setStatus, run(runner, number): Promise<object>}}
 *        run: one run of the editor's code on `runner` (run-code.js), its results in the panels
 */
export function assemblePlayground(boxes, { editor, onRun, onStop, onGraph }) {
  const output = createConsole(boxes.console, { onGoToLine: (line) => editor.goToLine(line),
                                                onHighlightLine: (line) => editor.highlightLine(line) });
  const plots = createPlots(boxes.plot);
  const panel = createGraphPanel(boxes.graph, { onHighlightLine: (line) => editor.highlightLine(line) });
  const graph = {
    clear: () => panel.clear(),
    show(doc) {
      onGraph?.(doc);
      panel.show(doc);
    },
  };
  const setStatus = bindStatus(boxes.status, boxes.run, boxes.stop, boxes.stateHost);
  boxes.run.addEventListener("click", () => onRun());
  boxes.stop.addEventListener("click", () => onStop());
  const parts = { editor, output, plots, graph };
  return { ...parts, setStatus, run: (runner, number) => runCode({ runner, ...parts }, number) };
}
