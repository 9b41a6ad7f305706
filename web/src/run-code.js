// One Run, shared by the playground page and the <tapegrad-playground> element: clears the
// previous run's marks, plots and graph (console output stays), brings the console into view on a
// narrow screen, sends the code to the worker and routes what comes back to the panels, and
// gathers the run's result for the scripting API (scripting.js). Weights saved by model.save_weights go to the browser's
// storage, and every stored weights file is written into Python's file system before the run.
import { handlerOf, toWorker } from "./messages.js";
import { collectRun, runResult } from "./scripting.js";
import { saveWeightsFile, storedWeightsFiles } from "./storage.js";

/**
 * @param {{runner, editor, output, plots, graph}} parts  graph: the panel ({show, clear})
 * @param {number} number  the run's number, shown in the console
 * @returns {Promise<{ok, error, interrupted, stopped?, restarted?, result}>}  result: the
 *          scripting API's (scripting.js, docs/scripting.md)
 */
export async function runCode({ runner, editor, output, plots, graph }, number) {
  const code = editor.getCode();
  const collected = collectRun();
  editor.clearMarks();
  plots.clear();
  graph.clear();
  output.beginRun(number);
  output.note(`▶ Run ${number}`, "run");
  output.reveal();   // a narrow screen: the output is screens below Run
  const sessionFiles = runCode.files || (runCode.files = new Map());   // path -> base64, this page
  const show = panelHandlers({ editor, output, plots, graph }, sessionFiles);
  const sink = {
    started() {
      const files = new Map(storedWeightsFiles().map((f) => [f.path, f.data]));
      for (const [path, data] of sessionFiles) files.set(path, data);
      if (files.size && runner.worker) {
        toWorker(runner.worker, "files", { files: [...files].map(([path, data]) => ({ path, data })) });
      }
    },
    output(stream, text) {
      collected.output(stream, text);
      output.output(stream, text);
    },
    info: (text) => output.note(text),
    message: (kind, data, payload) => {
      collected.message(kind, data, payload);
      show(kind, data);
    },
  };
  let status;
  try {
    status = await runner.run(code, sink);
    output.settle();
  } catch (err) {
    output.note(`Python could not start: ${err.message}`, "error");
    status = { ok: false, error: { type: "BootError", message: err.message, line: null }, interrupted: false };
    return { ...status, result: runResult(status) };
  }
  if (status.failed) {
    output.note(`Python stopped working (${status.failed}); the next Run starts it again.`, "error");
  } else if (status.restarted) {
    output.note("■ Stopped: Python was restarted (the run did not answer the interrupt). Your code is kept.", "stop");
  } else if (status.interrupted) {
    // Stop is not an error: one quiet line ("Stopped at line N."), built by the Python runtime
    output.note(`■ ${status.stopped?.text ?? "Stopped."}`, "stop");
  }
  return { ...status, result: collected.result(status) };
}

/** The panels' receiver of the Python runtime's messages during a run. */
function panelHandlers({ editor, output, plots, graph }, sessionFiles) {
  return handlerOf("python", {
    traceback(data) {
      output.traceback(data);
      if (data.line) editor.markError(data.line);
    },
    output: (data) => output.batch(data),
    note: (data) => output.note(data.text),
    nones: (data) => output.nones(data.items),
    plot: (data) => plots.show(data),
    training: (data) => plots.training(data),
    weights(data) {
      sessionFiles.set(data.path, data.data);
      const problem = saveWeightsFile(data.path, data.data);
      output.note(problem ? `Weights saved to ${data.path} in this page only: ${problem}`
        : `Weights saved to ${data.path} in this browser: load_weights("${data.path}") reads them in a later run.`);
    },
    graph(data) {
      if (data.representative) output.note(data.representative.text);
      try {
        graph.show(data);
      } catch (err) {
        output.note(`Could not draw the graph: ${err.message}`, "error");
      }
    },
    // a big tape's collapsed view first, while its whole graph is exported (the graph above follows)
    "graph-preview"(data) {
      try {
        graph.show(data);
      } catch (err) {
        console.warn("tapegrad: could not draw the graph's preview:", err);
      }
    },
    // while training runs: its latest complete step (the graph above replaces it at the end)
    "live-graph"(data) {
      try {
        graph.show(data);
      } catch (err) {
        console.warn("tapegrad: could not draw the training step's graph:", err);
      }
    },
  });
}
