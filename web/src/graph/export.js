// Taking the graph away: the drawing as it is now (groups open or closed, the step shown) saved
// as an SVG file that stands alone (the panel's CSS written into each element) and as a PNG of it.
// (The engine writes its own SVG of a document: tapegrad/graph/svg.py.)

const SVG_NS = "http://www.w3.org/2000/svg";
const PAD = 16;
const PNG_SCALE = 2;              // pixels per SVG unit, for a sharp image
const PNG_MAX_SIDE = 16384;       // what a canvas can hold, about
const PNG_MAX_PIXELS = 64e6;
// the computed styles that make the drawing look as it does on the page
const STYLE = ["fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray", "stroke-opacity",
  "opacity", "font-family", "font-size", "font-weight", "font-style", "text-anchor",
  "dominant-baseline", "paint-order", "visibility", "display"];

/**
 * The SVG text of the drawing in `svgEl` (the panel's <svg>), cut to `box` ({x0, y0, x1, y1}: the
 * bounds of everything drawn, renderer.view.box), with a white background; returns
 * {text, width, height}.
 */
export function drawingSvg(svgEl, box) {
  const copy = svgEl.cloneNode(true);
  const from = svgEl.querySelectorAll("*");
  const to = copy.querySelectorAll("*");
  for (let i = 0; i < from.length; i++) {
    const cs = getComputedStyle(from[i]);
    const decl = STYLE.map((p) => `${p}:${cs.getPropertyValue(p)}`).join(";");
    to[i].setAttribute("style", decl);
  }
  const x = Math.floor(box.x0 - PAD);
  const y = Math.floor(box.y0 - PAD);
  const width = Math.ceil(box.x1 - box.x0 + 2 * PAD);
  const height = Math.ceil(box.y1 - box.y0 + 2 * PAD);
  for (const g of copy.children) if (g.localName === "g") g.removeAttribute("transform");   // pan, zoom
  for (const [k, v] of [["xmlns", SVG_NS], ["width", width], ["height", height],
    ["viewBox", `${x} ${y} ${width} ${height}`]]) copy.setAttribute(k, String(v));
  copy.removeAttribute("style");
  const bg = document.createElementNS(SVG_NS, "rect");
  for (const [k, v] of [["x", x], ["y", y], ["width", width], ["height", height], ["fill", "#ffffff"]]) {
    bg.setAttribute(k, String(v));
  }
  copy.insertBefore(bg, copy.firstChild);
  const text = '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(copy);
  return { text, width, height };
}

/** The size of the PNG of a drawing: PNG_SCALE pixels per unit, less where a canvas cannot hold it. */
export function pngSize(width, height) {
  const scale = Math.min(PNG_SCALE, PNG_MAX_SIDE / Math.max(width, height),
    Math.sqrt(PNG_MAX_PIXELS / (width * height)));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** A PNG Blob of an SVG text of the given size. */
export async function pngOf({ text, width, height }) {
  const img = new Image();
  img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(text);
  await img.decode();
  const size = pngSize(width, height);
  const canvas = document.createElement("canvas");
  canvas.width = size.width;
  canvas.height = size.height;
  canvas.getContext("2d").drawImage(img, 0, 0, size.width, size.height);
  return new Promise((resolve, reject) => canvas.toBlob(
    (blob) => (blob ? resolve(blob) : reject(new Error("the browser could not make the PNG"))), "image/png"));
}

/** Saves a Blob as a download named `name`. */
export function download(name, blob) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
