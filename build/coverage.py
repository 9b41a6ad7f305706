"""Writes docs/coverage.md: for each public TensorFlow name in the namespaces tapegrad follows,
whether tapegrad implements it, and whether a conformance case checks it (and its gradient)
against recorded TensorFlow 2.21. Also writes engine/tapegrad/tf_api_names.json, the list of
TensorFlow's names that ``tapegrad.api_gaps`` uses for its "not implemented yet" error.

    .venv/bin/python build/coverage.py           # write both files
    .venv/bin/python build/coverage.py --check   # exit 1 if either is out of date

Inputs: tests/conformance/fixtures/tf_api.json (TensorFlow's listing, record_api.py), the case
files tests/conformance/cases/*.py with their fixtures, and the ``NOTES`` dict a case file may
define (``{"tf.nn.gelu": "what differs, or which TensorFlow quirk is matched"}``).
"""
import ast
import contextlib
import importlib
import inspect
import io
import json
import logging
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONF = ROOT / "tests" / "conformance"
OUT = ROOT / "docs" / "coverage.md"
NAMES_OUT = ROOT / "engine" / "tapegrad" / "tf_api_names.json"


def tf_listing():
    return json.loads((CONF / "fixtures" / "tf_api.json").read_text())


def tapegrad_namespace(path):
    """The tapegrad object for a TensorFlow namespace path ("tf.keras.layers"), or None."""
    import tapegrad
    obj = tapegrad
    for part in path.split(".")[1:]:
        try:
            obj = getattr(obj, part)
        except AttributeError:
            return None
    return obj


def implemented(ns_obj, name):
    if ns_obj is None:
        return False
    try:
        getattr(ns_obj, name)
        return True
    except AttributeError:
        return False
    except Exception:  # noqa: BLE001 - a name that exists but fails to load is not usable
        return False


def _message(node):
    """The text of a ``raise NotImplementedError(...)``'s message, {…} for formatted parts."""
    if not isinstance(node.exc, ast.Call) or not node.exc.args:
        return "for some arguments"
    arg = node.exc.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{…}" for v in arg.values)
    return "for some arguments"


_MODULE_TREES = {}

# NotImplementedError that TensorFlow 2.21 raises itself, with these words (checked in .tf-venv):
# matching it is not a gap. An abstract base's "does not define" is not one either.
AS_TENSORFLOW = ("is undefined when eager execution is enabled",
                 "is not supported when eager execution is enabled",
                 "is not supported when executing eagerly", "axis must be -1", "does not define _")


def _module_functions(module):
    """name -> FunctionDef/ClassDef node of a module's top level (parsed once)."""
    if module not in _MODULE_TREES:
        try:
            tree = ast.parse(inspect.getsource(module))
        except (OSError, TypeError):
            tree = ast.Module(body=[], type_ignores=[])
        _MODULE_TREES[module] = {n.name: n for n in tree.body
                                 if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    return _MODULE_TREES[module]


def unimplemented_cases(obj, depth=2):
    """Messages of the NotImplementedError that ``obj`` raises for some arguments: in its own
    code or in the functions of its module it calls (``depth`` calls deep)."""
    obj = inspect.unwrap(obj) if callable(obj) else obj
    module = inspect.getmodule(obj)
    name = getattr(obj, "__name__", None)
    if module is None or name is None or not (inspect.isfunction(obj) or inspect.isclass(obj)):
        return []
    table = _module_functions(module)
    seen, found, frontier = set(), [], [table.get(name)]
    for _ in range(depth + 1):
        following = []
        for node in filter(None, frontier):
            if node.name in seen:
                continue
            seen.add(node.name)
            for sub in ast.walk(node):
                if isinstance(sub, ast.Raise) and sub.exc is not None and "NotImplementedError" in \
                        ast.unparse(sub.exc.func if isinstance(sub.exc, ast.Call) else sub.exc):
                    found.append(_message(sub))
                elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name):
                    following.append(table.get(sub.func.id))
        frontier = following
    return [m for m in dict.fromkeys(found) if not any(t in m for t in AS_TENSORFLOW)]


