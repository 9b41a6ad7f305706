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
  ["↑ / ↓ (K / J)", "the previous / next cell"],
  ["Alt+↑ / Alt+↓", "move the cell up / down"],
];

const KEPT_DELETES = 20;

function button(text, label, testid, onClick) {
  const b = el("button", { type: "button", class: "nb-tool", "aria-label": label, title: label, "data-testid": testid }, text);
  b.addEventListener("click", () => onClick());
  return b;
}

/** The bar adding a cell (code or Markdown) at its place. */
function insertBar(where, onAdd) {
  return el("div", { class: "nb-insert", role: "group", "aria-label": `Add a cell ${where}` },
    button("+ Code", `Add a code cell ${where}`, "add-code", () => onAdd("code")),
    button("+ Markdown", `Add a Markdown cell ${where}`, "add-markdown", () => onAdd("markdown")));
}

/** Keys typed into a field, a button or an editor are theirs, not the cell's. */
const isField = (target) => !!target.closest?.("button, textarea, input, select, a, .cm-host, .nb-source-plain");

/**
 * A cell's keys (KEYS) as a keydown handler `(item, event)`; `act` holds the list's operations:
 * run(item), insert(at, type), remove(item), undo(), move(item, by), indexOf(item), focusAt(index).
 */
function commandKeys(act) {
  let lastD = 0;
  const commands = {
    Enter: (item) => item.edit(),
    a: (item) => act.insert(act.indexOf(item), "code"),
    b: (item) => act.insert(act.indexOf(item) + 1, "code"),
    z: () => act.undo(),
    ArrowUp: (item) => act.focusAt(act.indexOf(item) - 1),
    ArrowDown: (item) => act.focusAt(act.indexOf(item) + 1),
    k: (item) => commands.ArrowUp(item),
    j: (item) => commands.ArrowDown(item),
    d(item) {
      const now = Date.now();
      if (now - lastD < 1000) act.remove(item);
      lastD = now;
    },
  };
  return (item, ev) => {
    if (isField(ev.target) || ev.ctrlKey || ev.metaKey) return;
    let command = null;
    if (ev.key === "Enter" && ev.shiftKey) command = () => act.run(item);
    else if (ev.altKey && (ev.key === "ArrowUp" || ev.key === "ArrowDown")) command = () => act.move(item, ev.key === "ArrowUp" ? -1 : 1);
    else if (!ev.altKey && !ev.shiftKey) command = commands[ev.key.length === 1 ? ev.key.toLowerCase() : ev.key];
    if (!command) return;
    ev.preventDefault();
    if (ev.key.toLowerCase() !== "d") lastD = 0;
    command(item);
  };
}

/** Gives a cell's item its frame: a group with its buttons (↑ ↓ ✕), its keys, the bar under it. */
function frameCell(item, { insert, remove, move, onKey, indexOf }) {
  item.root.tabIndex = -1;
  item.root.setAttribute("role", "group");
  item.root.prepend(el("div", { class: "nb-cell-tools" },
    button("↑", "Move the cell up (Alt+↑)", "cell-up", () => move(item, -1)),
    button("↓", "Move the cell down (Alt+↓)", "cell-down", () => move(item, 1)),
    button("✕", "Delete the cell (D D; Z undoes)", "cell-delete", () => remove(item))));
  item.bar = insertBar("below this cell", (type) => insert(indexOf(item) + 1, type));
  item.root.addEventListener("keydown", (ev) => onKey(item, ev));
  return item;
}

/**
 * Deleting cells of `items` and bringing them back: a deleted cell is kept whole (its editor, text
 * and outputs), the last KEPT_DELETES of them, so Undo delete restores it where it was.
 */
function createDeletes({ items, place, relabel, focusAt, say }) {
  const deleted = [];       // [{item, at}], the last delete last
  return {
    count: () => deleted.length,
    remove(item) {
      const at = items.indexOf(item);
      if (at < 0) return;
      items.splice(at, 1);
      item.root.remove();
      item.bar.remove();
      deleted.push({ item, at });
      if (deleted.length > KEPT_DELETES) deleted.shift().item.destroy();
      relabel();
      focusAt(Math.min(at, items.length - 1));
      say(`Deleted cell ${at + 1}. Undo delete (or Z) brings it back.`);
    },
    undo() {
      const last = deleted.pop();
      if (!last) return;
      const at = Math.min(last.at, items.length);
      items.splice(at, 0, last.item);
      place(last.item, at);
      relabel();
      last.item.root.focus();
      say(`Cell ${at + 1} is back.`);
    },
    clear() {
      for (const { item } of deleted.splice(0)) item.destroy();
    },
  };
}

/**
 * @param {{list: HTMLElement, make: (cell, hooks) => object, run: (item) => void,
 *          changed: () => void, say: (text: string) => void, onUndoable: (count: number) => void}} options
 *        make: a cell's item ({cell, root, focus, edit, run, destroy}: cell.js); run: runs a cell
 */
export function createCellList({ list, make, run, changed, say, onUndoable }) {
  const items = [];         // the cells in order (Run all walks this same array)
  const top = insertBar("at the top", (type) => insert(0, type));
  const focusAt = (at) => items[at]?.root.focus();

  /** Shift+Enter: runs the cell, goes to the next one (a new one after the last). */
  function runAndNext(item) {
    run(item);
    const next = items[items.indexOf(item) + 1];
    if (next) next.focus();
    else insert(items.length, "code");
  }
  const indexOf = (it) => items.indexOf(it);
  const deletes = createDeletes({ items, place, relabel, focusAt, say });
  const onKey = commandKeys({ run: runAndNext, insert, remove: deletes.remove, undo: deletes.undo, move, focusAt, indexOf });

  const frame = (cell) => frameCell(make(cell, { onRunKey: runAndNext, onChange: changed, onEscape: (it) => it.root.focus() }),
                                     { insert, remove: deletes.remove, move, onKey, indexOf });

  /** Puts `item` (and its bar) at index `at` of the list on the page, keeping the focus. */
  function place(item, at) {
    const keep = item.root.contains(document.activeElement) ? document.activeElement : null;
    (at === 0 ? top : items[at - 1].bar).after(item.root, item.bar);
    keep?.focus();
  }

  /** After each change: the cells' labels, Undo delete, autosave. */
  function relabel() {
    items.forEach((it, n) => it.root.setAttribute(
      "aria-label", `Cell ${n + 1} of ${items.length}, ${it.cell.type === "code" ? "code" : "Markdown"}`));
    onUndoable(deletes.count());
    changed();
  }

  function insert(at, type) {
    const item = frame({ type, source: "", outputs: [] });
    items.splice(at, 0, item);
    place(item, at);
    relabel();
    item.edit();
  }

  function move(item, by) {
    const at = items.indexOf(item);
    const to = at + by;
    if (at < 0 || to < 0 || to >= items.length) return;
    items.splice(at, 1);
    items.splice(to, 0, item);
    place(item, to);
    relabel();
    item.root.scrollIntoView({ block: "nearest" });
  }

  return {
    items,
    cells: () => items.map((it) => it.cell),
    /** Shows `cells` in place of the list's (nothing to undo then). */
    open(cells) {
      for (const it of items) it.destroy();
      deletes.clear();
      items.splice(0, items.length, ...cells.map(frame));
      list.replaceChildren(top, ...items.flatMap((it) => [it.root, it.bar]));
      relabel();
    },
    undo: () => deletes.undo(),
  };
}
