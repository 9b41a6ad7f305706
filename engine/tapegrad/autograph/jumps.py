"""The lowering of ``return``, ``break`` and ``continue`` into flag variables, done on a function's
``ast`` before ``transform`` converts its statements (as TensorFlow's AutoGraph lowers them, so
that over tensors they become part of the graph's ``cond`` and ``while`` nodes):

* ``return value`` inside an ``if`` or a loop becomes ``do_return = True; retval_ = value``;
  ``do_return = False`` and ``retval_ = ag__.UndefinedReturnValue()`` start the function, which
  ends with ``return ag__.ret(retval_, do_return)``. First, an ``if`` whose body (or ``else``)
  always returns takes the statements after it into its other branch, so that both branches
  return.
* ``break`` becomes ``break_ = True``, with ``break_ = False`` before the loop; ``continue``
  becomes ``continue_ = True``, with ``continue_ = False`` starting each iteration.
* The statements after one that may set a flag run under ``if ag__.not_(flag):``; a loop that
  may set ``do_return`` or ``break_`` also stops on it (``while``: its test becomes
  ``ag__.and_(lambda: ag__.not_(flag), lambda: test)``; ``for``: the loop's extra test,
  ``node.ag_extra_test``).

A jump inside a ``try`` (or a ``match``) is left as it is: the statement stays Python.
"""
import ast

SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp,
          ast.SetComp, ast.DictComp, ast.GeneratorExp)
LOOPS = (ast.For, ast.While)
_BLOCKS = ("body", "orelse")
_UNLOWERED = (ast.Try, getattr(ast, "TryStar", ast.Try), ast.Match, ast.AsyncFor, ast.AsyncWith)


def _inside(node, into_loops):
    """The nodes inside ``node`` (itself included), not descending into nested scopes, nor
    (without ``into_loops``) into loops below ``node``."""
    if not into_loops and isinstance(node, LOOPS):
        yield node
        return
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        for c in ast.iter_child_nodes(n):
            if not isinstance(c, SCOPES) and (into_loops or not isinstance(c, LOOPS)):
                stack.append(c)


def _holds(node, kinds, into_loops):
    return any(isinstance(n, kinds) for n in _inside(node, into_loops))


def _lowerable(stmts, kinds, into_loops):
    """Whether the jumps of ``kinds`` in ``stmts`` all lie in ``if``, ``with`` and (with
    ``into_loops``) loop blocks, where flags can stand for them."""
    for stmt in stmts:
        for n in _inside(stmt, into_loops):
            if isinstance(n, _UNLOWERED) and _holds(n, kinds, into_loops):
                return False
    return True


def _expr(text, node):
    e = ast.parse(text, mode="eval").body
    for n in ast.walk(e):
        if "lineno" in n._attributes:
            n.lineno = n.end_lineno = node.lineno
            n.col_offset, n.end_col_offset = node.col_offset, node.col_offset + 1
    return e


def _assign(name, value, node):
    stmt = ast.Assign(targets=[ast.Name(name, ast.Store())], value=value)
    return ast.copy_location(stmt, node)


def _guard(flag, stmts):
    """``if ag__.not_(flag): stmts``."""
    return ast.copy_location(ast.If(test=_expr(f"ag__.not_({flag})", stmts[0]), body=stmts,
                                    orelse=[]), stmts[0])


def _and_not(flag, test, node):
    """``ag__.and_(lambda: ag__.not_(flag), lambda: test)``."""
    e = _expr(f"ag__.and_(lambda: ag__.not_({flag}), lambda: None)", node)
    e.args[1].body = test
    return e


class _Lowering:
    """Lowers the jumps of ``kinds`` into ``flag`` in one block and those below it: ``replace``
    gives the statements standing for a jump; ``into_loops``: whether loops below are entered
    (a ``return`` ends them too; a ``break`` belongs to its own loop)."""

    def __init__(self, kinds, flag, replace, into_loops):
        self.kinds, self.flag, self.replace, self.into_loops = kinds, flag, replace, into_loops

    def block(self, stmts):
        out = []
        for i, stmt in enumerate(stmts):
            jumps = _holds(stmt, self.kinds, self.into_loops)
            out.extend(self.statement(stmt))
            rest = stmts[i + 1:]
            if rest and jumps:
                out.append(_guard(self.flag, self.block(rest)))
                break
        return out

    def statement(self, stmt):
        if isinstance(stmt, self.kinds):
            return self.replace(stmt)
        if not _holds(stmt, self.kinds, self.into_loops):
            return [stmt]
        if isinstance(stmt, LOOPS):        # (only with into_loops: a return ends the loop)
            stmt.body = self.block(stmt.body)
            _stop_loop(stmt, self.flag)
        elif isinstance(stmt, (ast.With, ast.If)):
            for name in _BLOCKS:
                if hasattr(stmt, name):
                    setattr(stmt, name, self.block(getattr(stmt, name)))
        return [stmt]


