"""Ops that also take composite tensors (``RaggedTensor``, ``SparseTensor``), as TensorFlow's
dispatch does: ``tf.reduce_sum(rt, axis=1)`` sums each row, ``tf.add(rt, 3)`` adds to the values.

``FORMS`` is the one registry: composite type -> {op: its form for that type}. A form is declared
next to its implementation, in the ragged (or sparse) module, with ``@composite_form``::

    @composite_form(RaggedTensor, reduce_sum)
    def _reduce_sum(input_tensor, axis=None, keepdims=False, name=None): ...

The op keeps its dense body in its family module; the flat index (``ops/__init__.py``) binds each
registered op's name to ``public_op(op)``, the one object every face (``tf``, ``tf.math``...)
shows: a call with no composite argument goes straight to the dense op after a type look-up per
argument, a call with one goes to the registered form.
"""
import functools

FORMS = {}        # composite type -> {dense op: its form for that type}
IN_LISTS = set()  # ops whose composite arguments come inside a list (tf.concat's ``values``)
_PUBLIC = {}      # dense op -> its public op


def composite_form(kind, *ops, in_lists=False):
    """Registers the decorated function as the form of ``ops`` for arguments of type ``kind``."""
    def register(form):
        table = FORMS.setdefault(kind, {})
        for op in ops:
            if op in table:
                raise ValueError(f"{getattr(op, '__name__', op)} already has a form for "
                                 f"{kind.__name__}")
            table[op] = form
            if in_lists:
                IN_LISTS.add(op)
        return form
    return register


def registered_ops():
    """Every op with a composite form, each once."""
    return list(dict.fromkeys(op for table in FORMS.values() for op in table))


def form_of(op, args, kwargs):
    """The registered form for the first composite argument of ``op``'s call, or None."""
    for a in _arguments(op, args, kwargs):
        table = FORMS.get(type(a))
        if table is not None and op in table:
            return table[op]
    return None


def _arguments(op, args, kwargs):
    for a in (*args, *kwargs.values()):
        yield a
        if op in IN_LISTS and type(a) in (list, tuple):
            yield from a


def public_op(op):
    """``op`` that hands composite arguments to their registered form (one object per op)."""
    if op in _PUBLIC:
        return _PUBLIC[op]
    kinds = FORMS   # the dict itself: forms registered later are seen too

    if op in IN_LISTS:
        def public(*args, **kwargs):
            for a in (*args, *kwargs.values()):
                if type(a) in kinds:
                    return (form_of(op, args, kwargs) or op)(*args, **kwargs)
                if type(a) is list or type(a) is tuple:
                    for v in a:
                        if type(v) in kinds:
                            return (form_of(op, args, kwargs) or op)(*args, **kwargs)
            return op(*args, **kwargs)
    else:
        def public(*args, **kwargs):
            # Speed: a type look-up per argument, no generator, for plain tensors
            for a in args:
                if type(a) in kinds:
                    return (form_of(op, args, kwargs) or op)(*args, **kwargs)
            if not kwargs:
                return op(*args)
            for a in kwargs.values():
                if type(a) in kinds:
                    return (form_of(op, args, kwargs) or op)(*args, **kwargs)
            return op(*args, **kwargs)

    functools.update_wrapper(public, op)
    _PUBLIC[op] = public
    return public


def install(namespace):
    """Binds, in ``namespace`` (the flat index), every registered op's names to its public op."""
    ops = set(registered_ops())
    for name, value in list(namespace.items()):
        if not name.startswith("_") and callable(value) and value in ops:
            namespace[name] = public_op(value)
