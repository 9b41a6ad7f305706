// Running a notebook's cells: one Python session across cells (the first cell after opening or
// Restart asks the worker for a fresh namespace, the others keep it), numbered like Jupyter's
// [1], [2]...; Run all goes down the cells and stops at an error or a Stop.

/** @param view  the notebook's element: data-running="all" during Run all, data-runs counts them */
export function createRuns(runner, view) {
  let count = 0;
  let fresh = true;        // the next cell starts a new Python namespace
  let runningAll = false;

  async function runCell(item) {
    if (item.cell.type !== "code") return item.run();
    count += 1;
    const how = fresh ? "fresh" : "keep";
    fresh = false;
    const result = await item.run(runner, how, count);
    if (result.restarted || result.failed) fresh = true;   // a new worker: a new session
    return result;
  }

  async function runAll(items) {
    if (runningAll) return;
    runningAll = true;
    view.dataset.running = "all";
    try {
      for (const item of items) {
        const result = await runCell(item);
        if (result && !result.ok) break;    // an error or Stop ends Run all
      }
    } finally {
      runningAll = false;
      delete view.dataset.running;
      view.dataset.runs = String(Number(view.dataset.runs ?? 0) + 1);
    }
  }

  return {
    runCell,
    runAll,
    /** The next cell runs in a new session, numbered from 1 again. */
    restart() {
      fresh = true;
      count = 0;
    },
  };
}
