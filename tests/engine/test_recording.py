"""The hot path's bookkeeping: each record's source line (kept lazily), and bind's calls."""
import sys

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import recording


def _here():
    """The caller's (code, f_lasti, f_lineno), read from its live frame."""
    f = sys._getframe(1)
    return f.f_code, f.f_lasti, f.f_lineno


def _sampled():
    out = [_here()]
    total = 0
    for i in range(3):
        try:
            total += (
                i
                * 2
            )
            out.append(_here())
            if i == 1:
                raise ValueError
        except ValueError:
            out.append(_here())
        finally:
            out.append(_here())
    out.append(
        _here()
    )
    return out


def test_line_at_agrees_with_the_frame_line_number():
    for code, lasti, lineno in _sampled():
        assert recording.line_at(code, lasti) == lineno


def test_each_record_has_the_users_file_line_and_function():
    x = tf.Variable(np.ones(3, np.float32))
    with tf.GradientTape() as tape:
        first = sys._getframe().f_lineno + 1
        y = x * 2.0
        z = tf.reduce_sum(
            y * y)
    mul, mul2, total = [r for r in tape.records if r.op.name != "ReadVariableOp"]
    fn = "test_each_record_has_the_users_file_line_and_function"
    assert mul.where == (__file__, first, fn)
    assert mul2.where == (__file__, first + 2, fn)
    assert total.where[1] in (first + 1, first + 2) and total.where[2] == fn
    assert tape.gradient(z, x) is not None
    assert mul.where is mul.where   # resolved once, then kept


def _helper(v):
    return v * 3.0          # the line a record made here must name


def test_the_innermost_user_frame_is_named_not_its_caller():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        _helper(x)
    (rec,) = tape.records
    assert rec.where == (__file__, _helper.__code__.co_firstlineno + 1, "_helper")


def test_code_run_by_exec_gets_its_own_file_name_and_line():
    src = "import tapegrad as tf\nx = tf.constant(2.0)\nwith tf.GradientTape() as t:\n" \
          "    t.watch(x)\n\n    y = x * x\n"
    scope = {}
    exec(compile(src, "main.py", "exec"), scope)
    (rec,) = scope["t"].records
    assert rec.where == ("main.py", 6, "<module>")


def test_no_source_lines_when_capture_is_off(monkeypatch):
    monkeypatch.setattr(recording, "capture_source_lines", False)
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    (rec,) = tape.records
    assert rec.where is None
    assert float(tape.gradient(y, x)) == 4.0


def test_record_built_directly_keeps_the_line_it_was_given():
    rec = recording.Record.of(None, (), None, {}, ("f.py", 3, "g"), None)
    assert rec.where == ("f.py", 3, "g")
    assert recording.Record.of(None, (), None, {}, None, None).where is None


def test_bind_passes_attributes_only_when_there_are_some():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert tf.reduce_sum(x, axis=0).numpy().tolist() == [4.0, 6.0]
    assert (x * x).numpy().tolist() == [[1.0, 4.0], [9.0, 16.0]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
        x * tf.constant([1.0, 2.0, 3.0])


def _scaled_product_primitive(name):
    from tapegrad.table import defvjp, primitive
    prim = primitive(name, lambda a, b, scale=1.0: a * b * scale)
    defvjp(prim, lambda g, ans, a, b, scale=1.0: g * b * scale,
           lambda g, ans, a, b, scale=1.0: g * a * scale)
    return prim


def test_backward_calls_defvjp_rules_with_and_without_attributes():
    prim = _scaled_product_primitive("TestScaledProduct")
    x, y = tf.constant(2.0), tf.constant(5.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        plain = recording.bind(prim, (x, y), {})
        scaled = recording.bind(prim, (x, y), {"scale": 3.0})
    assert [float(g) for g in tape.gradient(plain, [x, y])] == [5.0, 2.0]
    assert [float(g) for g in tape.gradient(scaled, [x, y])] == [15.0, 6.0]
    assert tape.gradient(plain, [x, tf.constant(1.0)])[1] is None


def test_backward_uses_a_vjp_that_replaced_the_defvjp_one(monkeypatch):
    prim = _scaled_product_primitive("TestReplacedProduct")
    calls = []

    def replaced(g, ans, inputs, attrs, wanted):
        calls.append(tuple(wanted))
        return (g * 100.0, None)
    monkeypatch.setattr(prim, "vjp", replaced)
    x, y = tf.constant(2.0), tf.constant(5.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = recording.bind(prim, (x, y), {})
    assert float(tape.gradient(z, x)) == 100.0 and calls == [(True, False)]
