"""The harness itself: cells run as Jupyter runs them, and the comparer tells real differences."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cells  # noqa: E402


def test_a_cell_shows_its_last_expression_and_its_prints():
    ns = {}
    assert cells.run_cell("x = 2\nprint('hi')\nx * 3", ns) == {"value": "6", "stdout": "hi\n"}
    assert cells.run_cell("x = 5", ns) == {"stdout": ""}
    assert cells.run_cell("None", ns) == {"stdout": ""}


def test_an_error_is_the_cell_outcome_and_the_next_cell_runs():
    ns = {}
    got = cells.run_cell("print('before')\n1 / 0", ns)
    assert got == {"error": "ZeroDivisionError", "message": "division by zero", "stdout": "before\n"}
    assert cells.run_cell("y = 1\ny", ns)["value"] == "1"


def test_a_cell_function_has_its_source():
    ns = {}
    cells.run_cell("def f():\n    return 1", ns, "<nb cell 0>")
    assert "return 1" in cells.run_cell("import inspect\ninspect.getsource(f)", ns)["value"]


def test_floats_match_within_float32_or_the_last_printed_digit():
    assert cells.texts_match("loss=0.12345", "loss=0.12346")
    assert cells.texts_match("[0.1 0.30000001]", "[0.1 0.3]")   # NumPy's padding shifts
    assert cells.texts_match("1.2345678e-08", "1.2345679e-08")
    assert not cells.texts_match("loss=0.12345", "loss=0.12355")
    assert not cells.texts_match("W=3.01", "W=3.03")
    assert not cells.texts_match("[1 2 3]", "[1 2 4]")              # integers are exact
    assert not cells.texts_match("dtype=int32", "dtype=int64")
    assert cells.texts_match("<Foo object at 0x7f12ab>", "<Foo object at 0x55aa>")


def test_compare_cell_names_each_difference():
    rec = {"stdout": "a\n", "value": "1.5"}
    assert cells.compare_cell(rec, {"stdout": "a\n", "value": "1.5000001"}) == []
    assert len(cells.compare_cell(rec, {"stdout": "b\n", "value": "2.5"})) == 2
    err = {"error": "ValueError", "message": "Shapes (2,) and (3,) are incompatible", "stdout": ""}
    assert cells.compare_cell(err, {"error": "ValueError", "message": "shapes (2,) vs (3,)",
                                     "stdout": ""}) == []
    assert cells.compare_cell(err, {"error": "ValueError", "message": "shapes (2,) vs (4,)",
                                     "stdout": ""})
    assert cells.compare_cell(err, {"error": "TypeError", "message": err["message"], "stdout": ""})
    assert cells.compare_cell(err, {"stdout": ""})
