"""``tf.Variable``'s in-place sparse updates:
``scatter_update``/``scatter_add``/... (rows named by a ``tf.IndexedSlices``) and
``scatter_nd_update``/``scatter_nd_add``/... (elements or slices named by index vectors).

Updates are never recorded on a tape (as all assignments); they return the variable (an
unread view of it, as TensorFlow's ``_UnreadVariable``).

>>> import tapegrad as tf
>>> v = tf.Variable([1., 2., 3., 4.])
>>> v.scatter_nd_add([[1], [3]], [10., -5.]).numpy().tolist()
[1.0, 12.0, 3.0, -1.0]
"""
import weakref

from .backend import xp as np  # the array seam (see backend.py)

from . import checks
from .errors import InvalidArgumentError
from .tensor import EagerTensor, convert_to_tensor

# ufunc.at applies repeated indices one after the other (as TensorFlow accumulates them).
_ROW_KINDS = {"update": None, "add": np.add, "sub": np.subtract, "mul": np.multiply,
              "div": np.divide, "max": np.maximum, "min": np.minimum}
_OP_NAMES = {"update": "Update", "add": "Add", "sub": "Sub", "mul": "Mul", "div": "Div",
             "max": "Max", "min": "Min"}


def _slices(sparse_delta):
    if not all(hasattr(sparse_delta, a) for a in ("indices", "values", "dense_shape")):
        raise TypeError(f"Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: "
                        f"{sparse_delta}")
    return np.asarray(convert_to_tensor(sparse_delta.indices)._value), sparse_delta.values