def _attribute_path(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id == "tf":
        return ["tf"] + parts[::-1]
    return None


def _with_helpers(case, helpers):
    """The nodes of ``case`` and of the case file's helper functions it calls (a helper that makes
    a strategy or a model for several cases checks the names it uses in each)."""
    seen, frontier = set(), [case]
    while frontier:
        node = frontier.pop()
        for sub in ast.walk(node):
            yield sub
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and \
                    sub.func.id in helpers and sub.func.id not in seen:
                seen.add(sub.func.id)
                frontier.append(helpers[sub.func.id])


def _computes_gradients(src):
    return any(k in src for k in (".gradient(", "jacobian(", ".fit(", "apply_gradients",
                                  "minimize(", "train_on_batch("))


def _gradient_helpers(tree, text):
    """Names of the case file's own helper functions that compute gradients."""
    return {node.name for node in tree.body
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("case_")
            and _computes_gradients(ast.get_source_segment(text, node) or "")}


def case_references():
    """``{"tf.math.add": {"tested", "gradient"}}`` from the recorded case files, and NOTES."""
    refs = defaultdict(set)
    notes = {}
    gradient_cases, candidates = [], set()
    for path in sorted((CONF / "cases").glob("*.py")):
        if path.stem.startswith("_"):
            continue
        fixture = CONF / "fixtures" / f"{path.stem}.json"
        recorded = set(json.loads(fixture.read_text())["cases"]) if fixture.exists() else set()
        text = path.read_text()
        tree = ast.parse(text)
        grad_helpers = _gradient_helpers(tree, text)
        helpers = {n.name: n for n in tree.body
                   if isinstance(n, ast.FunctionDef) and not n.name.startswith("case_")}
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "NOTES" for t in node.targets):
                notes.update(ast.literal_eval(node.value))
            if not (isinstance(node, ast.FunctionDef) and node.name.startswith("case_")
                    and node.name in recorded):
                continue
            src = ast.get_source_segment(text, node) or ""
            grad = _computes_gradients(src) or any(
                isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id in grad_helpers
                for c in ast.walk(node))
            if grad:
                gradient_cases.append((path.stem, node.name))
            for sub in _with_helpers(node, helpers):
                p = _attribute_path(sub) if isinstance(sub, ast.Attribute) else None
                if p and len(p) >= 2:
                    for cut in range(2, len(p) + 1):   # tf.keras.layers.Dense and its prefixes
                        key = ".".join(p[:cut])
                        refs[key].add("tested")
                        if grad:
                            candidates.add(key)
    differentiated = differentiated_names(_case_function(*c) for c in gradient_cases)
    for key in candidates:
        if key in differentiated or not _is_function(key):
            refs[key].add("gradient")
    return refs, notes


def _is_function(key):
    """Whether ``key`` ("tf.math.sin") names a function in tapegrad (its outputs can be followed
    at run time); classes (layers, optimizers, GradientTape) keep the case-level mark."""
    obj = tapegrad_namespace(key.rsplit(".", 1)[0]) if "." in key else None
    obj = getattr(obj, key.rsplit(".", 1)[-1], None) if obj is not None else None
    return inspect.isfunction(obj) or inspect.isbuiltin(obj)


class _Tagging:
    """Stands in for ``tapegrad`` (as a case's ``tf``): functions reached through it note the
    ids of the tensors they return under their path ("tf.math.sin")."""

    def __init__(self, obj, path, tags):
        self._obj, self._path, self._tags = obj, path, tags

    def __getattr__(self, name):
        value = getattr(self._obj, name)
        path = f"{self._path}.{name}"
        if inspect.ismodule(value):
            return _Tagging(value, path, self._tags)
        if inspect.isfunction(value) or inspect.isbuiltin(value):
            return _tagged(value, path, self._tags)
        return value


def _tagged(fn, path, tags):
    import tapegrad

    def call(*args, **kwargs):
        out = fn(*args, **kwargs)
        if callable(out) and not isinstance(out, tapegrad.Tensor):
            tags[path] = path   # a decorator (tf.function, recompute_grad): the case's mark
            return out
        for leaf in tapegrad.nest.flatten(out):
            # a sparse or ragged result: its values tensor carries the gradient
            for t in (leaf, getattr(leaf, "values", None), getattr(leaf, "flat_values", None)):
                if isinstance(t, tapegrad.Tensor):
                    tags.setdefault(t._id, path)
        return out
    return call


_CASE_MODULES = {}


def _case_function(area, name):
    if area not in _CASE_MODULES:
        sys.path.insert(0, str(CONF))
        import cases as case_files
        _CASE_MODULES[area] = case_files.load(area)
    return getattr(_CASE_MODULES[area], name)


