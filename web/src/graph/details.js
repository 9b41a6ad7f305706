// The details box of a hovered or clicked node: value, shape, dtype, the gradient of the selected
// call (or the engine's reason for None), and the source line, which highlights the editor line.

import { html } from "./dom.js";
import { formatNumber, fullValue, shapeText } from "./format.js";
import { tapeName } from "./forward.js";

const KIND_TITLE = { variable: "Variable", watched: "watched tensor", constant: "constant", op: "op",
  tensor: "tensor", group: "group" };

export function createDetails({ onLine }) {
  const el = html("div", { class: "tg-graph-details", "data-testid": "node-details", hidden: "" });
  let more = () => {};
  el.addEventListener("click", (e) => {
    const b = e.target.closest("[data-line]");
    if (b) onLine(Number(b.dataset.line));
    if (e.target.closest("[data-testid=group-more]")) more(el.dataset.detailsFor);
  });

  return {
    el,
    /** Shows a node (`node`) or a collapsed group (`group`) with its gradient in the call. */
    show({ node, group, grad, callTitle, tapes }) {
      const kind = node ? node.kind : "group";
      const title = node ? String(node.name && node.kind !== "variable" ? node.name : node.label || node.op || node.id)
        : group.label;
      const head = html("div", { class: "tg-graph-details-title" }, [
        html("span", { class: `tg-graph-kind tg-graph-kind-${kind}` }, [KIND_TITLE[kind] || kind]), " ",
        html("strong", {}, [title || (node ? node.id : "")]),
        html("span", { class: "tg-graph-id" }, [` ${node ? node.id : group.id}`])]);
      const body = node ? [...describeNode(node, tapes), ...gradientRows(grad, callTitle)]
        : group.fixed && group.members.length === 0 ? boxRows(group)
          : [row("holds", `${group.members.length} nodes`), row("", "click the box (or press Enter again) to open it")];
      el.replaceChildren(head, ...body);
      el.dataset.detailsFor = node ? node.id : group.id;   // not data-node-id: that marks drawn nodes
      el.hidden = false;
    },
    hide() {
      el.hidden = true;
      delete el.dataset.detailsFor;
    },
    /** `f(groupId)` is called when "more" is clicked under a box's members. */
    onMore(f) {
      more = f;
    },
  };
}

/** A big tape's box: its ops, and its members once listed (group.loaded: {total, members,
 * loading}, the worker's answer: members.js). */
function boxRows(group) {
  const rows = [];
  if (group.ops != null) rows.push(row("holds", `${group.ops} op${group.ops === 1 ? "" : "s"}`));
  if (group.sub) rows.push(row("", String(group.sub)));
  const got = group.loaded;
  if (!got) return [...rows, row("", "click the box (or press Enter again) to list its members")];
  if (got.total === -1) return [...rows, row("members", "no longer kept: run the code again to list them")];
  const items = got.members.map((m) => html("li", { "data-member-id": m.id }, [memberText(m),
    ...(m.line != null ? [" ", lineButton(m.line, `line ${m.line}`)] : [])]));
  rows.push(row("members", got.total == null ? "…" : `${got.members.length} of ${got.total} nodes`));
  rows.push(html("ol", { class: "tg-graph-members", "data-testid": "group-members" }, items));
  if (got.loading) rows.push(row("", "loading…"));
  else if (got.total > got.members.length) {
    rows.push(html("button", { type: "button", class: "tg-graph-line", "data-testid": "group-more" }, ["more"]));
  }
  return rows;
}

function memberText(m) {
  const what = m.kind === "op" ? String(m.op ?? m.label) : `${KIND_TITLE[m.kind] ?? m.kind}${m.label ? ` ${m.label}` : ""}`;
  const shape = Array.isArray(m.shape) ? ` ${shapeText(m.shape)} ${m.dtype ?? ""}` : "";
  return `${m.id} ${what}${shape}`.trimEnd();
}

function row(label, ...content) {
  return html("div", { class: "tg-graph-row" }, [html("span", { class: "tg-graph-key" }, [label]),
    html("span", { class: "tg-graph-val" }, content)]);
}

function lineButton(line, text) {
  return html("button", { type: "button", class: "tg-graph-line", "data-line": String(line),
    "data-testid": "node-line", title: "highlight this line in the editor" }, [text]);
}

function valueRows(value, prefix = "") {
  if (!value) return [];
  const rows = [row(`${prefix}value`, html("pre", { "data-testid": `node-${prefix}value` }, [fullValue(value)])),
    row(`${prefix}shape`, html("span", { "data-testid": `node-${prefix}shape` }, [shapeText(value.shape)])),
    row(`${prefix}dtype`, html("span", { "data-testid": `node-${prefix}dtype` }, [String(value.dtype ?? "?")]))];
  if (value.shape && value.shape.length && value.min !== undefined) {
    rows.push(row(`${prefix}range`, `min ${formatNumber(value.min)} · max ${formatNumber(value.max)} · mean ${formatNumber(value.mean)}`));
  }
  return rows;
}

/** The rows of a node's gradient in the selected call (`callTitle`; none: no call selected). */
function gradientRows(grad, callTitle) {
  if (!callTitle) return [];
  const head = html("div", { class: "tg-graph-section" }, [callTitle]);
  if (!grad) return [head, row("gradient", html("span", { "data-testid": "node-gradient" }, ["not part of this call"]))];
  if (grad.none) return [head, ...noneRows(grad.reason)];
  const out = [head];
  if (grad.value) {
    out.push(row("gradient", html("pre", { "data-testid": "node-gradient" }, [fullValue(grad.value)])));
    out.push(row("grad shape", `${shapeText(grad.value.shape)} ${grad.value.dtype ?? ""}`));
  } else {
    out.push(row("gradient", html("span", { "data-testid": "node-gradient" }, [grad.note])));
  }
  if (grad.value && grad.note) out.push(row("", grad.note));
  if (grad.reason) out.push(row("why", html("span", { "data-testid": "node-reason" }, [String(grad.reason.message)])));
  return out;
}

/** A None gradient: "None", and the engine's reason with the line it points at. */
function noneRows(reason) {
  const out = [row("gradient", html("strong", { class: "tg-graph-none-text", "data-testid": "node-gradient" }, ["None"]))];
  if (reason) {
    const why = [html("span", { "data-testid": "node-reason" }, [String(reason.message ?? reason.code)])];
    if (reason.line != null) why.push(" ", lineButton(reason.line, `line ${reason.line}`));
    out.push(row("why", ...why));
  }
  return out;
}

function describeNode(n, tapes) {
  const rows = [];
  if (n.kind === "op") {
    rows.push(row("op", String(n.op ?? n.label)));
    const attrs = Object.entries(n.attrs || {}).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
    if (attrs.length) rows.push(row("attrs", attrs.join(", ")));
    if (n.repeat) rows.push(row("folded", `stands for ${n.repeat} identical ops in a chain`));
  }
  if (n.kind === "variable") rows.push(row("trainable", String(!!n.trainable)));
  rows.push(...valueRows(n.value));
  if (n.line != null) {
    const where = n.function && n.function !== "<module>" ? ` in ${n.function}()` : "";
    rows.push(row("source", lineButton(n.line, `line ${n.line}`), where));
  }
  if (Array.isArray(n.tapes) && n.tapes.length) {
    rows.push(row("tapes", n.tapes.map((t) => (tapes[t] ? tapeName(tapes[t]) : `tape ${t}`)).join(", ")));
  }
  return rows;
}
