"""The AutoGraph rewrite: a function's source, parsed with ``ast``, with each ``if``, ``while``
and ``for`` turned into a call of ``operators`` (``ag__.if_stmt``, ``ag__.while_stmt``,
``ag__.for_stmt``) over functions holding its bodies, and each called function through
``ag__.callee`` (user functions are converted in turn, as AutoGraph's recursive mode).

A body becomes a nested function that declares the variables the statement assigns
``nonlocal``; every variable the function assigns starts as ``ag__.Undefined(name)``, so a
branch may assign one that was not set before. ``return``, ``break`` and ``continue`` are first
lowered into flag variables (``jumps``). A statement still holding one of them (inside a
``try``), or ``raise``, ``yield``, ``global`` or ``nonlocal`` (outside its own loops and
functions) is left as Python: over a tensor, its condition is read in Python while tracing (the
trace then runs the body on every call, see ``function.graph``).
"""
import abc
import ast
import builtins
import contextlib
import functools
import inspect
import os
import textwrap
import types
import warnings
import weakref

from ..ops.array_ops import range_
from . import operators
from .jumps import SCOPES as _SCOPES, lower_loop, lower_returns
from .names import Namer

_LOOPS = (ast.For, ast.While, ast.AsyncFor)


def _walk_scope(node):
    """The nodes of ``node``'s body, not descending into nested scopes."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        n = stack.pop()
        yield n
        if not isinstance(n, _SCOPES):
            stack.extend(ast.iter_child_nodes(n))


def _stored(nodes):
    """The names assigned by ``nodes`` (statements), in first-seen order."""
    names = {}
    for stmt in nodes:
        for n in [stmt, *_walk_scope(stmt)]:
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                names[n.id] = None
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names[n.name] = None
            elif isinstance(n, ast.alias):
                names[(n.asname or n.name).split(".")[0]] = None
    return list(names)


def _loads(nodes):
    """How often each name is read in ``nodes`` (an augmented assignment reads its target; a
    lambda's reads and a ``for``'s extra test count)."""
    counts = {}
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            counts[n.id] = counts.get(n.id, 0) + 1
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            counts[n.target.id] = counts.get(n.target.id, 0) + 1
        extra = getattr(n, "ag_extra_test", None)
        if extra is not None:
            stack.append(extra)
        stack.extend(c for c in ast.iter_child_nodes(n)
                     if isinstance(c, ast.Lambda) or not isinstance(c, _SCOPES))
    return counts


def _jumps(node):
    """Whether ``node`` holds a statement that a body turned into a function would change."""
    stack = [(c, False) for c in ast.iter_child_nodes(node)]
    while stack:
        n, in_loop = stack.pop()
        if isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal,
                          ast.Await, ast.Raise)):
            return True
        if isinstance(n, (ast.Break, ast.Continue)) and not in_loop:
            return True
        if not isinstance(n, _SCOPES):
            inner = in_loop or isinstance(n, _LOOPS)
            stack.extend((c, inner) for c in ast.iter_child_nodes(n))
    return False


def _parse(text):
    return ast.parse(text).body


def _placed(stmts, node):
    """``stmts`` (made from a template) given ``node``'s place in the source, for tracebacks
    and TensorFlow's "in user code" lines."""
    for stmt in stmts:
        for n in ast.walk(stmt):
            if "lineno" in n._attributes:
                n.lineno = n.end_lineno = node.lineno
                n.col_offset, n.end_col_offset = node.col_offset, node.col_offset + 1
    return stmts


def _def(name, params, nonlocal_names, body):
    """``def name(params): nonlocal ...; body``."""
    head = f"def {name}({', '.join(params)}):\n"
    if nonlocal_names:
        head += f"    nonlocal {', '.join(nonlocal_names)}\n"
    return head, body


