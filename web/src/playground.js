// One playground assembled from its boxes: the editor, the console, the plots, the graph panel and
// the status line with Run and Stop, wired together. The full page (main.js) and the
// <tapegrad-playground> element (element.js) both build theirs here; they differ in the boxes
// they hand over, in their editor (the page's starts as a plain textarea, page-editor.js; the
// element's is CodeMirror at once, editor.js) and in what Run and Stop do around the run itself.
import { createGraphPanel } from "./graph/index.js";
import { membersLoader } from "./graph/members.js";
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
 *        onGraph: called before a graph document is drawn (the run's, or a training step's while
 *        the run goes on)
 * @returns {{editor, output, plots, graph, setStatus, run(runner, number): Promise<object>}}
 *        run: one run of the editor's code on `runner` (run-code.js), its results in the panels
 */
export function assemblePlayground(boxes, { editor, onRun, onStop, onGraph }) {
  const output = createConsole(boxes.console, { onGoToLine: (line) => editor.goToLine(line),
                                                onHighlightLine: (line) => editor.highlightLine(line) });
  const plots = createPlots(boxes.plot);
  let runner = null;      // the last run's: its worker lists a big tape's box members
  const panel = createGraphPanel(boxes.graph, { onHighlightLine: (line) => editor.highlightLine(line),
    loadMembers: membersLoader(() => runner?.worker ?? null) });
  const graph = {
    clear() {
      panel.clear();
      boxes.graph.dataset.liveStep = boxes.graph.dataset.step = "";
    },
    show(doc) {
      onGraph?.(doc);
      panel.show(doc);
      // which step it shows: a training step while the run goes on (data-live-step), then the
      // run's last complete one (data-step); tests/browser/test_live_graph.py watches them
      boxes.graph.dataset.liveStep = doc.live ? String(doc.live.tape + 1) : "";
      if (doc.live) boxes.graph.dataset.liveExportMs = String(doc.live.export_ms);
      boxes.graph.dataset.step = doc.representative ? String(doc.representative.tape + 1) : "";
    },
  };
  const setStatus = bindStatus(boxes.status, boxes.run, boxes.stop, boxes.stateHost);
  boxes.run.addEventListener("click", () => onRun());
  boxes.stop.addEventListener("click", () => onStop());
  const parts = { editor, output, plots, graph };
  return { ...parts, setStatus, run: (r, number) => runCode({ runner: (runner = r), ...parts }, number) };
}
