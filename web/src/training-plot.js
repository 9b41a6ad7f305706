// The live training plot: one small SVG chart per metric (loss, accuracy, mae...), fed by the
// runtime's "training" messages (web/python/playground_runtime/training.py):
//   fit:          {event: "begin"|"step"|"epoch"|"end", ...}: the training value per step as a line,
//                 its validation value (val_<name>) per epoch as dots joined by a dashed line;
//   custom loops: {event: "point", name, value}: each read of a metric's result() is one point.
// Redraws at most once per RENDER_EVERY_MS (each event's points are kept, a redraw draws them
// all; the end of a run is drawn at the next frame); `renders` counts the redraws (tests read
// it). Each redraw rebuilds the charts, and the browser's style, layout and paint of them took a
// core's share from the Python worker on a 2-core machine: 20 redraws a second while a fit sent
// a step every 50 ms (docs/performance.md, "The page's own work").
import { el } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const W = 300;
const H = 150;
const PAD = { left: 46, right: 10, top: 22, bottom: 26 };
const RENDER_EVERY_MS = 250;

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A short label for an axis value: 3 significant digits, no trailing zeros. */
export function tickLabel(v) {
  if (v === 0) return "0";
  const a = Math.abs(v);
  if (a >= 1e4 || a < 1e-3) return v.toExponential(1);
  return String(Number(v.toPrecision(3)));
}

/** The chart a log name belongs to: "val_loss" -> "loss". */
export function baseName(name) {
  return name.startsWith("val_") ? name.slice(4) : name;
}

export function createTrainingPlot() {
  const root = el("figure", { class: "training-plot", "data-testid": "training-plot", hidden: "" });
  const caption = el("figcaption", {}, "Training");
  const charts = el("div", { class: "training-charts" });
  root.append(caption, charts);
  let run = emptyRun();
  let frame = 0;
  let timer = 0;
  let renderedAt = -Infinity;
  let renders = 0;

  function render() {
    frame = 0;
    renderedAt = performance.now();
    renders += 1;
    root.dataset.renders = String(renders);
    caption.textContent = `Training${run.status ? ` · ${run.status}` : ""}`;
    const nodes = [];
    for (const [name, s] of run.series) nodes.push(drawChart(name, s, run.steps ? run.epochs : []));
    charts.replaceChildren(...nodes);
  }

  return {
    element: root,
    /** One "training" message of the runtime. */
    update(event) {
      if (!Object.hasOwn(EVENTS, event.event)) return;
      EVENTS[event.event](run, event);
      root.hidden = false;
      if (frame) return;
      const wait = event.event === "end" ? 0 : renderedAt + RENDER_EVERY_MS - performance.now();
      if (wait <= 0) {
        clearTimeout(timer);
        timer = 0;
        frame = requestAnimationFrame(render);
      } else if (!timer) {
        timer = setTimeout(() => { timer = 0; if (!frame) frame = requestAnimationFrame(render); }, wait);
      }
    },
    clear() {
      if (frame) cancelAnimationFrame(frame);
      clearTimeout(timer);
      frame = 0;
      timer = 0;
      renderedAt = -Infinity;
      run = emptyRun();
      renders = 0;
      delete root.dataset.renders;
      charts.replaceChildren();
      root.hidden = true;
    },
    get active() {
      return run.series.size > 0;
    },
  };
}

/** What the plot knows of a run. */
function emptyRun() {
  return {
    series: new Map(),     // chart name -> {train: [[x, y]], val: [[x, y]], xLabel}
    steps: null,           // steps per epoch in fit (for epoch ticks), null for custom loops
    epochs: [],            // [step at the end of each epoch]
    totalEpochs: undefined,
    status: "",
  };
}

function chartOf(run, name, xLabel) {
  let s = run.series.get(name);
  if (!s) {
    s = { train: [], val: [], xLabel };
    run.series.set(name, s);
  }
  return s;
}