def _state_text(k, names):
    """The ``get_state_k``/``set_state_k`` pair over ``names``."""
    if not names:
        return (f"def get_state_{k}():\n    return ()\n"
                f"def set_state_{k}(vals_{k}):\n    pass\n")
    joined = ", ".join(names) + ","
    return (f"def get_state_{k}():\n    return ({joined})\n"
            f"def set_state_{k}(vals_{k}):\n    nonlocal {', '.join(names)}\n"
            f"    ({joined}) = vals_{k}\n")


def _build(pieces, node, state, call):
    """The statements replacing ``node``: the functions in ``pieces`` (``(head, body)``: a
    ``def`` header given the statements ``body``), the state pair and ``call``."""
    out = []
    for head, body in pieces:
        fn = _placed(_parse(head + "    pass\n"), node)[0]
        fn.body = fn.body[:-1] + (body or _placed([ast.Pass()], node))
        out.append(fn)
    out.extend(_placed(_parse(state + call), node))
    return out


class _Converter(ast.NodeTransformer):
    """Rewrites one function's body (see the module docstring). ``loads``: how often the whole
    function reads each name."""

    def __init__(self, loads, namer, declared):
        self.loads = loads
        self.namer = namer
        self.declared = declared       # names the function declares global or nonlocal

    def _kept(self, node, assigned):
        """Whether ``node`` stays Python: it jumps, or assigns a global or nonlocal name."""
        return _jumps(node) or not self.declared.isdisjoint(assigned)

    def _next(self):
        return self.namer.number()

    def _live(self, node, names):
        """``(carried, read outside)``: the ``names`` read anywhere, and those read outside
        ``node``."""
        inside = _loads([node])
        carried = [n for n in names if self.loads.get(n)]
        return carried, [n for n in carried if self.loads[n] > inside.get(n, 0)]

    def visit_FunctionDef(self, node):
        return convert_def(node, self.namer)

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and hasattr(builtins, node.func.id):
            return node        # (Python's own: print stays Python's print, as in TF 2.21)
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                and node.func.value.id == "ag__":
            return node        # (the lowering's own calls)
        wrapped = _placed(_parse("ag__.callee(f)"), node)[0].value
        wrapped.args = [node.func]
        node.func = wrapped
        return node

    def visit_If(self, node):
        assigned = _stored(node.body + node.orelse)
        if self._kept(node, assigned):
            self.generic_visit(node)
            return node
        carried, outside = self._live(node, assigned)
        self.generic_visit(node)
        k = self._next()
        call = (f"ag__.if_stmt(None, if_body_{k}, else_body_{k}, get_state_{k}, "
                f"set_state_{k}, {tuple(carried)!r}, {tuple(outside)!r})\n")
        out = _build([_def(f"if_body_{k}", (), assigned, node.body),
                      _def(f"else_body_{k}", (), assigned, node.orelse)],
                     node, _state_text(k, carried), call)
        out[-1].value.args[0] = node.test
        return out

    def _loop(self, node, assigned):
        """``(carried, k)`` for a loop converted as the ``k``-th statement (its inner
        statements converted first), or None for a loop that stays Python."""
        if node.orelse or self._kept(node, assigned):
            self.generic_visit(node)
            return None
        carried, outside = self._live(node, assigned)
        self.generic_visit(node)
        return carried, outside, self._next()

    def visit_While(self, node):
        assigned = _stored(node.body)
        loop = self._loop(node, assigned)
        if loop is None:
            return node
        carried, outside, k = loop
        test = _placed(_parse(f"def loop_test_{k}():\n    return None\n"), node)[0]
        test.body[0].value = node.test
        call = (f"ag__.while_stmt(loop_test_{k}, loop_body_{k}, get_state_{k}, "
                f"set_state_{k}, {tuple(carried)!r}, {tuple(outside)!r})\n")
        return [test] + _build([_def(f"loop_body_{k}", (), assigned, node.body)],
                               node, _state_text(k, carried), call)

    def visit_For(self, node):
        assigned = _stored([ast.Assign(targets=[node.target], value=ast.Constant(0))]
                           + node.body)
        loop = self._loop(node, assigned)
        if loop is None:
            return node
        carried, outside, k = loop
        bind = _placed(_parse(f"_ = itr_{k}\n"), node)[0]
        bind.targets = [node.target]
        extra = getattr(node, "ag_extra_test", None)
        call = (f"ag__.for_stmt(None, loop_body_{k}, get_state_{k}, set_state_{k}, "
                f"{tuple(carried)!r}, {tuple(outside)!r}"
                f"{'' if extra is None else f', extra_test_{k}'})\n")
        out = _build([_def(f"loop_body_{k}", (f"itr_{k}",), assigned, [bind] + node.body)],
                     node, _state_text(k, carried), call)
        if extra is not None:
            test = _placed(_parse(f"def extra_test_{k}():\n    return None\n"), node)[0]
            test.body[0].value = extra
            out.insert(0, test)
        wrapped = getattr(node.iter, "func", None)
        if isinstance(wrapped, ast.Call) and isinstance(wrapped.func, ast.Attribute) and \
                wrapped.func.attr == "callee":
            wrapped.func.attr = "iterated"       # (``ag__.callee``: see ``iterated``)
        out[-1].value.args[0] = node.iter
        return out


