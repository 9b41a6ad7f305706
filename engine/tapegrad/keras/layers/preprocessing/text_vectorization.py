"""``TextVectorization``: standardize, split, n-grams, then a ``StringLookup`` of the tokens
(Keras 3's layer). ``int`` output pads with 0 (the mask token ``""``) to the longest row, or
pads/truncates to ``output_sequence_length``; ``multi_hot``/``count``/``tf_idf`` give one
column per vocabulary index (index 0 is ``[UNK]``).
"""
import re

from ....backend import xp
from ....tensor import convert_to_tensor
from ..base import Layer
from ..layer_config import config_of
from .lookup import StringLookup, as_array, batches_of

# Keras's default punctuation set for "lower_and_strip_punctuation" (ASCII punctuation)
_PUNCTUATION = re.compile(rb'[!"#$%&()\*\+,\-\./:;<=>?@\[\\\]^_`{|}~\']')
_WHITESPACE = re.compile(rb"\s+")
_MODES = ("int", "multi_hot", "count", "tf_idf")


def _standardize(text, how):
    if how is None:
        return text
    if how in ("lower", "lower_and_strip_punctuation"):
        text = text.lower()
    if how in ("strip_punctuation", "lower_and_strip_punctuation"):
        text = _PUNCTUATION.sub(b"", text)
    return text


def _ngrams(tokens, ngrams):
    out = []
    for n in ngrams:
        out += [b" ".join(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]
    return out


class TextVectorization(Layer):
    """Turns strings into token indices or bag-of-token vectors.

    >>> import tapegrad as tf
    >>> layer = tf.keras.layers.TextVectorization(output_sequence_length=4)
    >>> layer.adapt(["the cat sat", "the dog"])
    >>> layer(["the dog sat!"]).numpy().tolist()
    [[2, 4, 3, 0]]
    """

    def __init__(self, max_tokens=None, standardize="lower_and_strip_punctuation",
                 split="whitespace", ngrams=None, output_mode="int",
                 output_sequence_length=None, pad_to_max_tokens=False, vocabulary=None,
                 idf_weights=None, sparse=False, ragged=False, encoding="utf-8", name=None,
                 **kwargs):
        super().__init__(name=name, **kwargs)
        if output_mode not in _MODES:
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of "
                             f"{list(_MODES)}. Received: output_mode={output_mode}")
        if standardize not in (None, "lower_and_strip_punctuation", "lower",
                               "strip_punctuation") and not callable(standardize):
            raise ValueError(f"Invalid value for argument `standardize`. Received: "
                             f"standardize={standardize}")
        if split not in (None, "whitespace", "character") and not callable(split):
            raise ValueError(f"Invalid value for argument `split`. Received: split={split}")
        if output_sequence_length is not None and output_mode != "int":
            raise ValueError(f"`output_sequence_length` must not be set if `output_mode` is "
                             f"not 'int'. Received: output_sequence_length="
                             f"{output_sequence_length}.")
        if ragged:
            raise NotImplementedError("TextVectorization: ragged=True is not implemented")
        if isinstance(ngrams, int):
            ngrams = tuple(range(1, ngrams + 1))
        self.standardize, self.split = standardize, split
        self.ngrams = tuple(ngrams) if ngrams is not None else None
        self.output_mode = output_mode
        self.output_sequence_length = output_sequence_length
        self.max_tokens, self.pad_to_max_tokens = max_tokens, bool(pad_to_max_tokens)
        self._lookup = StringLookup(max_tokens=max_tokens,
                                    mask_token="" if output_mode == "int" else None,
                                    output_mode=output_mode, vocabulary=vocabulary,
                                    idf_weights=idf_weights,
                                    pad_to_max_tokens=pad_to_max_tokens)

    def _tokens(self, text):
        if callable(self.standardize):
            text = as_array(self.standardize(convert_to_tensor([text])))[0]
        else:
            text = _standardize(text, self.standardize)
        if self.split is None:
            tokens = [text]
        elif self.split == "whitespace":
            tokens = [t for t in _WHITESPACE.split(text) if t]
        elif self.split == "character":
            tokens = [c.encode("utf-8") for c in text.decode("utf-8")]
        else:
            tokens = [t for t in xp.asarray(as_array(self.split(
                convert_to_tensor([text])))).reshape(-1).tolist()]
        return _ngrams(tokens, self.ngrams) if self.ngrams else tokens

    def _rows(self, data):
        arr = xp.asarray(as_array(data))
        if arr.ndim == 2 and arr.shape[1] == 1:
            arr = arr[:, 0]
        if arr.ndim == 0:
            arr = arr.reshape(1)
        texts = [t if isinstance(t, bytes) else str(t).encode("utf-8") for t in arr.tolist()]
        return [self._tokens(t) for t in texts], arr.ndim

    def adapt(self, data, batch_size=None, steps=None):
        """Learns the vocabulary from strings (a list, tensor or tf.data dataset)."""
        docs = []
        for batch in batches_of(data):
            docs += self._rows(batch)[0]
        self._lookup._learn([[t.decode("utf-8") for t in d] for d in docs])
        self.built = True

    def get_vocabulary(self, include_special_tokens=True):
        return self._lookup.get_vocabulary(include_special_tokens)

    def vocabulary_size(self):
        return self._lookup.vocabulary_size()

    def set_vocabulary(self, vocabulary, idf_weights=None):
        self._lookup.set_vocabulary(vocabulary, idf_weights)

    def build(self, input_shape):
        self.built = True

    def call(self, inputs):
        docs, ndim = self._rows(inputs)
        if self.output_mode != "int":
            table = self._lookup._index_table()
            oov = self._lookup._oov_index()
            ids = [[table.get(t.decode("utf-8"), oov) for t in d] for d in docs]
            dtype = self._lookup._encoded_dtype()  # int64 (multi_hot, count) as Keras
            out = xp.stack([as_array(self._lookup._encode(xp.asarray(row, dtype=xp.int64)))
                            for row in ids]) if ids else xp.zeros((0, self._lookup._depth()))
            return convert_to_tensor(out.astype(dtype))
        width = self.output_sequence_length
        if width is None:
            width = max((len(d) for d in docs), default=0)
        rows = [d[:width] + [b""] * (width - len(d[:width])) for d in docs]
        arr = xp.asarray(rows, dtype=object).reshape(len(rows), width)
        return self._lookup(convert_to_tensor(arr))

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return (input_shape[0], self.output_sequence_length)
        return (input_shape[0], self._lookup._depth())

    def get_config(self):
        return config_of(self, max_tokens=self.max_tokens, standardize=self.standardize
                         if not callable(self.standardize) else None,
                         split=self.split if not callable(self.split) else None,
                         ngrams=self.ngrams, output_mode=self.output_mode,
                         output_sequence_length=self.output_sequence_length,
                         pad_to_max_tokens=self.pad_to_max_tokens)

