// The step control shared by both animations: a mode switch (forward recording / backward flow),
// previous, play/pause, next, a slider, a caption, and under it why the selected call's None
// gradients are None. It holds only a position in [0, length].

import { html, setText } from "./dom.js";

const PLAY_INTERVAL_MS = 700;

export function createTimeline({ onPosition, onMode, onLine = () => {} }) {
  const parts = timelineElements(onLine);
  const steps = createSteps(parts, onPosition);
  listen(parts, steps, onMode);
  const { el, modeForward, modeBackward, caption, why } = parts;
  return {
    el,
    /** Sets what the control shows without reporting it back. */
    reset({ mode, length: n, position: p, backwardEnabled }) {
      steps.stop();
      steps.load(n, p);
      modeForward.setAttribute("aria-pressed", String(mode === "forward"));
      modeBackward.setAttribute("aria-pressed", String(mode === "backward"));
      modeBackward.disabled = !backwardEnabled;
      el.dataset.mode = mode;
      steps.show();
    },
    setCaption(text) {
      setText(caption, text);
    },
    /** The None explanations of the selected call ([{text, line}]); [] hides the line. */
    setWhy(items) {
      why.replaceChildren(...items.map(({ text, line }) => html("div", { class: "tg-graph-why-line",
        "data-testid": "graph-why-line" }, [text, ...(line == null ? [] : [" ", html("button", {
        type: "button", class: "tg-graph-line", "data-line": String(line), title: "highlight this line in the editor",
      }, [`line ${line}`])])])));
      why.hidden = items.length === 0;
    },
    get position() {
      return steps.position;
    },
    stop: steps.stop,
  };
}

/** The control's elements; a click on a line button under it goes to onLine(line). */
function timelineElements(onLine) {
  const modeForward = html("button", { type: "button", class: "tg-graph-mode", "data-testid": "timeline-forward",
    "aria-pressed": "true", title: "step through the ops in the order the tape recorded them" }, ["Forward: recording"]);
  const modeBackward = html("button", { type: "button", class: "tg-graph-mode", "data-testid": "timeline-backward",
    "aria-pressed": "false", title: "step through the gradient pass from the target to the sources" }, ["Backward: gradients"]);
  const first = html("button", { type: "button", "data-testid": "timeline-first", title: "to the start", "aria-label": "to the start" }, ["|◀"]);
  const prev = html("button", { type: "button", "data-testid": "timeline-prev", title: "previous step (←)", "aria-label": "previous step" }, ["◀"]);
  const play = html("button", { type: "button", "data-testid": "timeline-play", title: "play", "aria-label": "play" }, ["▶ play"]);
  const next = html("button", { type: "button", "data-testid": "timeline-next", title: "next step (→)", "aria-label": "next step" }, ["▶"]);
  const last = html("button", { type: "button", "data-testid": "timeline-last", title: "to the end", "aria-label": "to the end" }, ["▶|"]);
  const slider = html("input", { type: "range", min: 0, max: 0, value: 0, step: 1, "data-testid": "timeline-slider",
    "aria-label": "step" });
  const counter = html("span", { class: "tg-graph-counter", "data-testid": "timeline-counter" }, ["0 / 0"]);
  const caption = html("div", { class: "tg-graph-caption", "data-testid": "timeline-caption", "aria-live": "polite" });
  const why = html("div", { class: "tg-graph-why", "data-testid": "graph-why", hidden: "" });
  why.addEventListener("click", (e) => {
    const b = e.target.closest("[data-line]");
    if (b) onLine(Number(b.dataset.line));
  });
  const el = html("div", { class: "tg-graph-timeline", "data-testid": "timeline", tabindex: "0" }, [
    html("div", { class: "tg-graph-timeline-row" }, [
      html("span", { class: "tg-graph-modes", role: "group", "aria-label": "animation" }, [modeForward, modeBackward]),
      first, prev, play, next, last, slider, counter]),
    caption,
    why,
  ]);
  return { modeForward, modeBackward, first, prev, play, next, last, slider, counter, caption, why, el };
}

/** The position in [0, length], shown on the control; play steps it on by itself. */
function createSteps({ el, first, prev, play, next, last, slider, counter }, onPosition) {
  let position = 0;
  let length = 0;
  let timer = 0;

  function show() {
    slider.max = String(length);
    slider.value = String(position);
    setText(counter, `${position} / ${length}`);
    prev.disabled = first.disabled = position <= 0;
    next.disabled = last.disabled = position >= length;
    play.disabled = length === 0;
  }

  function go(p, fromUser = true) {
    const clamped = Math.max(0, Math.min(length, p));
    if (clamped === position && fromUser) return;
    position = clamped;
    show();
    onPosition(position);
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = 0;
    setText(play, "▶ play");
    play.setAttribute("aria-label", "play");
    el.classList.remove("tg-graph-playing");
  }

  function start() {
    if (length === 0) return;
    if (position >= length) go(0);
    setText(play, "❚❚ pause");
    play.setAttribute("aria-label", "pause");
    el.classList.add("tg-graph-playing");
    timer = setInterval(() => {
      if (position >= length) stop();
      else go(position + 1);
    }, PLAY_INTERVAL_MS);
  }

  return {
    show,
    go,
    stop,
    toggle: () => (timer ? stop() : start()),
    /** Sets the length and the position (clamped to it), not shown yet. */
    load(n, p) {
      length = n;
      position = Math.max(0, Math.min(n, p));
    },
    get position() {
      return position;
    },
    get length() {
      return length;
    },
  };
}

/** The buttons, slider and arrow keys move the position (each stops playing first). */
function listen({ el, modeForward, modeBackward, first, prev, play, next, last, slider }, steps, onMode) {
  const { go, stop } = steps;
  first.addEventListener("click", () => { stop(); go(0); });
  prev.addEventListener("click", () => { stop(); go(steps.position - 1); });
  next.addEventListener("click", () => { stop(); go(steps.position + 1); });
  last.addEventListener("click", () => { stop(); go(steps.length); });
  play.addEventListener("click", steps.toggle);
  slider.addEventListener("input", () => { stop(); go(Number(slider.value)); });
  el.addEventListener("keydown", (e) => {
    if (e.target === slider) return;         // the slider handles its own arrows
    if (e.key === "ArrowLeft") { stop(); go(steps.position - 1); e.preventDefault(); }
    if (e.key === "ArrowRight") { stop(); go(steps.position + 1); e.preventDefault(); }
  });
  modeForward.addEventListener("click", () => { stop(); onMode("forward"); });
  modeBackward.addEventListener("click", () => { stop(); onMode("backward"); });
}