class _LoopLowering(ast.NodeTransformer):
    """Lowers each loop's ``break`` and ``continue`` (``jumps.lower_loop``), not entering
    nested functions (``convert_def`` lowers theirs)."""

    def __init__(self, fresh):
        self.k = 0
        self.fresh = fresh

    def _scope(self, node):
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = _scope

    def _loop(self, node):
        self.generic_visit(node)
        self.k += 1
        return lower_loop(node, self.k, self.fresh)

    visit_While = visit_For = _loop


def _params(args):
    every = args.posonlyargs + args.args + args.kwonlyargs
    every += [a for a in (args.vararg, args.kwarg) if a is not None]
    return {a.arg for a in every}


def convert_def(fdef, namer):
    """``fdef`` (a ``def``) with its body converted and its assigned variables starting as
    ``ag__.Undefined``; ``namer`` (``names.Namer``) names what the rewrite adds."""
    lower_returns(fdef, namer.fresh)
    fdef.body = _LoopLowering(namer.fresh).visit(ast.Module(body=fdef.body, type_ignores=[])).body
    declared = {name for n in _walk_scope(fdef) if isinstance(n, (ast.Global, ast.Nonlocal))
                for name in n.names}
    local = [n for n in _stored(fdef.body) if n not in _params(fdef.args) | declared]
    converter = _Converter(_loads(fdef.body), namer, declared)
    body = []
    for stmt in fdef.body:
        done = converter.visit(stmt)
        body.extend(done if isinstance(done, list) else [done])
    docstring = body[:1] if body and isinstance(body[0], ast.Expr) and \
        isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str) else []
    init = _placed(_parse("".join(f"{n} = ag__.Undefined({n!r})\n" for n in local)), fdef)
    fdef.body = docstring + init + body[len(docstring):]
    return fdef


# Code that is never converted (as AutoGraph leaves TensorFlow's own and installed libraries):
# the engine, the standard library, installed packages.
_ENGINE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
# (the standard library's folders as its modules lie: in Pyodide part of it is read from
# /lib/python312.zip, contextlib's wrappers among it, and part from /lib/python3.12)
_LIBRARIES = (_ENGINE, *{os.path.dirname(os.path.abspath(m.__file__)) + os.sep
                         for m in (os, contextlib, functools, inspect, abc, weakref)})
_INSTALLED = (os.sep + "site-packages" + os.sep, os.sep + "dist-packages" + os.sep)
DO_NOT_CONVERT = "__autograph_do_not_convert__"
_converted = weakref.WeakKeyDictionary()     # function -> its converted function (or itself)


class ConversionError(Exception):
    """A function AutoGraph cannot convert (it then runs as written)."""