class SparseUpdates:
    """The sparse updates of ``Variable`` (they read ``_value``, write via ``_assign_array``)."""

    __slots__ = ()

    # -- row updates from IndexedSlices ---------------------------------------------------------
    def _scatter_rows(self, sparse_delta, kind):
        op = "ResourceScatter" + _OP_NAMES[kind]
        indices, values = _slices(sparse_delta)
        if indices.dtype.kind not in "iu":
            raise TypeError(f"{op}: indices must be int32 or int64, got {indices.dtype}")
        checks.indices_in_range(op, indices, self._value.shape[0])
        updates = self._delta_array(values, op)
        new = self._value.copy()
        want = indices.shape + new.shape[1:]
        if updates.shape not in ((), want):
            raise InvalidArgumentError(
                f"updates must be a scalar or have shape indices.shape + params.shape[1:] = "
                f"{list(want)}, got {list(updates.shape)} [Op:{op}]")
        ufunc = _ROW_KINDS[kind]
        if ufunc is None:
            new[indices] = updates
        else:
            ufunc.at(new, indices, updates)
        self._assign_array(new)
        return self._unread()

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        """Replaces the rows ``sparse_delta.indices`` with ``sparse_delta.values``.

        >>> import tapegrad as tf
        >>> v = tf.Variable([[1., 2.], [3., 4.]])
        >>> v.scatter_update(tf.IndexedSlices(tf.constant([[9., 9.]]), tf.constant([1])))
        ... .numpy().tolist()
        [[1.0, 2.0], [9.0, 9.0]]
        """
        return self._scatter_rows(sparse_delta, "update")

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        """Adds ``sparse_delta.values`` to the rows ``sparse_delta.indices``."""
        return self._scatter_rows(sparse_delta, "add")

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        """Subtracts ``sparse_delta.values`` from the rows ``sparse_delta.indices``."""
        return self._scatter_rows(sparse_delta, "sub")

    def scatter_mul(self, sparse_delta, use_locking=False, name=None):
        """Multiplies the rows ``sparse_delta.indices`` by ``sparse_delta.values``."""
        return self._scatter_rows(sparse_delta, "mul")

    def scatter_div(self, sparse_delta, use_locking=False, name=None):
        """Divides the rows ``sparse_delta.indices`` by ``sparse_delta.values``."""
        return self._scatter_rows(sparse_delta, "div")

    def scatter_max(self, sparse_delta, use_locking=False, name=None):
        """The elementwise maximum of the rows ``sparse_delta.indices`` and the values."""
        return self._scatter_rows(sparse_delta, "max")

    def scatter_min(self, sparse_delta, use_locking=False, name=None):
        """The elementwise minimum of the rows ``sparse_delta.indices`` and the values."""
        return self._scatter_rows(sparse_delta, "min")

    def batch_scatter_update(self, sparse_delta, use_locking=False, name=None):
        """``scatter_update`` (for a rank-1 ``indices``, the batched form is the same)."""
        indices, _ = _slices(sparse_delta)
        if indices.ndim > 1:
            raise NotImplementedError("Variable.batch_scatter_update: only rank-1 indices are "
                                      "implemented")
        return self._scatter_rows(sparse_delta, "update")

    # -- element (or slice) updates at index vectors ------------------------------------------
    def _scatter_nd(self, indices, updates, kind):
        op = "ResourceScatterNd" + _OP_NAMES[kind]
        idx = np.asarray(convert_to_tensor(indices)._value)
        if idx.dtype.kind not in "iu" or idx.ndim < 1:
            raise InvalidArgumentError(f"{op}: indices must be an integer tensor of rank >= 1, "
                                       f"got shape {list(idx.shape)} [Op:{op}]")
        shape = self._value.shape
        depth = idx.shape[-1]
        if depth > len(shape):
            raise InvalidArgumentError(f"{op}: indices.shape[-1] ({depth}) must be <= the "
                                       f"variable's rank ({len(shape)}) [Op:{op}]")
        flat = idx.reshape(-1, depth)
        for n, vec in enumerate(flat):
            if any(not 0 <= i < d for i, d in zip(vec, shape)):
                raise InvalidArgumentError(
                    f"indices[{n}] = [{','.join(map(str, vec))}] does not index into shape "
                    f"[{','.join(map(str, shape))}] [Op:{op}]")
        values = self._delta_array(updates, op)
        want = idx.shape[:-1] + shape[depth:]
        if values.shape != want:
            raise InvalidArgumentError(
                f"{op}: updates must have shape indices.shape[:-1] + var.shape[indices.shape[-1]:]"
                f" = {list(want)}, got {list(values.shape)} [Op:{op}]")
        new = self._value.copy()
        where = tuple(np.moveaxis(idx, -1, 0))
        ufunc = _ROW_KINDS[kind]
        if ufunc is None:
            new[where] = values
        else:
            ufunc.at(new, where, values)
        self._assign_array(new)
        return self._unread()

    def _assign_slice(self, key, value):
        """``variable[key].assign(value)`` (``VariableSlice``): writes ``value`` into the slice,
        broadcast to its shape as TensorFlow's strided-slice assignment does; returns the
        variable."""
        new = np.array(self._value, copy=True)
        part = new[key]
        array = convert_to_tensor(value, dtype=self.dtype)._value
        try:
            new[key] = np.broadcast_to(array, np.shape(part))
        except ValueError:
            raise InvalidArgumentError(
                f"Cannot broadcast input shape {list(np.shape(array))} into final shape "
                f"{list(np.shape(part))} [Op:ResourceStridedSliceAssign]") from None
        self._assign_array(new)
        return self._unread()

    def scatter_nd_update(self, indices, updates, name=None):
        """Replaces the elements (or slices) at the index vectors ``indices`` with ``updates``."""
        return self._scatter_nd(indices, updates, "update")

    def scatter_nd_add(self, indices, updates, name=None):
        """Adds ``updates`` at the index vectors ``indices``."""
        return self._scatter_nd(indices, updates, "add")

    def scatter_nd_sub(self, indices, updates, name=None):
        """Subtracts ``updates`` at the index vectors ``indices``."""
        return self._scatter_nd(indices, updates, "sub")

    def scatter_nd_max(self, indices, updates, name=None):
        """The elementwise maximum with ``updates`` at the index vectors ``indices``."""
        return self._scatter_nd(indices, updates, "max")

    def scatter_nd_min(self, indices, updates, name=None):
        """The elementwise minimum with ``updates`` at the index vectors ``indices``."""
        return self._scatter_nd(indices, updates, "min")

    def _delta_array(self, values, op):
        t = convert_to_tensor(values, dtype=self.dtype)
        if t._value.dtype != self._value.dtype:
            raise InvalidArgumentError(f"{op}: updates have dtype {t.dtype.name}, the variable "
                                       f"{self.dtype.name} [Op:{op}]")
        return t._value



_slice_of = {}     # id of a VariableSlice -> (variable, key, weak reference to the slice)


class VariableSlice(EagerTensor):
    """``variable[key]``: the slice's value, a tensor like any other, which also remembers where
    it came from, so that ``variable[key].assign(value)`` writes into the variable (TensorFlow's
    sliced assignment) and returns the variable.

    >>> import tapegrad as tf
    >>> w = tf.Variable([[1., 2.], [3., 4.]])
    >>> w[0, 0].assign(-1.).numpy().tolist()
    [[-1.0, 2.0], [3.0, 4.0]]
    """

    __slots__ = ()

    def assign(self, value, use_locking=False, name=None, read_value=True):
        variable, key, _ = _slice_of[id(self)]
        return variable._assign_slice(key, value)


VariableSlice.__name__ = VariableSlice.__qualname__ = "EagerTensor"   # as type() shows it in TF


def variable_slice(tensor, variable, key):
    """``tensor`` (``variable[key]``'s value) made a ``VariableSlice`` of ``variable``."""
    if type(tensor) is EagerTensor:
        tid = id(tensor)
        tensor.__class__ = VariableSlice
        _slice_of[tid] = (variable, key, weakref.ref(tensor, lambda _, tid=tid: _slice_of.pop(tid, None)))
    return tensor
