"""The bench harness's own logic (engine/bench/peerbench): timing policy, medians, per-case rows
with a fake peer, the report's JSON and Markdown. No timing assertions, no peer libraries."""
import json
import sys
from pathlib import Path

import pytest

if sys.platform == "emscripten":
    pytest.skip("the bench harness runs natively (it starts subprocesses and a browser)",
                allow_module_level=True)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "engine" / "bench"))

from peerbench import cases, columns, results  # noqa: E402
from peerbench.peer_api import Peer  # noqa: E402
from peerbench.run_peer import run_cases  # noqa: E402
from peerbench.timing import Policy, measure  # noqa: E402


class FakeClock:
    """perf_counter stand-in: each step advances time by the next duration."""

    def __init__(self, durations):
        self.durations = list(durations)
        self.now = 0.0
        self.calls = 0

    def __call__(self):
        self.calls += 1
        if self.calls % 2 == 0:          # the second read of a pair ends a step
            self.now += self.durations.pop(0)
        return self.now


def test_measure_takes_the_median_after_warmup_and_keeps_the_first_result():
    results_seen = []

    def step():
        results_seen.append(len(results_seen))
        return float(len(results_seen))

    clock = FakeClock([0.5, 0.1, 0.3, 0.2, 0.4])
    m = measure(step, Policy(warmup=2, min_reps=5, max_reps=5, max_seconds=100), clock=clock)
    assert (m.reps, m.warmup) == (5, 2)
    assert len(results_seen) == 7                 # 2 warm-up calls + 5 timed ones
    assert m.median_s == pytest.approx(0.3)
    assert m.min_s == pytest.approx(0.1)
    assert m.check == 1.0                          # the first call's result


def test_measure_stops_at_the_time_cap_but_not_before_min_reps():
    clock = FakeClock([1.0] * 50)
    m = measure(lambda: 0.0, Policy(warmup=0, min_reps=3, max_reps=50, max_seconds=0.5), clock=clock)
    assert m.reps == 3
    clock = FakeClock([0.1] * 50)
    m = measure(lambda: 0.0, Policy(warmup=0, min_reps=3, max_reps=50, max_seconds=0.55), clock=clock)
    assert m.reps == 6                             # 0.6 s spent >= 0.55 s


def fake_peer():
    peer = Peer("fake", version="1.0", notes="a peer for tests")

    @peer.case("W1")
    def w1(case):
        return lambda: 1.25

    @peer.case("W4-*")
    def gemm(case):
        def step():
            raise RuntimeError("no GEMM today")
        return step

    peer.not_applicable("W2", "fake has no MLP")
    return peer


def test_run_cases_reports_figures_errors_and_not_applicable():
    info = run_cases(fake_peer(), ["W1", "W2", "W4-n64", "W6-d3"], Policy(warmup=1, min_reps=2, max_reps=2))
    rows = {r["case"]: r for r in info["results"]}
    assert info["status"] == "ok" and info["version"] == "1.0"
    assert rows["W1"]["reps"] == 2 and rows["W1"]["check"] == 1.25
    assert rows["W1"]["value"] == pytest.approx(rows["W1"]["median_s"] * 1e6 / cases.W1_OPS)
    assert rows["W2"]["na"] == "fake has no MLP"
    assert "no GEMM today" in rows["W4-n64"]["error"]
    assert "no W6-d3 case" in rows["W6-d3"]["na"]


def test_case_figures_and_selection():
    gemm = cases.BY_ID["W4-n256"]
    assert gemm.figure(2 * 256 ** 3 / 1e9) == pytest.approx(1.0)   # 1 GFLOP/s
    assert cases.BY_ID["W3-b64"].figure(0.002) == pytest.approx(2.0)
    assert [c.id for c in cases.select("W3")] == ["W3-b64", "W3-b256", "W3-b64-fn"]
    assert {c.group for c in cases.select("W1,W4-n64")} == {"W1", "W4"}
    with pytest.raises(ValueError, match="unknown workload"):
        cases.select("W9")
    assert {c.id for c in columns.select("tapegrad", "native")} == {"tapegrad", "tapegrad-nokernels"}
    with pytest.raises(ValueError, match="unknown peer"):
        columns.select("pytorch", "native")


def test_traced_step_rows_are_named_outright():
    # "W3-*" covers W3's eager rows but not the "-fn" rows (the step under @tf.function).
    peer = Peer("fake")
    peer.case("W3-*")(lambda case: None)
    assert peer.builder_for("W3-b256") is not None and peer.builder_for("W3-b64-fn") is None
    peer.case("W3-b64-fn")(lambda case: None)
    assert peer.builder_for("W3-b64-fn") is not None