def _user_function(fn):
    if not isinstance(fn, types.FunctionType) or getattr(fn, DO_NOT_CONVERT, False) or \
            "ag__" in fn.__code__.co_freevars:      # (a function converted code defined)
        return False
    filename = os.path.abspath(fn.__code__.co_filename)
    return not filename.startswith(_LIBRARIES) and not any(p in filename for p in _INSTALLED) \
        and not fn.__code__.co_filename.startswith("<frozen")


def converted(fn):
    """``fn`` converted (cached), or ``fn`` itself where it is not the user's Python function
    or cannot be converted (then with AutoGraph's warning, as TensorFlow runs it as-is)."""
    if not _user_function(fn):
        return fn
    done = _converted.get(fn)
    if done is None:
        try:
            done = convert(fn)
        except Exception as e:       # (no source, odd syntax, ...): it runs unconverted
            if fn.__name__ != "<lambda>":
                warnings.warn(f"AutoGraph could not transform {fn!r} and will run it as-is. "
                              f"Cause: {e}", stacklevel=2)
            done = fn
        _converted[fn] = done
    return done


def callee(fn):
    """What a call in converted code calls: a user function (or method) converted, anything
    else as it is (the call itself stays in the user's frame)."""
    if isinstance(fn, types.MethodType) and _user_function(fn.__func__):
        target = converted(fn.__func__)
        return fn if target is fn.__func__ else types.MethodType(target, fn.__self__)
    return converted(fn)


def iterated(fn):
    """``callee`` for the call giving a converted ``for``'s iterable: ``tf.range`` is left to
    the loop (``operators.Range``)."""
    if fn is range_:
        return lambda *args, **kwargs: operators.Range(fn, *args, **kwargs)
    return callee(fn)


_AG = types.SimpleNamespace(
    if_stmt=operators.if_stmt, while_stmt=operators.while_stmt, for_stmt=operators.for_stmt,
    Undefined=operators.Undefined, UndefinedReturnValue=operators.UndefinedReturnValue,
    not_=operators.not_, and_=operators.and_, ret=operators.ret, callee=callee,
    iterated=iterated)


def _tree(fn):
    """``fn``'s ``def`` parsed, placed at its lines in its file."""
    code = fn.__code__
    if "__class__" in code.co_freevars:
        raise ConversionError("it uses super() without arguments")
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    fdef = tree.body[0] if tree.body else None
    if not isinstance(fdef, ast.FunctionDef) or fdef.name != fn.__name__:
        raise ConversionError("its source is not a def statement")
    for n in ast.walk(fdef):
        if isinstance(n, (ast.For, ast.While)) and n.orelse:   # (as TensorFlow's AutoGraph)
            kind = "for" if isinstance(n, ast.For) else "while"
            raise ConversionError(f"{kind}/else statement not yet supported")
    ast.increment_lineno(tree, code.co_firstlineno - 1)   # (the source starts there)
    fdef.decorator_list = []
    args = fdef.args
    args.defaults = [ast.Constant(None) for _ in args.defaults]
    args.kw_defaults = [d if d is None else ast.Constant(None) for d in args.kw_defaults]
    return fdef


def convert(fn):
    """``fn`` rewritten (see the module docstring); ``to_code`` shows its source."""
    tree = _tree(fn)
    fdef = convert_def(tree, Namer(tree))
    code = fn.__code__
    factory = _parse(f"def ag__factory(ag__, {', '.join(code.co_freevars)}):\n"
                     f"    return {fdef.name}\n")[0]
    factory.body.insert(0, fdef)
    module = ast.fix_missing_locations(ast.Module(body=[factory], type_ignores=[]))
    namespace = {}
    exec(compile(module, code.co_filename, "exec"), fn.__globals__, namespace)
    cells = [c.cell_contents for c in fn.__closure__ or ()]
    new = namespace["ag__factory"](_AG, *cells)
    new.__defaults__, new.__kwdefaults__ = fn.__defaults__, fn.__kwdefaults__
    for name in ("__name__", "__qualname__", "__doc__", "__module__"):
        setattr(new, name, getattr(fn, name))
    new.ag_source = ast.unparse(fdef)
    return new