def differentiated_names(case_functions):
    """The paths of functions whose result a gradient actually flowed through (a rule ran with a
    cotangent for it) when the cases (functions of ``tf``) run on tapegrad."""
    import tapegrad
    import tapegrad.graph
    found = set()
    log = logging.getLogger("tapegrad")   # the cases' own warnings are not this script's output
    was, log.disabled = log.disabled, True
    try:
        for fn in case_functions:
            found |= _flowed_through(fn, tapegrad)
    finally:
        log.disabled = was
    return found


def _flowed_through(fn, tapegrad):
    """The paths of ``fn``'s calls (through ``_Tagging``) that a cotangent reached."""
    tags = {}
    with tapegrad.graph.capture() as cap, contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()):
        try:
            fn(_Tagging(tapegrad, "tf", tags))
        except Exception:   # a case may raise on purpose; what ran before still counts
            pass
    flowed = {ev[0].output._id for _, call, *_ in cap.calls for ev in call.events or ()
              if ev[1] is not None}
    return {path for tid, path in tags.items()
            if tid in flowed or isinstance(tid, str) and cap.calls}


def build():
    listing = tf_listing()
    refs, notes = case_references()
    # a name counts as tested when any alias of the same TensorFlow object is tested
    canonical = {}
    for ns, names in listing["namespaces"].items():
        for name, (kind, alias) in names.items():
            canonical[f"{ns}.{name}"] = alias or f"{ns}.{name}"
    group_refs = defaultdict(set)
    for full, canon in canonical.items():
        group_refs[canon] |= refs.get(full, set())

    rows, summary = {}, []
    for ns, names in listing["namespaces"].items():
        ns_obj = tapegrad_namespace(ns)
        ns_rows = []
        counts = [0, 0, 0, 0, 0]
        for name, (kind, alias) in names.items():
            full = f"{ns}.{name}"
            marks = group_refs[canonical[full]]
            imp = kind == "module" and ns_obj is not None and implemented(ns_obj, name) \
                or kind != "module" and implemented(ns_obj, name)
            partial = unimplemented_cases(getattr(ns_obj, name)) if imp and kind != "module" else []
            counts[0] += 1
            counts[1] += imp
            counts[2] += imp and "tested" in marks
            counts[3] += imp and "gradient" in marks
            counts[4] += bool(partial)
            note = notes.get(full, "")
            if partial:
                note = "; ".join([note] * bool(note) + [
                    "partial: NotImplementedError for " + " / ".join(m.replace("|", "\\|")
                                                               for m in partial)])
            ns_rows.append((name, kind, imp, "tested" in marks, "gradient" in marks,
                            alias, note, bool(partial)))
        rows[ns] = ns_rows
        summary.append((ns, *counts))
    return listing, rows, summary, notes


def render(listing, rows, summary):
    yes = "✓"
    dispatch, dispatch_anchor = render_dispatch(dispatch_rows(listing))
    out = ["# Coverage of TensorFlow's API", "",
           f"Generated by `build/coverage.py` from TensorFlow's public names "
           f"({listing['recorded_with']}, `tests/conformance/fixtures/tf_api.json`) and the "
           "conformance cases (`tests/conformance/cases/`), whose outcomes were recorded with "
           "real TensorFlow and are compared with tapegrad natively and inside Pyodide. "
           "Do not edit by hand.", "",
           "- **implemented**: the name exists in tapegrad (a missing one raises an "
           "`AttributeError` saying it is not implemented yet and pointing here).",
           "- **checked**: a recorded conformance case uses it (directly or through an alias "
           "of the same TensorFlow object).",
           "- **gradient checked**: for a function, a gradient in such a case flowed through its "
           "result (followed when the cases run on tapegrad; integer results never count); for a "
           "class (layers, optimizers), such a case computes gradients or trains.",
           "- **partial**: implemented, but raises `NotImplementedError` for some arguments "
           "(found in its code and the functions of its module it calls; the notes say which).",
           f"- **composite dispatch**: the ops that take RaggedTensor and SparseTensor arguments "
           f"are [listed at the end](#{dispatch_anchor}).",
           "", "| namespace | names | implemented | checked | gradient checked | partial |",
           "|---|---:|---:|---:|---:|---:|"]
    for ns, total, imp, tested, grad, partial in summary:
        out.append(f"| [`{ns}`](#{ns.replace('.', '')}) | {total} | {imp} | {tested} | {grad} | "
                   f"{partial} |")
    for ns, ns_rows in rows.items():
        out += ["", f"## {ns}", "", "| name | kind | implemented | checked | gradient checked | "
                "partial | alias of | notes |", "|---|---|:-:|:-:|:-:|:-:|---|---|"]
        for name, kind, imp, tested, grad, alias, note, partial in ns_rows:
            out.append(f"| `{name}` | {kind} | {yes if imp else ''} | {yes if tested else ''} | "
                       f"{yes if grad else ''} | {yes if partial else ''} | "
                       f"{f'`{alias}`' if alias else ''} | {note} |")
    return "\n".join(out + dispatch) + "\n"


