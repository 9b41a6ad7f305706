"""``Hashing``, ``HashedCrossing`` and ``Discretization``: categorical features to bin indices
(Keras 3's layers). Hashing uses TensorFlow's FarmHash Fingerprint64
(``tf.strings.to_hash_bucket_fast``; SipHash ``to_hash_bucket_strong`` with a ``salt``);
numbers are hashed as their decimal strings, floats truncated to integers first, as Keras does.
"""
from ....backend import xp
from ....ops import as_string, cast, to_hash_bucket_fast, to_hash_bucket_strong
from ....ops import sparse_cross_hashed
from ....tensor import Tensor, convert_to_tensor
from ..base import Layer
from ..layer_config import config_of, positive_int
from .numerical import CategoryEncoding

_MODES = ("int", "one_hot", "multi_hot", "count")


def _check_mode(mode, owner, modes=_MODES):
    if mode not in modes:
        raise ValueError(f"Invalid value for argument `output_mode`. Expected one of "
                         f"{list(modes)}. Received: output_mode={mode} ({owner})")
    return mode


def _encode(ids, mode, depth, dtype):
    """``int`` ids as they are; else one column per bin (Keras's categorical encoding)."""
    if mode == "int":
        return ids
    if mode == "one_hot" and len(ids.shape) > 0 and ids.shape[-1] == 1:
        ids = convert_to_tensor(ids._value[..., 0])
    return cast(CategoryEncoding(num_tokens=depth, output_mode=mode)(ids), dtype)


class Hashing(Layer):
    """Hashes strings or integers into ``num_bins`` bins (bin 0 kept for ``mask_value``).

    >>> import tapegrad as tf
    >>> tf.keras.layers.Hashing(num_bins=3)([["A"], ["B"], ["C"], ["D"], ["E"]]).numpy().ravel().tolist()
    [1, 0, 1, 1, 2]
    """

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False,
                 name=None, **kwargs):
        owner = "Hashing"
        kwargs.setdefault("dtype", "int64" if output_mode == "int" else "float32")
        super().__init__(name=name, **kwargs)
        self.num_bins = positive_int(num_bins, "num_bins", owner)
        self.output_mode = _check_mode(output_mode, owner)
        if sparse:
            raise NotImplementedError("Hashing: sparse=True is not implemented")
        if salt is not None:
            if isinstance(salt, int):
                salt = [salt, salt]
            if not (isinstance(salt, (list, tuple)) and len(salt) == 2):
                raise ValueError(f"The `salt` argument for `Hashing` can only be a tuple of "
                                 f"size 2 integers, or a single integer. Received: salt={salt}.")
        self.mask_value, self.salt = mask_value, salt

    def build(self, input_shape):
        self.built = True

    def _bins(self, values):
        bins, mask = self.num_bins, None
        if self.mask_value is not None and bins > 1:
            bins -= 1
            mask = values._value == (self.mask_value.encode("utf-8")
                                     if isinstance(self.mask_value, str) else self.mask_value)
        if values.dtype.is_floating:
            values = cast(values, "int64")
        if values.dtype != "string":
            values = as_string(values)
        hashed = to_hash_bucket_strong(values, bins, self.salt) if self.salt is not None \
            else to_hash_bucket_fast(values, bins)
        if mask is None:
            return hashed
        return convert_to_tensor(xp.where(mask, 0, hashed._value + 1).astype(xp.int64))

    def call(self, inputs):
        x = inputs if isinstance(inputs, Tensor) else convert_to_tensor(inputs)
        ids = self._bins(x)
        return _encode(ids, self.output_mode, self.num_bins, self.dtype)

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return tuple(input_shape)
        return tuple(input_shape)[:-1] + (self.num_bins,)

    def get_config(self):
        return config_of(self, num_bins=self.num_bins, mask_value=self.mask_value,
                         salt=self.salt, output_mode=self.output_mode)


