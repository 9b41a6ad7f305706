"""Hypothesis strategies for fuzz programs (programs.py): Keras layers with valid and invalid
configurations and inputs, tf.data pipelines, tf.strings calls on valid and invalid UTF-8, and
tf.function signatures and calls. ``draw_programs(n, seed)`` gives a deterministic list."""
import sys
from pathlib import Path

from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
import drawing  # noqa: E402

_VALUES = [-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0]


def _size(shape):
    n = 1
    for d in shape:
        n *= d
    return n


@st.composite
def tensor(draw, shape, dtype="float32"):
    if dtype.startswith("int"):
        values = draw(st.lists(st.integers(-3, 5), min_size=_size(shape), max_size=_size(shape)))
    else:
        values = draw(st.lists(st.sampled_from(_VALUES), min_size=_size(shape),
                               max_size=_size(shape)))
    return {"t": dtype, "s": list(shape), "v": values}


def _shape(draw, min_rank, max_rank, max_dim=4, min_dim=1):
    rank = draw(st.integers(min_rank, max_rank))
    return [draw(st.integers(min_dim, max_dim)) for _ in range(rank)]


# ---- layers: a mostly valid config, sometimes one bad value; inputs of the right rank mostly ----

_BAD_INT = [0, -2, 2.5, "3", None]


def _int(draw, lo, hi):
    return draw(st.sampled_from(_BAD_INT)) if draw(st.integers(0, 9)) == 0 else draw(st.integers(lo, hi))


def _rank(draw, want):
    return want if draw(st.integers(0, 7)) else draw(st.sampled_from([max(want - 1, 1), want + 1]))


@st.composite
def layer_program(draw):
    name = draw(st.sampled_from([
        "Dense", "Conv1D", "Conv2D", "MaxPooling2D", "AveragePooling1D", "Flatten", "Reshape",
        "Dropout", "BatchNormalization", "LayerNormalization", "Embedding", "SimpleRNN", "LSTM",
        "GRU", "GlobalAveragePooling2D", "Activation", "ZeroPadding2D", "UpSampling2D",
        "Cropping1D", "RepeatVector", "Permute"]))
    config, training, rank, dtype = {}, None, 2, "float32"
    if name == "Dense":
        config = {"units": _int(draw, 1, 4), "use_bias": draw(st.booleans()),
                  "activation": draw(st.sampled_from([None, "relu", "tanh", "softmax"]))}
    elif name in ("Conv1D", "Conv2D"):
        rank = 3 if name == "Conv1D" else 4
        config = {"filters": _int(draw, 1, 3), "kernel_size": _int(draw, 1, 3),
                  "strides": draw(st.sampled_from([1, 1, 2])),
                  "padding": draw(st.sampled_from(["valid", "same", "causal"] if rank == 3
                                                  else ["valid", "same", "full"]))}
    elif name in ("MaxPooling2D", "AveragePooling1D"):
        rank = 4 if name.endswith("2D") else 3
        config = {"pool_size": _int(draw, 1, 3), "padding": draw(st.sampled_from(["valid", "same"]))}
    elif name == "Flatten":
        rank = draw(st.integers(1, 4))
    elif name == "Reshape":
        config = {"target_shape": draw(st.sampled_from([[-1], [2, -1], [-1, 2], [3, 2], [-1, -1]]))}
        rank = 3
    elif name == "Dropout":
        config = {"rate": draw(st.sampled_from([0.0, 0.5, 1.0, -0.1, 1.5]))}
        training = False
        rank = draw(st.integers(1, 3))
    elif name in ("BatchNormalization", "LayerNormalization"):
        config = {"axis": draw(st.sampled_from([-1, 1, 2, 5]))}
        training = False if name == "BatchNormalization" else None
        rank = draw(st.integers(2, 3))
    elif name == "Embedding":
        config = {"input_dim": _int(draw, 1, 6), "output_dim": _int(draw, 1, 3)}
        dtype = "int32"
    elif name in ("SimpleRNN", "LSTM", "GRU"):
        config = {"units": _int(draw, 1, 3), "return_sequences": draw(st.booleans())}
        rank = 3
    elif name == "GlobalAveragePooling2D":
        rank = 4
    elif name == "Activation":
        config = {"activation": draw(st.sampled_from(["relu", "sigmoid", "gelu", "no_such", "elu"]))}
        rank = draw(st.integers(1, 3))
    elif name in ("ZeroPadding2D", "UpSampling2D"):
        config = {"padding" if name.startswith("Zero") else "size": _int(draw, 1, 2)}
        rank = 4
    elif name == "Cropping1D":
        config = {"cropping": draw(st.sampled_from([0, 1, [1, 0], [2, 2], -1]))}
        rank = 3
    elif name == "RepeatVector":
        config = {"n": _int(draw, 1, 3)}
    elif name == "Permute":
        config = {"dims": draw(st.sampled_from([[2, 1], [1, 2], [1, 1], [0, 1], [3, 1]]))}
        rank = 3
    r = _rank(draw, rank)
    shape = _shape(draw, r, r)
    return {"kind": "layer", "layer": name, "config": config, "training": training,
            "input": draw(tensor(shape, dtype))}


