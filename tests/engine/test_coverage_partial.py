"""docs/coverage.md says "partial" where an implemented name raises NotImplementedError for some
arguments (its own code or the functions of its module it calls), with the message in its
notes, and not where TensorFlow raises the same NotImplementedError itself."""
import sys
from pathlib import Path

import pytest

import tapegrad

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(sys.platform == "emscripten" or not (ROOT / "build").is_dir(),
                                reason="build/coverage.py runs natively, from the repository")


def test_a_name_that_refuses_some_arguments_is_partial(coverage_script):
    found = coverage_script.unimplemented_cases(tapegrad.linalg.diag)
    assert found == ["linalg.diag: only the main diagonal (k=0) is implemented"]
    # reached through a helper of its module: gather's batch_dims
    assert any("batch_dims" in m for m in coverage_script.unimplemented_cases(tapegrad.gather))


def test_what_tensorflow_refuses_too_is_not_partial(coverage_script):
    assert coverage_script.unimplemented_cases(tapegrad.signal.dct) == []
    assert coverage_script.unimplemented_cases(tapegrad.add) == []


def test_the_table_marks_and_explains_partial_names():
    text = (ROOT / "docs" / "coverage.md").read_text()
    row = next(line for line in text.splitlines() if line.startswith("| `diag` | function"))
    cells = [c.strip() for c in row.split("|")]
    assert cells[6] == "✓" and "partial: NotImplementedError for linalg.diag" in cells[8]
    dct = next(line for line in text.splitlines() if line.startswith("| `dct` | function"))
    assert [c.strip() for c in dct.split("|")][6] == ""
