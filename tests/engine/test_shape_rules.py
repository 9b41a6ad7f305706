"""Every primitive's shape rule (abstract evaluation) against its implementation.

(a) The conformance cases (tests/conformance/cases) run natively with ``bind`` observed: for every
primitive executed, its shape rule is evaluated on the actual input shapes, dtypes and attributes
and must give the actual output's shape and dtype; again with every dimension unknown (and with
unknown ranks), where its answer must be compatible with the actual one. Primitives no case
executes run in ``DIRECT`` below, so that every rule is checked at least once.
(b) Incompatible inputs: the rules raise TensorFlow's graph ``ValueError`` with its wording
(cases/shape_rules.py, recorded inside ``tf.function`` traces).
"""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import tapegrad
from tapegrad import recording, shape_rules
from tapegrad.shape_rules import Spec, is_compatible, unknown_dims
from tapegrad.table import TABLE

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
import cases  # noqa: E402
import outcome  # noqa: E402

ENGINE_PRIMITIVES = dict(TABLE)    # declared by the engine (tests may add their own later)
SAMPLES_PER_PRIMITIVE = 40

# Primitives whose output size depends on values, so their rules leave dimensions unknown even
# for known input shapes (as TensorFlow's graph does).
VALUE_DEPENDENT = {
    "DenseBincount": "the output length is the largest value plus one when no size is given",
    "DynamicStitch": "the output length is the largest index plus one",
}


def _spec(value):
    return shape_rules.of_value(value if hasattr(value, "dtype") else np.asarray(value))


def _out_specs(value):
    if isinstance(value, (tuple, list)):
        return tuple(_spec(v) for v in value)
    return _spec(value)


class Observer:
    """Replaces ``recording.bind`` in every engine module while active and keeps, per
    primitive, samples of (input specs, attrs, output spec)."""

    def __init__(self):
        self.samples = {}
        self.patched = []

    def __enter__(self):
        original = recording.bind
        observer = self

        def bind(prim, inputs, attrs):
            out = original(prim, inputs, attrs)
            kept = observer.samples.setdefault(prim.name, {})
            if len(kept) < SAMPLES_PER_PRIMITIVE:
                specs = tuple(_spec(x._value) for x in inputs)
                key = (specs, repr(sorted(attrs.items()))[:2000])
                kept.setdefault(key, (specs, dict(attrs), _out_specs(out._value)))
            return out
        for module in list(sys.modules.values()):
            if not getattr(module, "__name__", "").startswith("tapegrad"):
                continue
            for name, value in list(vars(module).items()):
                if value is original:
                    self.patched.append((module, name, value))
                    setattr(module, name, bind)
        return self

    def __exit__(self, *exc):
        for module, name, value in self.patched:
            setattr(module, name, value)
        return False


def _check(name, specs, attrs, actual):
    """Differences between the rule's answers and the actual output (empty: agrees)."""
    rule = ENGINE_PRIMITIVES[name].shape
    if rule is None:
        return [f"{name}: no shape rule"]
    problems = []
    for label, given in (("known", specs), ("unknown dims", tuple(map(unknown_dims, specs))),
                         ("unknown rank", tuple(Spec(None, s.dtype) for s in specs))):
        try:
            inferred = rule(given, attrs)
        except Exception as e:  # noqa: BLE001 - reported as a difference
            problems.append(f"{name} ({label}) {given} {attrs}: raised {type(e).__name__}: {e}")
            continue
        problems += _compare(name, label, given, attrs, inferred, actual)
    return problems


def _compare(name, label, given, attrs, inferred, actual):
    many = not isinstance(actual, Spec)
    if many != (not isinstance(inferred, Spec)) or (many and len(inferred) != len(actual)):
        return [f"{name} ({label}): rule gave {inferred}, op gave {actual}"]
    pairs = zip(inferred, actual) if many else [(inferred, actual)]
    out = []
    for got, want in pairs:
        exact = label != "known" or name in VALUE_DEPENDENT or got == want
        if not (is_compatible(got, want) and exact):
            out.append(f"{name} ({label}) on {given} {attrs}: rule gave {got}, op gave {want}")
    return out


