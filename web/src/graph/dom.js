// Element helpers. Text from the graph JSON only ever enters the page as text nodes.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null && v !== false) node.setAttribute(k, String(v));
  }
  for (const c of children || []) {
    if (c === null || c === undefined || c === false) continue;
    node.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return node;
}

/** An HTML element: `html("button", {class: "x"}, ["label"])`. Strings become text nodes. */
export function html(tag, attrs, children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, with the same conventions as `html`. */
export function svg(tag, attrs, children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Sets an element's text (no markup is ever parsed). */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}
