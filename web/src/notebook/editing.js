// Editing a notebook's list of cells: add (above or below, code or Markdown), delete (kept, so
// Undo delete brings a cell back with its text and outputs), move up and down. Each cell gets its
// buttons (↑ ↓ ✕) and, under it, a bar adding a cell there; the cell itself takes keys in
// Jupyter's spirit once Escape has left its editor (KEYS, shown in the toolbar's Keys help).
import { el } from "../dom.js";

/** The keys a cell takes when it has the focus (not its editor), as the Keys help lists them. */
export const KEYS = [
  ["Shift+Enter", "run the cell, go to the next (in the editor too)"],
  ["Esc", "leave the editor for the cell (then Tab moves on)"],
  ["Enter", "edit the cell"],
  ["A / B", "add a code cell above / below"],
  ["D D", "delete the cell"],
  ["Z", "undo the last delete"],
  ["↑ / ↓", "the previous / next cell"],
  ["Alt+↑ / Alt+↓", "move the cell up / down"],
];

const KEPT_DELETES = 20;

function button(text, label, testid, onClick) {
  const b = el("button", { type: "button", class: "nb-tool", "aria-label": label, title: label, "data-testid": testid }, text);
  b.addEventListener("click", () => onClick());
  return b;
}

/** Keys typed into a field, a button or an editor are theirs, not the cell's. */
const isField = (target) => !!target.closest?.("button, textarea, input, select, a, .cm-host, .nb-source-plain");

/**
 * @param {{list: HTMLElement, make: (cell, hooks) => object, onRunKey: (item) => void,
 *          changed: () => void, say: (text: string) => void, onUndoable: (count: number) => void}} options
 *        make: a cell's item ({cell, root, focus, edit, run, destroy}: cell.js)
 */
export function createCellList({ list, make, onRunKey, changed, say, onUndoable }) {
  const items = [];         // the cells in order (Run all walks this same array)
  const deleted = [];       // [{item, at}], the last delete last
  const top = insertBar("at the top", (type) => insert(0, type));
  let lastD = 0;

  function insertBar(where, onAdd) {
    return el("div", { class: "nb-insert", role: "group", "aria-label": `Add a cell ${where}` },
      button("+ Code", `Add a code cell ${where}`, "add-code", () => onAdd("code")),
      button("+ Markdown", `Add a Markdown cell ${where}`, "add-markdown", () => onAdd("markdown")));
  }

  function frame(cell) {
    const item = make(cell, { onRunKey, onChange: changed, onEscape: (it) => it.root.focus() });
    item.root.tabIndex = -1;
    item.root.setAttribute("role", "group");
    item.root.prepend(el("div", { class: "nb-cell-tools" },
      button("↑", "Move the cell up (Alt+↑)", "cell-up", () => move(item, -1)),
      button("↓", "Move the cell down (Alt+↓)", "cell-down", () => move(item, 1)),
      button("✕", "Delete the cell (D D; Z undoes)", "cell-delete", () => remove(item))));
    item.bar = insertBar("below this cell", (type) => insert(items.indexOf(item) + 1, type));
    item.root.addEventListener("keydown", (ev) => commandKey(item, ev));
    return item;
  }

  /** Puts `item` (and its bar) at index `at` of the list on the page. */
  function place(item, at) {
    const keep = item.root.contains(document.activeElement) ? document.activeElement : null;
    (at === 0 ? top : items[at - 1].bar).after(item.root, item.bar);
    keep?.focus();
  }

  function relabel() {
    items.forEach((it, n) => it.root.setAttribute(
      "aria-label", `Cell ${n + 1} of ${items.length}, ${it.cell.type === "code" ? "code" : "Markdown"}`));
    onUndoable(deleted.length);
  }

  function insert(at, type) {
    const item = frame({ type, source: "", outputs: [] });
    items.splice(at, 0, item);
    place(item, at);
    relabel();
    changed();
    item.edit();
    return item;
  }

  function remove(item) {
    const at = items.indexOf(item);
    if (at < 0) return;
    items.splice(at, 1);
    item.root.remove();
    item.bar.remove();
    deleted.push({ item, at });
    if (deleted.length > KEPT_DELETES) deleted.shift().item.destroy();
    relabel();
    changed();
    (items[at] ?? items[at - 1])?.root.focus();
    say(`Deleted cell ${at + 1}. Undo delete (or Z) brings it back.`);
  }

  function undo() {
    const last = deleted.pop();
    if (!last) return;
    const at = Math.min(last.at, items.length);
    items.splice(at, 0, last.item);
    place(last.item, at);
    relabel();
    changed();
    last.item.root.focus();
    say(`Cell ${at + 1} is back.`);
  }

  function move(item, by) {
    const at = items.indexOf(item);
    const to = at + by;
    if (at < 0 || to < 0 || to >= items.length) return;
    items.splice(at, 1);
    items.splice(to, 0, item);
    place(item, to);
    relabel();
    changed();
    item.root.scrollIntoView({ block: "nearest" });
  }

  const COMMANDS = {
    Enter: (item) => item.edit(),
    a: (item) => insert(items.indexOf(item), "code"),
    b: (item) => insert(items.indexOf(item) + 1, "code"),
    z: () => undo(),
    ArrowUp: (item) => items[items.indexOf(item) - 1]?.root.focus(),
    ArrowDown: (item) => items[items.indexOf(item) + 1]?.root.focus(),
    k: (item) => COMMANDS.ArrowUp(item),
    j: (item) => COMMANDS.ArrowDown(item),
    d(item) {
      const now = Date.now();
      if (now - lastD < 1000) remove(item);
      lastD = now;
    },
  };

  function commandKey(item, ev) {
    if (isField(ev.target) || ev.ctrlKey || ev.metaKey) return;
    if (ev.key === "Enter" && ev.shiftKey) {
      ev.preventDefault();
      onRunKey(item);
      return;
    }
    if (ev.altKey) {
      if (ev.key === "ArrowUp" || ev.key === "ArrowDown") {
        ev.preventDefault();
        move(item, ev.key === "ArrowUp" ? -1 : 1);
      }
      return;
    }
    const command = ev.shiftKey ? null : COMMANDS[ev.key.length === 1 ? ev.key.toLowerCase() : ev.key];
    if (!command) return;
    ev.preventDefault();
    if (ev.key.toLowerCase() !== "d") lastD = 0;
    command(item);
  }

  return {
    items,
    cells: () => items.map((it) => it.cell),
    /** Shows `cells` in place of the list's. */
    open(cells) {
      for (const it of [...items, ...deleted.map((d) => d.item)]) it.destroy();
      deleted.length = 0;
      items.splice(0, items.length, ...cells.map(frame));
      list.replaceChildren(top, ...items.flatMap((it) => [it.root, it.bar]));
      relabel();
    },
    insert,
    undo,
  };
}
