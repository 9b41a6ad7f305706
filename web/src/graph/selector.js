// Which tape, and which of its gradient calls (several on a persistent tape, one per jacobian
// row), the panel shows.

import { html } from "./dom.js";
import { tapeName } from "./forward.js";
import { callTitle } from "./backward.js";

function tapeOption(tape, i) {
  const bits = [tapeName(tape)];
  if (tape.persistent) bits.push("persistent");
  // (a big tape's box view: a step stands for `count` ops)
  const ops = tape.forward.reduce((n, s) => n + (s.count ?? 1), 0);
  bits.push(`${ops} op${ops === 1 ? "" : "s"}`);
  const calls = tape.gradients.length;
  bits.push(`${calls} call${calls === 1 ? "" : "s"}`);
  return html("option", { value: String(i) }, [bits.join(" · ")]);
}

export function createSelector({ onTape, onCall }) {
  const tapeSelect = html("select", { "data-testid": "tape-select", "aria-label": "tape" });
  const callSelect = html("select", { "data-testid": "gradient-select", "aria-label": "gradient call" });
  const el = html("span", { class: "tg-graph-selector" }, [tapeSelect, callSelect]);
  tapeSelect.addEventListener("change", () => onTape(Number(tapeSelect.value)));
  callSelect.addEventListener("change", () => onCall(Number(callSelect.value)));

  return {
    el,
    set(tapes, ti, ci) {
      tapeSelect.replaceChildren(...tapes.map(tapeOption));
      tapeSelect.value = String(ti);
      tapeSelect.disabled = tapes.length <= 1;
      const calls = tapes[ti] ? tapes[ti].gradients : [];
      if (calls.length === 0) {
        callSelect.replaceChildren(html("option", { value: "-1" }, ["no gradient call on this tape"]));
        callSelect.value = "-1";
      } else {
        callSelect.replaceChildren(...calls.map((c, j) => html("option", { value: String(j) }, [callTitle(c)])));
        callSelect.value = String(ci);
      }
      callSelect.disabled = calls.length <= 1;
      // a choice cut short to the pane's width is read whole on hover
      for (const select of [tapeSelect, callSelect]) select.title = select.selectedOptions[0]?.textContent ?? "";
      el.hidden = tapes.length === 0;
    },
  };
}