def _stop_loop(loop, flag):
    """``loop`` also ends once ``flag`` is set."""
    if isinstance(loop, ast.While):
        loop.test = _and_not(flag, loop.test, loop)
        return
    extra = getattr(loop, "ag_extra_test", None)
    loop.ag_extra_test = _expr(f"ag__.not_({flag})", loop) if extra is None else \
        _and_not(flag, extra, loop)


def _always_returns(stmts):
    for stmt in stmts:
        if isinstance(stmt, ast.Return):
            return True
        if isinstance(stmt, ast.If) and _always_returns(stmt.body) and \
                _always_returns(stmt.orelse):
            return True
        if isinstance(stmt, ast.With) and _always_returns(stmt.body):
            return True
    return False


def _fold_returns(stmts):
    """``stmts`` with each ``if`` whose one branch always returns holding the statements after
    it in its other branch (in nested blocks too)."""
    out = []
    for i, stmt in enumerate(stmts):
        for name in ("body", "orelse"):
            if isinstance(stmt, (ast.If, ast.With, ast.For, ast.While)) and hasattr(stmt, name):
                setattr(stmt, name, _fold_returns(getattr(stmt, name)))
        out.append(stmt)
        rest = stmts[i + 1:]
        if rest and isinstance(stmt, ast.If):
            if _always_returns(stmt.body):
                stmt.orelse = _fold_returns(stmt.orelse + rest)
                break
            if _always_returns(stmt.orelse):
                stmt.body = _fold_returns(stmt.body + rest)
                break
    return out


def lower_returns(fdef, fresh):
    """``fdef``'s body with its returns lowered, where one lies inside an ``if`` or a loop
    (``fresh(base)`` names the flag and the value, ``names.Namer.fresh``)."""
    body = fdef.body
    nested = [n for stmt in body if not isinstance(stmt, ast.Return)
              for n in _inside(stmt, True) if isinstance(n, ast.Return)]
    if not nested or not _lowerable(body, ast.Return, True) or \
            any(isinstance(n, (ast.Yield, ast.YieldFrom)) for s in body
                for n in _inside(s, True)):
        return
    body = _fold_returns(body)
    flag, kept = fresh("do_return"), fresh("retval_")

    def replace(ret):
        value = ret.value if ret.value is not None else ast.Constant(None)
        return [_assign(flag, ast.Constant(True), ret), _assign(kept, value, ret)]
    lowered = _Lowering(ast.Return, flag, replace, True).block(body)
    start = [_assign(flag, ast.Constant(False), fdef),
             _assign(kept, _expr("ag__.UndefinedReturnValue()", fdef), fdef)]
    end = ast.copy_location(ast.Return(_expr(f"ag__.ret({kept}, {flag})", fdef)),
                            body[-1])
    fdef.body = start + lowered + [end]


def lower_loop(loop, k, fresh):
    """The statements standing for ``loop`` with its own ``break`` and ``continue`` lowered
    (flags ``fresh("break_k")``, ``fresh("continue_k")``); ``[loop]`` where it has none or they cannot be (a
    loop with ``else:`` is never converted: ``transform`` refuses it, as TensorFlow does)."""
    has_break = any(_holds(s, ast.Break, False) for s in loop.body)
    has_continue = any(_holds(s, ast.Continue, False) for s in loop.body)
    if not (has_break or has_continue) or loop.orelse or \
            not _lowerable(loop.body, (ast.Break, ast.Continue), False):
        return [loop]
    before = []
    if has_continue:
        flag = fresh(f"continue_{k}")
        lowering = _Lowering(ast.Continue, flag,
                             lambda n: [_assign(flag, ast.Constant(True), n)], False)
        loop.body = [_assign(flag, ast.Constant(False), loop)] + lowering.block(loop.body)
    if has_break:
        stop = fresh(f"break_{k}")
        lowering = _Lowering(ast.Break, stop,
                             lambda n: [_assign(stop, ast.Constant(True), n)], False)
        loop.body = lowering.block(loop.body)
        before.append(_assign(stop, ast.Constant(False), loop))
        _stop_loop(loop, stop)
    return before + [loop]