def _conformance_cases():
    for area in cases.areas():
        module = cases.load(area)
        yield from cases.case_functions(module).values()


@pytest.fixture(scope="module")
def observed():
    with Observer() as seen:
        for fn in _conformance_cases():
            tapegrad.keras.backend.clear_session()
            outcome.run(fn, tapegrad)
        for fn in DIRECT.values():
            fn(tapegrad)
    tapegrad.keras.backend.clear_session()
    return seen.samples


def test_every_primitive_has_a_shape_rule():
    missing = sorted(n for n, p in ENGINE_PRIMITIVES.items() if p.shape is None)
    assert not missing, f"primitives without a shape rule (table.defshape): {missing}"


# Primitives never run through ``bind``: checked on their own below.
NOT_BOUND = {"ReadVariableOp": "a tape records a variable's read itself (backprop.READ)"}


def test_every_primitive_is_executed_by_a_case_or_directly(observed):
    unseen = sorted(set(ENGINE_PRIMITIVES) - set(observed) - set(NOT_BOUND))
    assert not unseen, f"no conformance case executes {unseen}; add each to DIRECT"


def test_shape_rules_agree_with_the_implementation(observed):
    problems = []
    for name, kept in sorted(observed.items()):
        if name not in ENGINE_PRIMITIVES:
            continue
        for specs, attrs, actual in kept.values():
            problems += _check(name, specs, attrs, actual)
    assert not problems, f"{len(problems)} disagreements:\n" + "\n".join(problems[:60])


def test_read_variable_gives_the_variable_shape():
    v = tapegrad.Variable(np.zeros((2, 3), np.float32))
    with tapegrad.GradientTape() as tape:
        y = v * 1.0
    record = next(r for r in tape._records if r.op.name == "ReadVariableOp") if hasattr(
        tape, "_records") else None
    given = (Spec((2, 3), tapegrad.float32),)
    assert TABLE["ReadVariableOp"].shape(given, {}) == Spec((2, 3), tapegrad.float32)
    assert tuple(y.shape) == (2, 3) and (record is None or tuple(record.output.shape) == (2, 3))


# (b) TensorFlow's graph errors ----------------------------------------------------------------

def _shape_rule_cases():
    module = cases.load("shape_rules")
    recorded = json.loads(cases.fixture_path("shape_rules").read_text())["cases"]
    return [pytest.param(fn, recorded[name], id=name)
            for name, fn in cases.case_functions(module).items()]


@pytest.mark.parametrize("fn,recorded", _shape_rule_cases())
def test_graph_errors_and_shapes_as_tensorflow(fn, recorded):
    got = outcome.run(fn, tapegrad)
    if "error" in recorded:
        assert recorded["error"] == "ValueError" and got.get("error") == "ValueError", got
        assert outcome.meaning(got["message"]) == outcome.meaning(recorded["message"]) or (
            outcome.message_matches(recorded["message"], got["message"])), (recorded, got)
    assert not outcome.compare(recorded, got), outcome.compare(recorded, got)


def test_mismatch_messages_name_the_node():
    x = shape_rules.spec([2], "float32")
    with pytest.raises(ValueError) as e:
        TABLE["AddV2"].shape((x, shape_rules.spec([3], "float32")), {})
    assert str(e.value) == ("Dimensions must be equal, but are 2 and 3 for '{{node AddV2}} = "
                            "AddV2[T=DT_FLOAT](x, y)' with input shapes: [2], [3].")


# Primitives no conformance case executes: a small call each --------------------------------

DIRECT = {
    # the distribute cases that all-reduce need threads (Pyodide has none): the one-replica group
    "CollectiveAllReduce": lambda tf: tf.distribute.allreduce.all_reduce(tf.constant([1.0, 2.0])),
}
