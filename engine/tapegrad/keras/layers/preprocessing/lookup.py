"""``StringLookup`` and ``IntegerLookup``: map tokens to vocabulary indices (and back with
``invert=True``), as Keras 3 orders the vocabulary.

Index layout (Keras's): the mask token first (when there is one), then ``num_oov_indices``
out-of-vocabulary slots, then the vocabulary. ``adapt`` counts the tokens and keeps the most
frequent (ties: the larger token first, Keras's deterministic order), ``max_tokens`` counting
the mask and OOV slots. Output modes: ``int`` (indices, int64), ``one_hot``, ``multi_hot``,
``count``, ``tf_idf`` (float32, one column per index).
"""
import math

from ....backend import xp
from ....errors import InvalidArgumentError
from ....tensor import Tensor, convert_to_tensor
from ..base import Layer
from ..layer_config import config_of

_MODES = ("int", "one_hot", "multi_hot", "count", "tf_idf")


def as_array(data):
    """A NumPy array of the tokens in ``data`` (tensor, array, nested list, scalar)."""
    if isinstance(data, Tensor):
        return data._value
    if hasattr(data, "_value") and not isinstance(data, (list, tuple)):
        return xp.asarray(data._value)
    return convert_to_tensor(data)._value


def batches_of(data):
    """The batches ``adapt`` reads: each element of a dataset, or ``data`` itself."""
    if hasattr(data, "element_spec"):  # a tf.data dataset: its elements (features of (x, y))
        for element in data:
            yield element[0] if isinstance(element, tuple) else element
    else:
        yield data