# ---- datasets ----

_DATA_OPS = ["batch", "unbatch", "take", "skip", "repeat", "map", "filter", "enumerate", "shard",
             "prefetch", "cache", "padded_batch", "concatenate_self", "zip_self", "unique"]


@st.composite
def data_op(draw):
    name = draw(st.sampled_from(_DATA_OPS))
    small = st.sampled_from([0, 1, 2, 3, -1, -4])
    if name in ("batch", "padded_batch"):
        kw = {"batch_size": draw(small)}
        if draw(st.booleans()):
            kw["drop_remainder"] = draw(st.booleans())
        return [name, kw]
    if name in ("take", "skip"):
        return [name, {"count": draw(small)}]
    if name == "repeat":
        return [name, {"count": draw(st.sampled_from([0, 1, 2]))}]
    if name == "map":
        kw = {"fn": draw(st.sampled_from(["square", "plus_one", "pair", "first", "total"]))}
        if draw(st.integers(0, 3)) == 0:
            kw["num_parallel_calls"] = draw(st.sampled_from([1, 2, 0, -7, -1]))
        return [name, kw]
    if name == "filter":
        return [name, {"fn": draw(st.sampled_from(["positive", "not_zero", "never"]))}]
    if name == "enumerate":
        return [name, {"start": draw(st.sampled_from([0, 5, -2]))}]
    if name == "shard":
        return [name, {"num_shards": draw(st.sampled_from([1, 2, 3, 0])),
                       "index": draw(st.sampled_from([0, 1, 2, -1]))}]
    if name == "prefetch":
        return [name, {"buffer_size": draw(st.sampled_from([1, 2, -1, 0, -5]))}]
    return [name, {}]


@st.composite
def dataset_program(draw):
    shape = _shape(draw, 1, 3, max_dim=5)
    dtype = draw(st.sampled_from(["float32", "int32", "int64"]))
    ops = draw(st.lists(data_op(), min_size=1, max_size=4))
    return {"kind": "dataset", "source": draw(tensor(shape, dtype)), "ops": ops}


# ---- strings: byte strings, invalid UTF-8 among them ----

_WORDS = ["", "a", "abc", "Hello World", "  pad  ", "héllo", "日本語", "a,b,,c", "12", "-3.5",
          "1e3", "x1", "\t tab"]
_BROKEN = [b"\xff", b"ab\xc3", b"\xe2\x82", b"ok\x80ok", b"\xed\xa0\x80"]


@st.composite
def strings(draw, min_rank=0, max_rank=2):
    shape = _shape(draw, min_rank, max_rank, max_dim=3)
    pool = [w.encode() for w in _WORDS] + (_BROKEN if draw(st.integers(0, 2)) == 0 else [])
    values = draw(st.lists(st.sampled_from(pool), min_size=_size(shape), max_size=_size(shape)))
    return {"bytes": [v.hex() for v in values], "s": shape}


