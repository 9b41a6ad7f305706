"""The notebooks here give, cell by cell, what TensorFlow 2.21 gave (fixtures/, recorded by
record.py): what each cell printed, its last expression's repr and the error it raised, compared
as cells.py says. ``import tensorflow`` and ``import keras`` in a cell give tapegrad.

A cell that differs for a known reason is listed in known.json with the reason; the listing is
strict: such a cell that matches again fails the test until it is taken out of the list.
Runs natively and inside Pyodide (run_in_pyodide.py); conftest.py prints the counts per notebook.
"""
import json
import sys
from pathlib import Path

import pytest

import tapegrad
import tapegrad.experimental.numpy as tnp
from tapegrad import aliases

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cells  # noqa: E402

KNOWN = cells.load_known()
REPORT = {}  # stem: (cells run, matched, known divergences, own messages); conftest.py prints it


def _replay(notebook):
    """Runs a notebook as a new kernel would: a fresh Keras session, and TF-NumPy's behaviour
    switched off again afterwards (record.py gives each notebook a process of its own)."""
    tapegrad.keras.backend.clear_session()
    tapegrad.keras.utils.set_random_seed(0)
    try:
        with aliases.aliased():
            return cells.run_notebook(notebook)
    finally:
        tnp.disable_numpy_behavior()


@pytest.mark.parametrize("notebook", cells.NOTEBOOKS, ids=[n.stem for n in cells.NOTEBOOKS])
def test_notebook_matches_tensorflow(notebook):
    recorded = json.loads(cells.fixture_path(notebook).read_text())
    sources = cells.code_cells(notebook)
    assert [c["source"] for c in recorded["cells"]] == sources, \
        f"{notebook.name} changed since it was recorded: run tests/notebooks/record.py {notebook.stem}"
    listed = KNOWN.get(notebook.stem, {})
    known = {i: r for i, r in listed.items() if isinstance(r, str)}
    differs = {i: (r["message_differs"], r["phrases"]) for i, r in listed.items()
               if isinstance(r, dict)}
    problems, matched = [], 0
    for i, (expected, actual) in enumerate(zip(recorded["cells"], _replay(notebook))):
        diffs = cells.compare_cell(expected, actual, differs.get(str(i)))
        if str(i) in known and not diffs:
            problems.append(f"cell {i} matches TensorFlow now: take it out of known.json "
                            f"({known[str(i)]})")
        elif diffs and str(i) not in known:
            problems.append(f"cell {i}:\n{sources[i]}\n---\n" + "\n".join(diffs))
        matched += not diffs
    REPORT[notebook.stem] = (len(sources), matched, len(known), len(differs))
    assert not problems, f"{notebook.name}:\n\n" + "\n\n".join(problems)


def test_known_divergences_name_real_cells():
    stems = {n.stem: len(cells.code_cells(n)) for n in cells.NOTEBOOKS}
    for stem, listed in KNOWN.items():
        assert stem in stems, f"known.json names {stem}, which is not a notebook here"
        for index, entry in listed.items():
            reason = entry if isinstance(entry, str) else entry["message_differs"]
            assert 0 <= int(index) < stems[stem] and reason.strip(), (stem, index)
            assert isinstance(entry, str) or entry["phrases"], (stem, index)


def test_every_notebook_is_recorded_with_tensorflow():
    assert len(cells.NOTEBOOKS) >= 6
    for notebook in cells.NOTEBOOKS:
        doc = json.loads(cells.fixture_path(notebook).read_text())
        assert doc["recorded_with"].startswith("tensorflow 2.21"), notebook.name


@pytest.mark.parametrize("notebook", cells.NOTEBOOKS, ids=[n.stem for n in cells.NOTEBOOKS])
def test_notebook_reads_like_a_guide(notebook):
    """nbformat 4 with a kernel spec, and markdown between the code: a guide, not a script."""
    nb = json.loads(notebook.read_text())
    assert (nb["nbformat"], nb["metadata"]["kernelspec"]["language"]) == (4, "python")
    kinds = [c["cell_type"] for c in nb["cells"]]
    assert kinds[0] == "markdown" and set(kinds) == {"markdown", "code"}, notebook.name
    assert kinds.count("markdown") >= 5 and kinds.count("code") >= 10, notebook.name
    assert all(c.get("id") for c in nb["cells"]), f"{notebook.name}: cells need ids (nbformat 4.5)"