class IndexLookup(Layer):
    """The shared lookup table; ``StringLookup`` / ``IntegerLookup`` give the token kind."""
    _kind = "string"

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=None,
                 vocabulary=None, idf_weights=None, invert=False, output_mode="int",
                 sparse=False, pad_to_max_tokens=False, name=None, **kwargs):
        kwargs.pop("vocabulary_dtype", None)
        kwargs.pop("encoding", None)
        super().__init__(name=name, **kwargs)
        owner = type(self).__name__
        if output_mode not in _MODES:
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of "
                             f"{list(_MODES)}. Received: output_mode={output_mode}")
        if invert and output_mode != "int":
            raise ValueError(f"`output_mode` must be `'int'` when `invert` is true. Received: "
                             f"output_mode={output_mode}")
        if sparse:
            raise NotImplementedError(f"{owner}: sparse=True is not implemented")
        if max_tokens is not None and max_tokens <= 1:
            raise ValueError(f"If set, `max_tokens` must be greater than 1. Received: "
                             f"max_tokens={max_tokens}")
        if num_oov_indices < 0:
            raise ValueError(f"`num_oov_indices` must be greater than or equal to 0. Received: "
                             f"num_oov_indices={num_oov_indices}")
        if num_oov_indices > 1:
            raise NotImplementedError(f"{owner}: num_oov_indices > 1 (hashed OOV buckets) is "
                                      f"not implemented")
        self.max_tokens, self.num_oov_indices = max_tokens, int(num_oov_indices)
        self.mask_token, self.oov_token = mask_token, oov_token
        self.invert, self.output_mode = bool(invert), output_mode
        self.pad_to_max_tokens = bool(pad_to_max_tokens)
        self._vocab = []
        self._idf = None
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)

    # -- tokens --------------------------------------------------------------------------
    def _key(self, token):
        return token

    def _special(self):
        head = [self.mask_token] if self.mask_token is not None else []
        return head + [self.oov_token] * self.num_oov_indices

    def get_vocabulary(self, include_special_tokens=True):
        """The tokens in index order (mask and OOV tokens first unless excluded)."""
        vocab = list(self._vocab)
        return self._special() + vocab if include_special_tokens else vocab

    def vocabulary_size(self):
        """How many indices there are, the mask and OOV slots included."""
        return len(self._special()) + len(self._vocab)

    def set_vocabulary(self, vocabulary, idf_weights=None):
        if isinstance(vocabulary, str):
            with open(vocabulary, encoding="utf-8") as f:
                vocabulary = [line.rstrip("\n") for line in f]
        vocab = [self._key(t) for t in xp.asarray(as_array(vocabulary)).reshape(-1).tolist()]
        if self.output_mode == "tf_idf" and idf_weights is None:
            raise ValueError("`idf_weights` must be set if output_mode is 'tf_idf'.")
        special = self._special()
        if special and vocab[:len(special)] == [self._key(t) for t in special]:
            vocab = vocab[len(special):]
        if len(set(vocab)) != len(vocab):
            repeated = sorted({t for t in vocab if vocab.count(t) > 1}, key=str)
            raise ValueError(f"The passed vocabulary has at least one repeated term. Please "
                             f"uniquify your dataset. The repeated terms are: {repeated}")
        self._vocab = vocab
        self._idf = None if idf_weights is None else \
            [float(w) for w in xp.asarray(as_array(idf_weights)).reshape(-1).tolist()]

    def adapt(self, data, batch_size=None, steps=None):
        """Learns the vocabulary (and idf weights) from ``data``: tokens by descending count."""
        docs = [doc for batch in batches_of(data) for doc in self._documents(batch)]
        self._learn(docs)

    def _learn(self, docs):
        """The vocabulary (and idf weights) from token lists, one per document."""
        counts, doc_counts, n_docs = {}, {}, 0
        for doc in docs:
            n_docs += 1
            for token in doc:
                counts[token] = counts.get(token, 0) + 1
            for token in set(doc):
                doc_counts[token] = doc_counts.get(token, 0) + 1
        for t in self._special():
            counts.pop(self._key(t), None)
        ordered = sorted(counts, key=lambda t: (counts[t], t), reverse=True)
        if self.max_tokens is not None:
            ordered = ordered[:max(self.max_tokens - len(self._special()), 0)]
        self._vocab = ordered
        if self.output_mode == "tf_idf":
            idf = [math.log(1.0 + n_docs / (1.0 + doc_counts[t])) for t in ordered]
            self._idf = idf
        self.built = True

    def _documents(self, batch):
        """Token lists, one per document (row) of ``batch``."""
        arr = xp.asarray(as_array(batch))
        if arr.ndim == 0:
            return [[self._key(arr.item())]]
        if arr.ndim == 1:
            return [[self._key(t)] for t in arr.tolist()] if self.output_mode == "tf_idf" \
                else [[self._key(t) for t in arr.tolist()]]
        return [[self._key(t) for t in row] for row in arr.reshape(arr.shape[0], -1).tolist()]

    # -- lookup --------------------------------------------------------------------------
    def _index_table(self):
        table = {self._key(t): i + len(self._special()) for i, t in enumerate(self._vocab)}
        if self.mask_token is not None:
            table[self._key(self.mask_token)] = 0
        return table

    def _oov_index(self):
        return 1 if self.mask_token is not None else 0

    def build(self, input_shape):
        self.built = True

    def call(self, inputs):
        arr = xp.asarray(as_array(inputs))
        if self.invert:
            return self._invert(arr)
        table, oov = self._index_table(), self._oov_index()
        if self.num_oov_indices == 0:
            missing = [t for t in arr.reshape(-1).tolist() if self._key(t) not in table]
            if missing:
                raise InvalidArgumentError(f"{type(self).__name__}: token {missing[0]!r} is "
                                           f"not in the vocabulary and num_oov_indices=0")
        flat = [table.get(self._key(t), oov) for t in arr.reshape(-1).tolist()]
        ids = xp.asarray(flat, dtype=xp.int64).reshape(arr.shape)
        if self.output_mode == "int":
            return convert_to_tensor(ids)
        return self._encode(ids)

    def _invert(self, ids):
        vocab = self.get_vocabulary()
        fill = self.oov_token
        out = [vocab[i] if 0 <= i < len(vocab) else fill for i in ids.reshape(-1).tolist()]
        if self.mask_token is not None:
            out = [self.mask_token if i == 0 else t for i, t in zip(ids.reshape(-1), out)]
        return convert_to_tensor(xp.asarray(out, dtype=object if self._kind == "string"
                                            else xp.int64).reshape(ids.shape))

    def _depth(self):
        if self.pad_to_max_tokens and self.max_tokens is not None:
            return self.max_tokens
        return self.vocabulary_size()

    def _encode(self, ids):
        depth = self._depth()
        if self.output_mode == "one_hot":
            out = xp.zeros(ids.shape + (depth,), dtype=xp.float32)
            xp.put_along_axis(out, ids[..., None], 1.0, axis=-1)
            return convert_to_tensor(out.astype(self._encoded_dtype()))
        rows = ids.reshape(1, -1) if ids.ndim <= 1 else ids.reshape(ids.shape[0], -1)
        out = xp.zeros((rows.shape[0], depth), dtype=xp.float32)
        for r, row in enumerate(rows):
            xp.add.at(out[r], row, 1.0)
        if self.mask_token is not None:
            out[:, 0] = 0.0
        if self.output_mode == "multi_hot":
            out = (out > 0).astype(xp.float32)
        elif self.output_mode == "tf_idf":
            out = out * self._idf_vector(depth)
        out = out[0] if ids.ndim <= 1 else out
        return convert_to_tensor(out.astype(self._encoded_dtype()))

    def _encoded_dtype(self):
        """Keras's lookup layers give int64 one_hot/multi_hot/count outputs, float32 tf_idf."""
        return xp.float32 if self.output_mode == "tf_idf" else xp.int64

    def _idf_vector(self, depth):
        if self._idf is None:
            raise ValueError("tf_idf output needs idf weights: call `adapt` or pass "
                             "`idf_weights`")
        mean = sum(self._idf) / len(self._idf) if self._idf else 0.0
        head = [0.0] * (1 if self.mask_token is not None else 0) + \
            [mean] * self.num_oov_indices
        weights = head + list(self._idf)
        weights += [0.0] * (depth - len(weights))
        return xp.asarray(weights[:depth], dtype=xp.float32)

    def get_config(self):
        return config_of(self, max_tokens=self.max_tokens,
                         num_oov_indices=self.num_oov_indices, mask_token=self.mask_token,
                         oov_token=self.oov_token, invert=self.invert,
                         output_mode=self.output_mode, pad_to_max_tokens=self.pad_to_max_tokens)


