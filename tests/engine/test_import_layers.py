"""The engine's modules import each other without circles, and at module level.

Every import of ``engine/tapegrad`` (module level and inside functions) is read with ``ast``. A
circle through the import graph fails, and so does an import inside a function, unless it is in
``LAZY`` below: a function-level import must exist for laziness, never to dodge a circle.
"""
import ast
import pathlib

import tapegrad

PACKAGE = pathlib.Path(tapegrad.__file__).resolve().parent
ROOT = "tapegrad"

# (importing module, imported module): imports kept inside functions on purpose.
LAZY = {
    # Pyodide's own modules exist only in the browser.
    ("tapegrad.kernels.library", "js"),
    ("tapegrad.kernels.library", "pyodide.ffi"),
    # the graph export loads on first use, not by ``import tapegrad``; networkx only when a user
    # asks for a networkx graph (build_graph).
    ("tapegrad.graph", "importlib"),
    ("tapegrad.graph.dag", "networkx"),
    ("tapegrad.graph.provenance", "tapegrad.graph.export"),
    # the notebook widget's optional dependencies load only when a notebook displays a tape
    ("tapegrad.widget.display", "anywidget"), ("tapegrad.widget.display", "traitlets"),
    ("tapegrad.widget.display", "IPython"), ("tapegrad.widget.display", "IPython.display"),
    ("tapegrad.widget.display", "tapegrad.graph.export"),
    ("tapegrad.widget.docs_example", "tapegrad.graph.export"),
    ("tapegrad.widget.magic", "IPython"), ("tapegrad.widget.magic", "IPython.display"),
    # tf.experimental.Optional is tf.data's: tf.data loads when it is first asked for
    ("tapegrad.experimental", "tapegrad.data.experimental"),
}

def _module_name(path):
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([ROOT] + parts)


def _modules():
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_package(name, modules):
    return modules[name].name == "__init__.py"


def _imports(name, path, modules):
    """(imported module, line, inside a function) for each import statement of one module."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if _is_package(name, modules) else name.rpartition(".")[0]
    found = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                      ast.Lambda))
            if isinstance(child, ast.Import):
                for alias in child.names:
                    found.append((alias.name, child.lineno, in_function))
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[:len(base) - (child.level - 1)]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module
                for alias in child.names:   # ``from pkg import submodule`` imports the submodule
                    sub = f"{target}.{alias.name}"
                    found.append((sub if sub in modules else target, child.lineno, in_function))
            visit(child, inner)
    visit(tree, False)
    return found


def _graph():
    """module -> set of engine modules whose import it triggers, plus the function-level imports."""
    modules = _modules()
    edges, function_level = {}, []
    for name, path in modules.items():
        deps = edges.setdefault(name, set())
        for target, line, in_function in _imports(name, path, modules):
            if in_function:
                function_level.append((name, target, line))
            if target not in modules:
                continue
            deps.add(target)
            # Importing a.b.c runs the __init__ of a.b first (the root package excepted: it is
            # the public face that imports everything, always run first), unless the importer
            # lives inside a.b (whose __init__ has then already started).
            parts = target.split(".")
            for k in range(2, len(parts)):
                parent = ".".join(parts[:k])
                if not (name == parent or name.startswith(parent + ".")):
                    deps.add(parent)
        deps.discard(name)
    return edges, function_level


def _circles(edges):
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = 0
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        m = stack.pop()
                        on_stack.discard(m)
                        component.append(m)
                        if m == node:
                            break
                    if len(component) > 1:
                        out.append(sorted(component))
    return out


def test_no_import_circles():
    edges, _ = _graph()
    assert _circles(edges) == []


def test_no_function_level_imports_except_for_laziness():
    _, function_level = _graph()
    unexpected = [f"{name}:{line} imports {target}" for name, target, line in function_level
                  if (name, target) not in LAZY]
    assert unexpected == [], "imports inside functions (hoist them, or list them in LAZY with " \
                             "the reason):\n" + "\n".join(unexpected)


def test_the_checker_sees_circles_and_function_level_imports():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    _, function_level = _graph()
    assert ("tapegrad.graph.provenance", "tapegrad.graph.export") in \
        {(n, t) for n, t, _ in function_level}


def test_reading_order_floors():
    """primitives -> recording -> tape -> jacobians/forward -> graph -> public faces: no lower
    floor imports a higher one."""
    edges, _ = _graph()

    def reaches(a, b):
        seen, todo = set(), [a]
        while todo:
            m = todo.pop()
            if m == b:
                return True
            if m not in seen:
                seen.add(m)
                todo.extend(edges.get(m, ()))
        return False
    floors = ["tapegrad.thread_state", "tapegrad.tensor", "tapegrad.recording",
              "tapegrad.primitives", "tapegrad.ground", "tapegrad.table", "tapegrad.ops",
              "tapegrad.backprop", "tapegrad.tape", "tapegrad.forward", "tapegrad.graph.provenance",
              "tapegrad.graph.capturing"]
    for i, low in enumerate(floors):
        for high in floors[i + 1:]:
            assert not reaches(low, high), f"{low} imports {high} (a higher floor)"
