"""Prints, after the run, per notebook: code cells run, matched TensorFlow, known divergences, and
how many of the matched cells raise with a message of tapegrad's own (known.json's message_differs)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_terminal_summary(terminalreporter):
    test = sys.modules.get("test_notebooks")
    if test is None or not test.REPORT:
        return
    terminalreporter.section("notebooks: code cells run / matched TensorFlow / known divergences")
    for stem in sorted(test.REPORT):
        terminalreporter.write_line(_line(stem, *test.REPORT[stem]))
    totals = [sum(r[i] for r in test.REPORT.values()) for i in range(4)]
    terminalreporter.write_line(_line("all", *totals))


def _line(name, run, matched, known, own):
    own = f" ({own} with a message of our own)" if own else ""
    return f"{name:24} {run:3} run  {matched:3} matched{own}  {known:2} known divergences"