/** What each "training" event does to the run's record. */
const EVENTS = {
  begin(run, event) {
    run.steps = event.steps ?? null;
    run.epochs = [];
    run.status = event.epochs ? `epoch 1/${event.epochs}` : "";
    run.totalEpochs = event.epochs;
  },
  step(run, event) {
    for (const [k, v] of Object.entries(event.logs || {})) {
      if (!k.startsWith("val_")) chartOf(run, baseName(k), "step").train.push([event.step, v]);
    }
    run.status = run.totalEpochs ? `epoch ${event.epoch}/${run.totalEpochs}, step ${event.step}` : `step ${event.step}`;
  },
  epoch(run, event) {
    const at = run.steps ? event.epoch * run.steps : event.epoch;
    run.epochs.push(at);
    for (const [k, v] of Object.entries(event.logs || {})) {
      if (k.startsWith("val_")) chartOf(run, baseName(k), "step").val.push([at, v]);
    }
  },
  end(run, event) {
    run.status = event.stopped ? `stopped, ${run.status}` : `done, ${run.status}`;
  },
  point(run, event) {
    const s = chartOf(run, event.name, "read");
    s.train.push([s.train.length + 1, event.value]);
  },
};

/** One metric's chart: its training line, its validation dots, the epochs' ticks. */
function drawChart(name, s, epochTicks) {
  const scale = scaleOf([...s.train, ...s.val]);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "training-chart", role: "img",
                             "data-metric": name });
  const last = s.train.at(-1) ?? s.val.at(-1);
  chart.append(svg("title", {}, `${name}: ${last ? tickLabel(last[1]) : ""}`));
  chart.append(svg("text", { x: PAD.left, y: 14, class: "chart-title" },
                   `${name}  ${last ? tickLabel(last[1]) : ""}`));
  drawAxes(chart, scale, s.xLabel);
  for (const at of epochTicks) {
    chart.append(svg("line", { x1: scale.px(at), y1: PAD.top, x2: scale.px(at), y2: H - PAD.bottom, class: "epoch-tick" }));
  }
  const { px, py } = scale;
  const path = (pts) => pts.map((p, i) => `${i ? "L" : "M"}${px(p[0]).toFixed(1)},${py(p[1]).toFixed(1)}`).join("");
  if (s.train.length) chart.append(svg("path", { d: path(s.train), class: "train-line" }));
  if (s.val.length) {
    chart.append(svg("path", { d: path(s.val), class: "val-line" }));
    for (const p of s.val) chart.append(svg("circle", { cx: px(p[0]), cy: py(p[1]), r: 2.5, class: "val-dot" }));
    chart.append(svg("text", { x: W - PAD.right, y: 14, class: "tick", "text-anchor": "end" },
                     "— training   ┄ validation"));
  }
  return chart;
}

/** The ranges of `points` and the functions that place a value in the chart. */
function scaleOf(points) {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const x0 = Math.min(0, ...xs);
  const x1 = Math.max(1, ...xs);
  let y0 = Math.min(...ys);
  let y1 = Math.max(...ys);
  if (y0 === y1) { y0 -= 0.5; y1 += 0.5; }
  return { x0, x1, y0, y1,
           px: (x) => PAD.left + ((x - x0) / (x1 - x0)) * (W - PAD.left - PAD.right),
           py: (y) => H - PAD.bottom - ((y - y0) / (y1 - y0)) * (H - PAD.top - PAD.bottom) };
}

/** Axes: the y range at the left, the x range below. */
function drawAxes(chart, { x1, y0, y1 }, xLabel) {
  chart.append(svg("line", { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: H - PAD.bottom, class: "axis" }));
  chart.append(svg("line", { x1: PAD.left, y1: H - PAD.bottom, x2: W - PAD.right, y2: H - PAD.bottom,
                             class: "axis" }));
  chart.append(svg("text", { x: PAD.left - 4, y: PAD.top + 4, class: "tick", "text-anchor": "end" }, tickLabel(y1)));
  chart.append(svg("text", { x: PAD.left - 4, y: H - PAD.bottom, class: "tick", "text-anchor": "end" }, tickLabel(y0)));
  chart.append(svg("text", { x: W - PAD.right, y: H - 8, class: "tick", "text-anchor": "end" },
                   `${xLabel} ${tickLabel(x1)}`));
}