@st.composite
def strings_program(draw):
    op = draw(st.sampled_from(["length", "substr", "upper", "lower", "strip", "split",
                               "reduce_join", "regex_replace", "regex_full_match", "as_string",
                               "to_number", "unicode_decode", "hash_bucket_fast", "join",
                               "bytes_split", "unicode_split", "reduce_sum"]))
    x = draw(strings(min_rank=1 if op in ("split",) else 0))
    unit = st.sampled_from(["BYTE", "UTF8_CHAR", "CHAR"])
    kw = {}
    if op == "length":
        kw = {"unit": draw(unit)}
    elif op == "substr":
        kw = {"pos": draw(st.sampled_from([0, 1, 3, -1, 10])),
              "len": draw(st.sampled_from([0, 1, 2, -1, 5])), "unit": draw(unit)}
    elif op == "split":
        kw = {"sep": draw(st.sampled_from([None, ",", " ", ""]))}
    elif op == "reduce_join":
        kw = {"axis": draw(st.sampled_from([None, 0, -1, 5])), "separator": draw(st.sampled_from(["", "-"]))}
    elif op in ("regex_replace", "regex_full_match"):
        kw = {"pattern": draw(st.sampled_from(["a", "[0-9]+", "(", "^h.*", "\\s+", "[z-a]"]))}
        if op == "regex_replace":
            kw["rewrite"] = draw(st.sampled_from(["", "X", "\\0!"]))
    elif op == "as_string":
        if draw(st.booleans()):
            x = draw(tensor(_shape(draw, 0, 2), draw(st.sampled_from(["float32", "int32", "int64"]))))
            kw = {"precision": draw(st.sampled_from([-1, 2]))} if x["t"] == "float32" else {}
    elif op == "to_number":
        kw = {"out_type": {"dtype": draw(st.sampled_from(["float32", "int32", "int64", "float64"]))}}
    elif op in ("unicode_decode", "unicode_split"):
        kw = {"input_encoding": "UTF-8",
              "errors": draw(st.sampled_from(["replace", "ignore", "strict"]))}
    elif op == "hash_bucket_fast":
        kw = {"num_buckets": draw(st.sampled_from([1, 7, 0, -3]))}
    elif op == "join":
        x = [x, draw(strings())]
        kw = {"separator": draw(st.sampled_from(["", "+"]))}
    return {"kind": "strings", "op": op, "input": x, "kwargs": kw}


# ---- tf.function ----

_BODY_ARGS = {"double": 1, "total": 1, "shape": 1, "scale": 2, "length": 1, "first_row": 1}


@st.composite
def fn_arg(draw, body):
    kind = draw(st.integers(0, 9))
    if body == "length" and kind < 6:
        return draw(strings(max_rank=1))
    if kind == 0:
        return draw(st.sampled_from([2, 3, 0.5, True]))
    if kind == 1:
        return {"str": draw(st.sampled_from(["a", "bc"]))}
    dtype = draw(st.sampled_from(["float32", "float32", "int32", "float64"]))
    return draw(tensor(_shape(draw, 0, 2, max_dim=3), dtype))


@st.composite
def function_program(draw):
    body = draw(st.sampled_from(sorted(_BODY_ARGS)))
    n = _BODY_ARGS[body]
    signature = None
    if draw(st.integers(0, 2)) == 0 and body != "length":
        signature = [[draw(st.sampled_from([[None], [2], [], [None, None]])),
                      draw(st.sampled_from(["float32", "int32"]))] for _ in range(n)]
    calls = draw(st.lists(st.lists(fn_arg(body), min_size=n, max_size=n), min_size=1, max_size=4))
    if calls and draw(st.booleans()):
        calls.append(calls[0])   # the same signature again: no new trace
    return {"kind": "function", "body": body, "signature": signature,
            "reduce_retracing": draw(st.booleans()), "calls": calls}


KINDS = {"layer": layer_program, "dataset": dataset_program, "strings": strings_program,
         "function": function_program}


def program_strategy():
    return st.one_of(*(make() for make in KINDS.values()))


def draw_programs(n, seed_value):
    """About ``n`` generated programs, a quarter of each kind (duplicates dropped), the same for
    the same seed and Hypothesis version."""
    out, seen = [], set()
    for i, make in enumerate(KINDS.values()):
        drawing.distinct(make(), max(n // len(KINDS), 1), seed_value + i, out, seen)
    return out
