// Text for tensor values as the engine summarizes them ({shape, dtype, text, data, min, max, mean};
// non-finite numbers arrive as the strings "nan", "inf", "-inf").

const NON_FINITE = { nan: NaN, inf: Infinity, "-inf": -Infinity };

export function toNumber(x) {
  if (typeof x === "number") return x;
  if (typeof x === "boolean") return x ? 1 : 0;
  if (typeof x === "string" && x in NON_FINITE) return NON_FINITE[x];
  return NaN;
}

/** Like C's %g with 6 significant digits: 3, 0.14112, 45210.7, 1e-07. */
export function formatNumber(x) {
  const n = toNumber(x);
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  if (n === 0) return "0";
  const abs = Math.abs(n);
  if (abs >= 1e-4 && abs < 1e6) return String(Number(n.toPrecision(6)));
  return n.toExponential(5).replace(/\.?0+e/, "e");
}

export function shapeText(shape) {
  if (!Array.isArray(shape)) return "?";
  return shape.length === 0 ? "scalar" : "(" + shape.join(", ") + (shape.length === 1 ? ",)" : ")");
}

/** "2×3" for a short label, "" for a scalar. */
export function shapeShort(shape) {
  return Array.isArray(shape) && shape.length ? shape.join("×") : "";
}

/** Nested data as NumPy prints it, on one line: [[1 2] [3 4]]. */
export function formatData(data) {
  if (Array.isArray(data)) return "[" + data.map(formatData).join(" ") + "]";
  return formatNumber(data);
}

/** A short one-line text for a label next to a node or an edge. */
export function shortValue(value, max = 18) {
  if (!value) return "";
  if (value.data !== undefined) {
    const t = formatData(value.data);
    if (t.length <= max) return t;
  }
  const s = shapeShort(value.shape);
  return s || (value.text || "").slice(0, max);
}

/** The full text of a value (several lines for a matrix), as the engine printed it. */
export function fullValue(value) {
  if (!value) return "";
  return value.text !== undefined ? String(value.text) : formatData(value.data);
}

/** Element-wise sum of two `data` payloads of the same shape, or null when they cannot be added. */
export function addData(a, b) {
  if (Array.isArray(a) !== Array.isArray(b)) return null;
  if (!Array.isArray(a)) return toNumber(a) + toNumber(b);
  if (a.length !== b.length) return null;
  const out = [];
  for (let i = 0; i < a.length; i++) {
    const s = addData(a[i], b[i]);
    if (s === null) return null;
    out.push(s);
  }
  return out;
}
