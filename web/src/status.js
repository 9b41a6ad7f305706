// The header's status line: boot progress (a <progress> bar, the step and the seconds so far),
// then ready / running / stopping / error. It also enables Run and Stop, and mirrors the state on
// a host element's data-state (the page's <body>, or a <tapegrad-playground>) for styles and tests.
import { el } from "./dom.js";

const LABELS = { ready: "Ready", running: "Running…", stopping: "Stopping…" };

export function bindStatus(root, runButton, stopButton, stateHost = document.body) {
  const bar = el("progress", { max: "3", value: "0", "aria-label": "Python start-up" });
  const text = el("span", { class: "status-text" });
  root.append(bar, text);
  let bootStarted = 0;
  let ticker = 0;
  let lastText = "";

  function showBoot() {
    const seconds = ((performance.now() - bootStarted) / 1000).toFixed(0);
    text.textContent = `${lastText}… ${seconds} s`;
  }
  // The status dot's blink (playground.css), once a second while booting or running.
  const beat = () => { root.dataset.beat = root.dataset.beat === "1" ? "0" : "1"; };

  return function setStatus(state, detail = {}) {
    stateHost.dataset.state = state;
    root.dataset.state = state;
    clearInterval(ticker);
    bar.hidden = state !== "booting";
    if (state === "booting") {
      if (!bootStarted || detail.step === 0) bootStarted = performance.now();
      bar.value = detail.step ?? 0;
      bar.max = detail.total ?? 3;
      lastText = detail.text ?? "Starting Python";
      showBoot();
      ticker = setInterval(() => { showBoot(); beat(); }, 1000);
    } else if (state === "error") {
      bootStarted = 0;
      text.textContent = `Python failed to start: ${detail.text ?? "unknown error"}`;
    } else if (state === "idle") {
      text.textContent = detail.text ?? "";
    } else {
      bootStarted = 0;
      text.textContent = LABELS[state] ?? state;
      if (state === "running" || state === "stopping") ticker = setInterval(beat, 1000);
    }
    stopButton.disabled = state !== "running";
    runButton.setAttribute("aria-busy", String(state === "running" || state === "stopping"));
  };
}