def make_report():
    def row(column, case, seconds, check=1.0):
        c = cases.BY_ID[case]
        return {"column": column, "case": case, "unit": c.unit, "median_s": seconds,
                "value": c.figure(seconds), "reps": 9, "warmup": 2, "check": check}
    cols = [
        results.column("tapegrad", "tapegrad", "native", {"status": "ok", "version": "0.1", "kernels": "on"}),
        results.column("torch", "PyTorch", "native", {"status": "ok", "version": "9"}),
        results.column("numpy", "NumPy", "native", {"status": "ok"}),
        results.column("micrograd", "micrograd", "native", {"status": "missing", "reason": "pip failed"}),
    ]
    rows = [row("tapegrad", "W1", 0.004), row("torch", "W1", 0.002), row("numpy", "W1", 0.001),
            row("tapegrad", "W4-n64", 2 * 64 ** 3 / 5e9), row("torch", "W4-n64", 2 * 64 ** 3 / 10e9),
            row("numpy", "W4-n64", 0.001, check=2.0),
            {"column": "torch", "case": "W2", "unit": "ms/step", "na": "not today"}]
    return results.make_report({"date": "2026-01-01 00:00 UTC", "cpu": "Test CPU", "nproc": 2},
                               Policy().as_dict(), cols, rows, "npm run bench",
                               {"native": ["W1", "W2", "W4-n64"], "chromium": []})


def test_markdown_table_ratios_and_notes():
    md = results.render_markdown(make_report())
    lines = md.splitlines()
    header = next(ln for ln in lines if ln.startswith("| workload"))
    assert header.split(" | ")[2:] == ["tapegrad", "PyTorch", "NumPy", "micrograd", "tapegrad ÷ PyTorch",
                                       "verdict |"]
    w1 = next(ln for ln in lines if ln.startswith("| W1 "))
    assert w1.endswith("| 4.00 | 2.00 | 1.00 | missing | 2.00× | one pair |")     # µs/op, time ratio
    gemm = next(ln for ln in lines if ln.startswith("| W4-n64 "))
    assert gemm.endswith("| 5.00 | 10.0 | 0.524 | missing | 2.00× | one pair |")  # GFLOP/s, inverted
    w2 = next(ln for ln in lines if ln.startswith("| W2 "))
    assert "| n/a |" in w2 and "| missing |" in w2
    assert "Test CPU, nproc 2" in md
    assert "**MISSING**: pip failed" in md
    assert "n/a for torch in W2: not today" in md
    assert any("tapegrad W4-n64" in m and "numpy" in m for m in results.check_mismatches(make_report()))
    assert "Headless Chromium" not in md                                  # no browser columns


def test_report_is_written_as_json_and_markdown(tmp_path):
    json_path, md_path = results.write(make_report(), tmp_path)
    back = json.loads(json_path.read_text())
    assert back["schema"] == results.SCHEMA
    assert {c["id"] for c in back["columns"]} == {"tapegrad", "torch", "numpy", "micrograd"}
    assert md_path.read_text() == results.render_markdown(back)


def test_rounds_give_each_cell_the_median_of_its_rounds():
    from peerbench.results import median_of_rounds

    def run(w1, w2, check=1.0):
        return {"peer": "tapegrad", "status": "ok", "results": [
            {"case": "W1", "unit": "µs/op", "value": w1, "reps": 10, "check": check},
            {"case": "W2", "unit": "ms/step", "value": w2, "reps": 5, "check": check}]}
    merged = median_of_rounds([run(5.0, 0.9), run(9.0, 0.3, check=2.0), run(6.0, 0.4)])
    by_case = {r["case"]: r for r in merged["results"]}
    assert by_case["W1"]["value"] == 6.0 and by_case["W1"]["rounds"] == [5.0, 9.0, 6.0]
    assert by_case["W2"]["value"] == 0.4
    assert by_case["W1"]["check"] == 1.0                  # the rest from the first round
    missing = {"peer": "jax", "status": "missing", "reason": "not installed", "results": []}
    assert median_of_rounds([missing]) is missing
    rows = results.rows_of("tapegrad", merged)
    assert rows[0]["rounds"] == [5.0, 9.0, 6.0]
    report = make_report()
    report["policy"]["rounds"] = 3
    assert "each cell the median of 3 rounds, native and browser" in results.render_markdown(report)


def test_ratios_are_paired_round_by_round_and_called_only_when_every_pair_agrees():
    def pair(mine, theirs, case="W3-b64"):
        return results.paired_ratio(case, {"rounds": mine}, {"rounds": theirs})
    # Each column's median is 1.0 ms, but tapegrad was slower in two rounds of three.
    noisy = pair([0.8, 1.0, 1.2], [1.2, 0.9, 1.1])
    assert noisy["verdict"] == results.NOISE and noisy["pairs"] == 3
    assert noisy["ratio"] == pytest.approx(1.2 / 1.1)                   # median of 0.667, 1.11, 1.09
    assert (noisy["low"], noisy["high"]) == (pytest.approx(0.8 / 1.2), pytest.approx(1.0 / 0.9))
    assert pair([0.5, 0.9, 0.6], [0.6, 1.0, 0.7])["verdict"] == results.FASTER
    assert pair([0.7, 1.1, 0.8], [0.6, 1.0, 0.7])["verdict"] == results.SLOWER
    assert pair([1.0, 0.5], [1.0, 0.6])["verdict"] == results.NOISE     # a tie is no agreement
    # Higher is better for GFLOP/s: more GFLOP/s in every pair is faster.
    assert pair([12.0, 11.0], [10.0, 10.5], case="W4-n64")["verdict"] == results.FASTER
    # Rounds that measured nothing (None) drop out of the pairs; one pair gives no verdict.
    one = pair([None, 0.9, 1.0], [1.0, None, 2.0])
    assert (one["pairs"], one["ratio"], one["verdict"]) == (1, 0.5, None)
    assert results.ratio_cells(one) == ["0.50×", "one pair"]
    assert pair([None], [1.0]) is None and results.ratio_cells(None) == ["–", "–"]
    assert results.ratio_cells(noisy) == ["1.09× (0.67–1.11)", "within noise"]