# -- the composite dispatch section ------------------------------------------------------------
DISPATCH_TITLE = "Ops that take RaggedTensor, SparseTensor or DynamicRaggedShape arguments"


def dispatch_rows(listing):
    """For each composite type in ``composite_dispatch.FORMS``: (type, [(TensorFlow names of an
    op, the module of its form, whether the composites come inside a list)]), sorted by name."""
    from tapegrad.ops import composite_dispatch as dispatch
    names = defaultdict(list)       # dense op -> the TensorFlow names showing it
    public = {dispatch.public_op(op): op for op in dispatch.registered_ops()}
    for ns, ns_names in listing["namespaces"].items():
        ns_obj = tapegrad_namespace(ns)
        for name in ns_names:
            try:
                obj = getattr(ns_obj, name, None)
            except Exception:  # noqa: BLE001 - a name that fails to load shows no op
                continue
            op = public.get(obj) if _hashable(obj) else None
            if op is not None:
                names[op].append(f"{ns}.{name}")
    out = []
    for kind, table in dispatch.FORMS.items():
        rows = [(sorted(names[op], key=lambda n: (n.count("."), n))
                 or [f"{op.__module__}.{op.__name__}"],
                 form.__module__.replace("tapegrad.", "").replace(".", "/") + ".py",
                 op in dispatch.IN_LISTS) for op, form in table.items()]
        out.append((kind.__name__, sorted(rows, key=lambda r: r[0][0].rsplit(".", 1)[-1])))
    return out


def _hashable(obj):
    try:
        hash(obj)
        return True
    except TypeError:
        return False


def render_dispatch(sections):
    anchor = DISPATCH_TITLE.lower().replace(" ", "-").replace(",", "")
    out = ["", f"## {DISPATCH_TITLE}", "",
           "Generated from `composite_dispatch.FORMS` (engine/tapegrad/ops/composite_dispatch.py):"
           " each op below, called with an argument of the type, runs its registered form (as "
           "TensorFlow's dispatch for composite tensors does); the form is declared in the module "
           "named. Every name that shows the op (`tf.add`, `tf.math.add`) is listed."]
    for kind, rows in sections:
        out += ["", f"### {kind} ({len(rows)} ops)", "", "| op | form in | composites inside "
                "a list |", "|---|---|:-:|"]
        for op_names, module, in_lists in rows:
            out.append(f"| {', '.join(f'`{n}`' for n in op_names)} | `{module}` | "
                       f"{'✓' if in_lists else ''} |")
    return out, anchor


def names_file(listing):
    return json.dumps({ns: sorted(names) for ns, names in listing["namespaces"].items()},
                      separators=(",", ":")) + "\n"


def main(argv):
    sys.path.insert(0, str(ROOT / "engine"))
    listing, rows, summary, _ = build()
    text, names = render(listing, rows, summary), names_file(listing)
    if "--check" in argv:
        stale = [str(p.relative_to(ROOT)) for p, t in ((OUT, text), (NAMES_OUT, names))
                 if not p.exists() or p.read_text() != t]
        if stale:
            print(f"out of date: {', '.join(stale)}; run: .venv/bin/python build/coverage.py")
            return 1
        return 0
    OUT.write_text(text)
    NAMES_OUT.write_text(names)
    for ns, total, imp, tested, grad, partial in summary:
        print(f"{ns:32s} {imp:4d}/{total:<4d} implemented, {tested:4d} checked, {grad:4d} gradient,"
              f" {partial:3d} partial")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
