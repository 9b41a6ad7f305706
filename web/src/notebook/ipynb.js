// Reading and writing Jupyter's .ipynb (nbformat 4): the cells the notebook view shows, and the
// file it saves back, code cells with their outputs (stream text, errors, PNG figures).

const joinSource = (source) => (Array.isArray(source) ? source.join("") : String(source ?? ""));

/** nbformat keeps text as a list of lines, each but the last ending in "\n". */
export function splitLines(text) {
  const lines = text.split(/(?<=\n)/);
  return lines.length === 1 && lines[0] === "" ? [] : lines;
}

/** A notebook's cells from the text of an .ipynb: [{type: "markdown"|"code", source, outputs}]. */
export function parseNotebook(text) {
  let nb;
  try {
    nb = JSON.parse(text);
  } catch (err) {
    throw new Error(`not a notebook (its JSON does not parse: ${err.message})`);
  }
  if (!nb || !Array.isArray(nb.cells)) throw new Error("not a notebook (it has no list of cells)");
  if (nb.nbformat !== 4) throw new Error(`nbformat ${nb.nbformat} is not supported (4 is)`);
  const cells = nb.cells.map((c) => ({
    type: c.cell_type === "code" ? "code" : "markdown",
    source: joinSource(c.source),
    outputs: c.cell_type === "code" && Array.isArray(c.outputs) ? c.outputs : [],
  }));
  return { cells, metadata: nb.metadata ?? {} };
}

let idCounter = 0;
const cellId = () => `cell-${Date.now().toString(36)}-${(idCounter++).toString(36)}`;

/** The .ipynb text of `cells` ({type, source, outputs, count?}); metadata: the notebook's own. */
export function notebookText(cells, metadata = {}) {
  const nb = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: "python3", display_name: "Python 3 (tapegrad playground)", language: "python" },
      language_info: { name: "python" },
      ...metadata,
    },
    cells: cells.map((c) => (c.type === "code"
      ? { cell_type: "code", id: cellId(), metadata: {}, execution_count: c.count ?? null,
          source: splitLines(c.source), outputs: c.outputs ?? [] }
      : { cell_type: "markdown", id: cellId(), metadata: {}, source: splitLines(c.source) })),
  };
  return JSON.stringify(nb, null, 1) + "\n";
}

/** One cell's outputs in nbformat, gathered while it runs. */
export function createOutputs() {
  const outputs = [];
  return {
    outputs,
    stream(name, text) {
      const last = outputs[outputs.length - 1];
      if (last?.output_type === "stream" && last.name === name) {
        last.text = splitLines(joinSource(last.text) + text);
      } else {
        outputs.push({ output_type: "stream", name, text: splitLines(text) });
      }
    },
    image(png) {
      outputs.push({ output_type: "display_data", metadata: {}, data: { "image/png": png, "text/plain": ["<Figure>"] } });
    },
    error(type, message, traceback) {
      outputs.push({ output_type: "error", ename: type, evalue: message, traceback: splitLines(traceback) });
    },
  };
}

/** The text an output shows (stream text, an error's traceback), or null (an image). */
export function outputText(output) {
  if (output.output_type === "stream") return joinSource(output.text);
  if (output.output_type === "error") return joinSource(output.traceback) || `${output.ename}: ${output.evalue}`;
  const plain = output.data?.["text/plain"];
  return output.data?.["image/png"] ? null : plain ? joinSource(plain) : null;
}