def test_the_table_shows_the_paired_ratio_its_range_and_the_verdict():
    report = make_report()
    for row in report["results"]:
        if row["case"] == "W1" and row["column"] in ("tapegrad", "torch"):
            row["rounds"] = [3.0, 4.0, 5.0] if row["column"] == "tapegrad" else [2.0, 5.0, 4.0]
    w1 = next(ln for ln in results.render_markdown(report).splitlines() if ln.startswith("| W1 "))
    assert w1.endswith("| 1.25× (0.80–1.50) | within noise |")           # 1.5, 0.8, 1.25
    assert "faster\" only when tapegrad was faster in every pair" in results.render_markdown(report)


def test_rounds_keep_their_places_so_that_round_i_pairs_with_round_i():
    from peerbench.results import median_of_rounds

    def run(value, status="ok"):
        rows = [] if value is None else [{"case": "W2", "unit": "ms/step", "value": value}]
        return {"peer": "torch", "status": status, "results": rows}
    merged = median_of_rounds([run(1.0), run(None), run(3.0), {"status": "failed", "results": []}])
    row = merged["results"][0]
    assert row["rounds"] == [1.0, None, 3.0, None] and row["value"] == 2.0


def test_the_browser_table_adds_all_threads_against_one_and_against_tfjs_threads():
    def row(col, case, rounds):
        return {"column": col, "case": case, "unit": "ms/step", "value": sorted(rounds)[1], "rounds": rounds}
    ids = ["pyodide-tapegrad", "tfjs-wasm", "pyodide-tapegrad-threads", "tfjs-wasm-threads"]
    cols = [results.column(c.id, c.label, "chromium", {"status": "ok"}) for c in columns.BROWSER if c.id in ids]
    rows = [row("pyodide-tapegrad", "W3-b256", [10.0, 12.0, 11.0]), row("tfjs-wasm", "W3-b256", [100.0, 90.0, 95.0]),
            row("pyodide-tapegrad-threads", "W3-b256", [6.0, 6.0, 5.5]),
            row("tfjs-wasm-threads", "W3-b256", [50.0, 45.0, 40.0]),
            row("pyodide-tapegrad", "W2", [1.0, 1.0, 1.0]), row("tfjs-wasm", "W2", [2.0, 2.0, 2.0])]
    report = results.make_report({"date": "d", "cpu": "c", "nproc": 2}, Policy().as_dict(), cols, rows,
                                 "npm run bench", {"native": [], "chromium": ["W2", "W3-b256"]})
    lines = results.render_markdown(report).splitlines()
    header = next(ln for ln in lines if ln.startswith("| workload")).split(" | ")
    assert header[-6:] == ["tapegrad (Pyodide) ÷ TF.js wasm (SIMD, 1 thread)", "verdict",
                           "tapegrad (Pyodide), all threads ÷ tapegrad (Pyodide)", "verdict",
                           "tapegrad (Pyodide), all threads ÷ TF.js wasm (SIMD, all threads)", "verdict |"]
    w3 = next(ln for ln in lines if ln.startswith("| W3-b256 "))
    assert w3.endswith("| 0.12× (0.10–0.13) | faster | 0.50× (0.50–0.60) | faster "
                       "| 0.13× (0.12–0.14) | faster |")
    w2 = next(ln for ln in lines if ln.startswith("| W2 "))
    assert w2.endswith("| 1.00 | 2.00 | – | – | 0.50× (0.50–0.50) | faster | – | – | – | – |")   # no threaded W2


def test_all_threads_columns_run_only_the_large_product_cases():
    threaded = [c for c in columns.BROWSER if c.threads == "all"]
    assert {c.id for c in threaded} == {"pyodide-tapegrad-threads", "tfjs-wasm-threads"}
    assert all(c.cases == ("W3-b256", "CNN-step") for c in threaded)
    assert all(c.threads == "1" and not c.cases for c in columns.BROWSER if c not in threaded)
    assert "CNN" in cases.BROWSER_GROUPS                    # the CNN step runs in Chromium too
    assert {c.id for c in columns.select("tfjs", "chromium")} == {"tfjs-wasm", "tfjs-wasm-threads"}
