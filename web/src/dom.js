// Tiny DOM helper: elements built from attributes and children. Strings become text nodes, so
// nothing the user writes or prints is ever parsed as HTML.

/**
 * @param {string} tag
 * @param {Record<string, string|boolean|null|undefined>} attrs  false/null/undefined are skipped
 * @param {...(Node|string|null|undefined)} children
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}
