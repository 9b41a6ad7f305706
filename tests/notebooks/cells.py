"""Running a notebook's code cells the way Jupyter does, and comparing two runs cell by cell.

Neutral ground: this module imports neither TensorFlow nor tapegrad. ``record.py`` runs it under
TensorFlow (the fixtures), ``test_notebooks.py`` under tapegrad with ``import tensorflow`` and
``import keras`` mapped to it.

A cell's outcome is plain JSON: what it printed (``stdout``), the repr of its last expression when
that is not None (``value``, as Jupyter's Out[n]), and, when it raised, the exception's class and
message (``error``, ``message``). Cells run in one namespace, in order; after an error the next
cells still run, as nbconvert's ``--allow-errors`` does (a guide shows errors on purpose, and one
failing cell then shows what its neighbours still do).

Texts are compared exactly except for the numbers in them: a number with a decimal point or an
exponent matches one printed within a float32 tolerance (``outcome.close``) or within one unit of
its last printed digit (the same float32 value rounded the other way); integers, words and
punctuation match exactly. Object addresses (``at 0x7f...``) are left out of both sides.
"""
import ast
import contextlib
import io
import json
import linecache
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "conformance"))
import outcome  # noqa: E402

NOTEBOOKS = sorted(HERE.glob("*.ipynb"))
FIXTURES = HERE / "fixtures"
KNOWN = HERE / "known.json"
MESSAGE_CHARS = 400


def code_cells(path):
    """The source of every code cell of the notebook at ``path``, in order."""
    nb = json.loads(Path(path).read_text())
    assert nb.get("nbformat") == 4, f"{path}: not an nbformat 4 notebook"
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in nb["cells"] if c["cell_type"] == "code"]


def _split_last_expression(source):
    """(code to exec, last expression to eval or None), as IPython's 'last_expr' rule."""
    tree = ast.parse(source)
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
        return tree, last
    return tree, None


def run_cell(source, namespace, name="<cell>"):
    """Runs one cell in ``namespace`` and returns its outcome."""
    out = io.StringIO()
    result = {}
    # As IPython: the cell's source is findable by its file name (inspect, AutoGraph, tracebacks).
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    try:
        with contextlib.redirect_stdout(out):
            body, last = _split_last_expression(source)
            exec(compile(body, name, "exec"), namespace)
            if last is not None:
                value = eval(compile(last, name, "eval"), namespace)
                if value is not None:
                    result["value"] = repr(value)
    except Exception as e:  # noqa: BLE001 - the exception is the cell's outcome
        result["error"] = type(e).__name__
        result["message"] = str(e)[:MESSAGE_CHARS]
    result["stdout"] = out.getvalue()
    return result


def run_notebook(path):
    """Every code cell's outcome, in order, in one fresh namespace."""
    namespace = {"__name__": "__main__"}
    return [run_cell(src, namespace, f"<{Path(path).stem} cell {i}>")
            for i, src in enumerate(code_cells(path))]


_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?\d+[eE][-+]?\d+")
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_FLOAT32 = outcome._tolerance("float32", (None, None))


def _numbers_close(e, a):
    x, y = float(e), float(a)
    if outcome.close(x, y, _FLOAT32):
        return True
    digits = len(e.split("e")[0].split("E")[0].split(".")[1]) if "." in e else 0
    exponent = int(re.split("[eE]", e)[1]) if re.search("[eE]", e) else 0
    return abs(x - y) <= 10.0 ** (exponent - digits) * 1.0000001


def _shape(text):
    """(text with every float replaced by a mark, the floats) once addresses are removed."""
    text = _ADDRESS.sub("", text)
    return _NUMBER.sub("\0", text), _NUMBER.findall(text)


def texts_match(expected, actual):
    """Whether ``actual`` prints what ``expected`` prints (floats within tolerance)."""
    if expected == actual:
        return True
    (e_text, e_nums), (a_text, a_nums) = _shape(expected), _shape(actual)
    if e_text != a_text or len(e_nums) != len(a_nums):
        return _aligned_match(expected, actual)
    return all(_numbers_close(x, y) for x, y in zip(e_nums, a_nums))


def _aligned_match(expected, actual):
    """NumPy pads an array's columns to its widest number: a last digit more on one side shifts
    the spacing. Compared once runs of spaces are one space."""
    squeeze = re.compile(r"(?<=[\[\s(]) +| +(?=[\]\s,)])")
    e, a = squeeze.sub("", _ADDRESS.sub("", expected)), squeeze.sub("", _ADDRESS.sub("", actual))
    (e_text, e_nums), (a_text, a_nums) = _shape(e), _shape(a)
    return (e_text == a_text and len(e_nums) == len(a_nums)
            and all(_numbers_close(x, y) for x, y in zip(e_nums, a_nums)))


def compare_cell(expected, actual, message_differs=None):
    """Every difference between a recorded cell outcome and ours, as readable lines. Errors are
    compared as conformance compares them (``outcome.compare``): the class, and the message's
    meaning, or with ``message_differs`` = (reason, phrases) the phrases our message must hold."""
    out = []
    if expected.get("error") or actual.get("error"):
        e = {"error": expected.get("error"), "message": expected.get("message", "")}
        a = {"error": actual.get("error"), "message": actual.get("message", "")}
        out += outcome.compare(e, a, messages=True, message=message_differs, path="error")
    if not texts_match(expected.get("stdout", ""), actual.get("stdout", "")):
        out.append(f"printed:\n{expected.get('stdout', '')}\ntapegrad printed:\n"
                   f"{actual.get('stdout', '')}")
    if ("value" in expected) != ("value" in actual) or not texts_match(
            expected.get("value", ""), actual.get("value", "")):
        out.append(f"value {expected.get('value')!r}; tapegrad's {actual.get('value')!r}")
    return out


def fixture_path(notebook):
    return FIXTURES / (Path(notebook).stem + ".json")


def load_known():
    """{notebook stem: {cell index as a string: entry}}. An entry is a reason (a string): the cell
    diverges for it, strictly (the test fails once the cell matches); or {"message_differs":
    reason, "phrases": [...]}: the cell raises TensorFlow's class with a message of our own on
    purpose, which must hold the phrases (the cell then counts as matched)."""
    return json.loads(KNOWN.read_text()) if KNOWN.exists() else {}
