"""One definition per public name (issue 27): every face agrees with api_index.py, no face module
binds a name twice, the coverage table agrees with the index, and each op with a ragged (or
sparse) form is one object in every face and hands RaggedTensors to that form."""
import ast
import importlib
import pathlib
import re
import types

import pytest

import tapegrad as tf
from tapegrad import api_index
from tapegrad.ops import composite_dispatch

PACKAGE = pathlib.Path(tf.__file__).resolve().parent
ROOT = PACKAGE.parents[1]
REPO = pathlib.Path(__file__).resolve().parents[2]   # the repository (in Pyodide too)
FACE_FILES = ["__init__.py", "math.py", "nn.py", "linalg.py", "signal.py", "image.py", "strings.py",
              "sparse.py", "ragged.py", "bitwise.py", "sets.py", "debugging.py", "config.py",
              "random.py", "nn_experimental.py", "ops/__init__.py"]


def _face(face):
    """The module (or namespace class) ``face`` names ("tf.nn.experimental")."""
    obj = tf
    for part in face.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def _public(obj):
    """The public names ``obj`` shows, submodules left out (the import system sets those)."""
    return {n for n in vars(obj) if not n.startswith("_")
            and not isinstance(getattr(obj, n), types.ModuleType)}


@pytest.mark.parametrize("face", sorted(api_index.FACES))
def test_every_face_shows_exactly_the_names_of_the_index(face):
    module = _face(face)
    listed = {}
    for public, source, there in api_index.entries(face):
        assert public not in listed, f"{face}.{public} is listed twice in api_index.py"
        listed[public] = (source, there)
    assert _public(module) == set(listed), "names the face shows but the index lacks, or the " \
        "other way round"
    for public, (source, there) in listed.items():
        if source == "own":
            home = getattr(getattr(module, public), "__module__", module.__name__)
            assert home in (module.__name__, None) or getattr(module, public) is None, public
        else:
            assert getattr(module, public) is api_index.resolve(source, there), \
                f"{face}.{public} is not tapegrad.{source}.{there}"


def _target_names(target):
    """The names an assignment target binds (``a``, ``a, b``; not ``module.attr``)."""
    if isinstance(target, ast.Name):
        return [target]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for t in target.elts for n in _target_names(t)]
    return []


def _bound_names(tree):
    """Module-level names bound by imports, assignments, functions and classes, with counts."""
    counts = {}
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [(a.asname or a.name).split(".")[0] for a in node.names]
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [n.id for t in targets for n in _target_names(t)]
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names = [node.name]
        else:
            names = []
        for n in names:
            counts[n] = counts.get(n, 0) + 1
    return counts


@pytest.mark.parametrize("path", FACE_FILES)
def test_no_face_binds_a_name_twice(path):
    counts = _bound_names(ast.parse((PACKAGE / path).read_text()))
    # tf.config.experimental is a namespace class whose attributes are assigned one by one
    twice = {n: c for n, c in counts.items() if c > 1 and not (path == "config.py"
                                                              and n == "experimental")}
    assert twice == {}, f"{path} binds these names more than once (the later one wins silently)"


def test_bind_refuses_a_name_bound_twice():
    namespace = {"abs": len}
    api_index.FACES["tf.test_only"] = {"ops": "abs"}
    try:
        with pytest.raises(ValueError, match="tf.test_only.abs is bound twice"):
            api_index.bind(namespace, "tf.test_only")
    finally:
        del api_index.FACES["tf.test_only"]


def _coverage_implemented():
    """{namespace: {name: implemented?}} read from docs/coverage.md."""
    table, ns = {}, None
    for line in (REPO / "docs" / "coverage.md").read_text().splitlines():
        heading = re.match(r"## (tf[\w.]*)$", line)
        if heading:
            ns = heading.group(1)
            table[ns] = {}
            continue
        row = re.match(r"\| `(\w+)` \| (\w+) \| (✓?) \|", line)
        if ns and row:
            table[ns][row.group(1)] = (row.group(2), row.group(3) == "✓")
    return table


def test_the_coverage_table_agrees_with_the_index():
    table = _coverage_implemented()
    checked = 0
    for face in api_index.FACES:
        names = {public for public, _, _ in api_index.entries(face)}
        for name, (kind, implemented) in table.get(face, {}).items():
            if kind == "module":
                continue
            assert implemented == (name in names), f"docs/coverage.md and api_index.py " \
                f"disagree on {face}.{name}: run build/coverage.py, or fix the index"
            checked += 1
    assert checked > 500


# -- dispatch on composite tensors ----------------------------------------------------------------
def _faces_showing(op):
    public = composite_dispatch.public_op(op)
    found = []
    for face in api_index.FACES:
        module = _face(face)
        found += [(f"{face}.{n}", getattr(module, n)) for n in _public(module)
                  if getattr(getattr(module, n), "__wrapped__", None) is op
                  or getattr(module, n) is op or getattr(module, n) is public]
    ops = importlib.import_module("tapegrad.ops")
    found += [(f"ops.{n}", getattr(ops, n)) for n in dir(ops)
              if not n.startswith("_") and getattr(ops, n) in (op, public)]
    return public, found


def test_every_op_with_a_composite_form_is_one_object_in_every_face():
    assert len(composite_dispatch.registered_ops()) > 80
    for op in composite_dispatch.registered_ops():
        public, found = _faces_showing(op)
        assert found, f"{op.__name__} has a ragged form but no face shows it"
        assert all(obj is public for _, obj in found), \
            [name for name, obj in found if obj is not public]
    assert tf.reduce_sum is tf.ops.reduce_sum is tf.math.reduce_sum
    assert tf.add is tf.math.add and tf.nn.relu is tf.ops.relu
    assert tf.strings.length is tf.ops.string_length and tf.concat is tf.ops.concat


def test_ragged_inputs_reach_the_registered_form_through_every_face(monkeypatch):
    rt = tf.ragged.constant([[1.0, 2.0], [3.0]])
    table = composite_dispatch.FORMS[tf.RaggedTensor]
    for op in list(table):
        reached = []
        monkeypatch.setitem(table, op, lambda *a, _op=op, **k: reached.append(_op) or "ragged")
        _, found = _faces_showing(op)
        for name, obj in found:
            args = ([rt, rt], 0) if op in composite_dispatch.IN_LISTS else (rt,)
            assert obj(*args) == "ragged", name
        assert len(reached) == len(found)


def test_ragged_forms_compute_what_tensorflow_does():
    rt = tf.ragged.constant([[1.0, 2.0], [3.0]])
    assert tf.reduce_sum(rt, axis=1).numpy().tolist() == [3.0, 3.0]
    assert tf.math.reduce_mean(rt, axis=1).numpy().tolist() == [1.5, 3.0]
    assert tf.add(rt, 3.0).to_list() == [[4.0, 5.0], [6.0]]
    assert tf.nn.relu(-rt).to_list() == [[0.0, 0.0], [0.0]]
    assert tf.concat([rt, rt], axis=1).to_list() == [[1.0, 2.0, 1.0, 2.0], [3.0, 3.0]]
    words = tf.ragged.constant([["ab"], ["c", ""]])
    assert tf.strings.length(words).to_list() == [[2], [1, 0]]
    # a plain tensor goes to the dense op unchanged
    assert tf.reduce_sum(tf.constant([[1.0, 2.0]]), axis=1).numpy().tolist() == [3.0]
    assert tf.concat([[1], [2]], 0).numpy().tolist() == [1, 2]