class HashedCrossing(Layer):
    """Hashes the crosses of two or more features into ``num_bins`` bins
    (``tf.sparse.cross_hashed``'s FingerprintCat64 chain).

    >>> import tapegrad as tf
    >>> layer = tf.keras.layers.HashedCrossing(num_bins=5)
    >>> layer((tf.constant(["A", "B"]), tf.constant([101, 102]))).shape
    TensorShape([2])
    """

    def __init__(self, num_bins, output_mode="int", sparse=False, name=None, **kwargs):
        kwargs.setdefault("dtype", "int64" if output_mode == "int" else "float32")
        super().__init__(name=name, **kwargs)
        self.num_bins = positive_int(num_bins, "num_bins", "HashedCrossing")
        self.output_mode = _check_mode(output_mode, "HashedCrossing", ("int", "one_hot"))
        if sparse:
            raise NotImplementedError("HashedCrossing: sparse=True is not implemented")

    def build(self, input_shape):
        self.built = True

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) < 2:
            raise ValueError(f"`HashedCrossing` should be called on a list or tuple of at "
                             f"least two inputs. Received: inputs={inputs}")
        xs = [x if isinstance(x, Tensor) else convert_to_tensor(x) for x in inputs]
        shape = tuple(xs[0].shape)
        if any(tuple(x.shape) != shape for x in xs):
            raise ValueError(f"All `HashedCrossing` inputs should have the same shape. "
                             f"Received: inputs={inputs}")
        if len(shape) > 2:
            raise ValueError(f"All `HashedCrossing` inputs should have rank 0, 1 or 2. "
                             f"Received: inputs={inputs}")
        rank2 = [convert_to_tensor(x._value.reshape(-1, 1) if len(shape) < 2 else x._value)
                 for x in xs]
        if len(shape) == 2 and shape[1] != 1:
            raise ValueError(f"`HashedCrossing` takes rank-2 inputs of shape (batch, 1); "
                             f"received shape {shape}")
        # one value per feature and row: one cross per row, in row order
        out = sparse_cross_hashed(rank2, self.num_bins).values._value.reshape(shape)
        ids = convert_to_tensor(out.astype(xp.int64))
        return _encode(ids, self.output_mode, self.num_bins, self.dtype)

    def get_config(self):
        return config_of(self, num_bins=self.num_bins, output_mode=self.output_mode)


class Discretization(Layer):
    """Buckets numbers by ``bin_boundaries``: bin i holds ``boundaries[i-1] <= x < boundaries[i]``.

    >>> import tapegrad as tf
    >>> layer = tf.keras.layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])
    >>> layer(tf.constant([[-1.5, 1.0, 3.4, 0.5]])).numpy().tolist()
    [[0, 2, 3, 1]]
    """

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int",
                 sparse=False, name=None, **kwargs):
        # Keras gives int32 bin indices here (int64 in Hashing and HashedCrossing)
        kwargs.setdefault("dtype", "int32" if output_mode == "int" else "float32")
        super().__init__(name=name, **kwargs)
        self.output_mode = _check_mode(output_mode, "Discretization")
        if sparse:
            raise NotImplementedError("Discretization: sparse=True is not implemented")
        if num_bins is not None and bin_boundaries is not None:
            raise ValueError(f"Both `num_bins` and `bin_boundaries` should not be set. "
                             f"Received: num_bins={num_bins} and "
                             f"bin_boundaries={bin_boundaries}")
        self.bin_boundaries = None if bin_boundaries is None else \
            [float(b) for b in bin_boundaries]
        self.num_bins, self.epsilon = num_bins, epsilon

    def adapt(self, data, batch_size=None, steps=None):
        raise NotImplementedError("Discretization.adapt (Keras's approximate quantile summary) "
                                  "is not implemented; pass `bin_boundaries`")

    def build(self, input_shape):
        self.built = True

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError("You need to either pass the `bin_boundaries` argument at "
                             "construction time or call `adapt(dataset)` before you can start "
                             "using the `Discretization` layer.")
        x = inputs._value if isinstance(inputs, Tensor) else convert_to_tensor(inputs)._value
        ids = xp.searchsorted(xp.asarray(self.bin_boundaries), x, side="right")
        ids = convert_to_tensor(xp.asarray(ids, dtype=xp.int64))
        if self.output_mode == "int":
            return cast(ids, self.dtype)
        return _encode(ids, self.output_mode, len(self.bin_boundaries) + 1, self.dtype)

    def get_config(self):
        return config_of(self, bin_boundaries=self.bin_boundaries, num_bins=self.num_bins,
                         epsilon=self.epsilon, output_mode=self.output_mode)
