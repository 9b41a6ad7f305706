"""Prints, after the run, per notebook: code cells run, matched TensorFlow, known divergences."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_terminal_summary(terminalreporter):
    test = sys.modules.get("test_notebooks")
    if test is None or not test.REPORT:
        return
    terminalreporter.section("notebooks: code cells run / matched TensorFlow / known divergences")
    for stem in sorted(test.REPORT):
        run, matched, known = test.REPORT[stem]
        terminalreporter.write_line(f"{stem:24} {run:3} run  {matched:3} matched  {known:2} known")
    total = [sum(r[i] for r in test.REPORT.values()) for i in range(3)]
    terminalreporter.write_line(f"{'all':24} {total[0]:3} run  {total[1]:3} matched  {total[2]:2} known")
