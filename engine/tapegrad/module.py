"""``tf.Module``: a named container that collects the variables of its attributes.

>>> import tapegrad as tf
>>> class Affine(tf.Module):
...     def __init__(self):
...         super().__init__(name="affine")
...         with self.name_scope:
...             self.w = tf.Variable(2.0, name="w")
>>> [v.name for v in Affine().trainable_variables]
['affine/w:0']
"""
import re

from . import recording, variables
from .variables import Variable


def _snake(name):
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


class _NameScope:
    def __init__(self, module):
        self.module = module

    def __enter__(self):
        variables.name_scope_stack.append(self.module.name + "/")
        recording.scope_stack.append(self.module.scope_label())

    def __exit__(self, *exc):
        variables.name_scope_stack.pop()
        recording.scope_stack.pop()
        return False


def _leaves(children):
    """Non-container objects in ``children``, depth first, dict entries in key order."""
    out, stack = [], list(reversed(children))
    while stack:
        obj = stack.pop()
        if isinstance(obj, dict):
            stack.extend(obj[k] for k in reversed(sorted(obj, key=str)))
        elif isinstance(obj, (list, tuple)):
            stack.extend(reversed(obj))
        else:
            out.append(obj)
    return out


class Module:
    def __init__(self, name=None):
        self._name = name if name is not None else _snake(type(self).__name__)

    @property
    def name(self):
        return self._name

    @property
    def name_scope(self):
        """A context in which new variables are named ``<module name>/...``."""
        return _NameScope(self)

    def scope_label(self):
        return f"{type(self).__name__}:{self._name}"

    def _walk(self, predicate):
        """Matching objects among this module's attributes (by name; lists in order, dicts by
        key), then among each submodule's, each object once: TensorFlow's ``Module`` order."""
        seen, out = {id(self)}, []
        todo = [self]
        while todo:
            module = todo.pop()
            found = []
            for leaf in _leaves(module._children()):
                if id(leaf) in seen:
                    continue
                seen.add(id(leaf))
                if predicate(leaf):
                    out.append(leaf)
                if isinstance(leaf, Module):
                    found.append(leaf)
            todo.extend(reversed(found))
        return out

    def _children(self):
        d = vars(self)
        return [d[k] for k in sorted(d) if not k.startswith("_abc")]

    @property
    def variables(self):
        return tuple(self._walk(lambda o: isinstance(o, Variable)))

    @property
    def trainable_variables(self):
        return tuple(v for v in self.variables if v.trainable)

    @property
    def non_trainable_variables(self):
        return tuple(v for v in self.variables if not v.trainable)

    @property
    def submodules(self):
        return tuple(self._walk(lambda o: isinstance(o, Module)))

    @classmethod
    def with_name_scope(cls, method):
        def wrapped(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        wrapped.__name__ = method.__name__
        wrapped.__doc__ = method.__doc__
        return wrapped