def _text(token):
    return token.decode("utf-8") if isinstance(token, bytes) else str(token)


class StringLookup(IndexLookup):
    """Maps strings to indices: ``oov_token="[UNK]"`` at index 0 by default.

    >>> import tapegrad as tf
    >>> layer = tf.keras.layers.StringLookup(vocabulary=["a", "b", "c"])
    >>> layer(tf.constant([["a", "c"], ["d", "b"]])).numpy().tolist()
    [[1, 3], [0, 2]]
    """

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]",
                 vocabulary=None, **kwargs):
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                         mask_token=mask_token, oov_token=oov_token, vocabulary=vocabulary,
                         **kwargs)

    def _key(self, token):
        return _text(token)

    def _invert(self, ids):
        out = super()._invert(ids)
        return convert_to_tensor(xp.asarray([_text(t).encode("utf-8") for t in
                                             out._value.reshape(-1).tolist()],
                                            dtype=object).reshape(ids.shape))


class IntegerLookup(IndexLookup):
    """Maps integers to indices: ``oov_token=-1`` at index 0 by default.

    >>> import tapegrad as tf
    >>> layer = tf.keras.layers.IntegerLookup(vocabulary=[12, 36, 1138])
    >>> layer(tf.constant([12, 1138, 7])).numpy().tolist()
    [1, 3, 0]
    """
    _kind = "int"

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1,
                 vocabulary=None, **kwargs):
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                         mask_token=mask_token, oov_token=oov_token, vocabulary=vocabulary,
                         **kwargs)

    def _key(self, token):
        return int(token)

    def get_vocabulary(self, include_special_tokens=True):
        """As Keras: the learned or given tokens come back as NumPy int64 scalars."""
        vocab = [xp.int64(t) for t in self._vocab]
        return self._special() + vocab if include_special_tokens else vocab
