"""Small, JSON-ready summaries of tensor values for the graph and its events."""
import numpy as np

from ..dtypes import from_numpy

FULL_VALUE_LIMIT = 16   # tensors with at most this many elements are shown whole


def value_summary(x):
    """{'shape', 'dtype', 'text', 'data' (small tensors), 'min'/'max'/'mean' (numeric)}."""
    if x is None:
        return None
    v = np.asarray(x._value if hasattr(x, "_value") else x)
    out = {"shape": list(v.shape), "dtype": _dtype(v)}
    if v.dtype.kind == "O":
        out["text"] = str(v.tolist())[:200]
        return out
    if v.size <= FULL_VALUE_LIMIT:
        out["data"] = _json_numbers(v.tolist())
        with np.printoptions(precision=4, suppress=True):
            out["text"] = str(v) if v.ndim else _scalar_text(v)
    else:
        with np.printoptions(precision=4, suppress=True, threshold=8, edgeitems=2):
            out["text"] = str(v)
    if v.size and v.dtype.kind in "fiub":
        finite = v[np.isfinite(v)] if v.dtype.kind == "f" else v
        if finite.size:
            out["min"] = _num(finite.min())
            out["max"] = _num(finite.max())
            out["mean"] = _num(finite.astype(np.float64).mean())
    return out


_SHAPES = {}


def shape_summary(x):
    """{'shape', 'dtype'} only, one shared dict per shape and dtype: the summary of a big tape's
    tensors (the whole summary of each would cost more than the rest of the export)."""
    v = x._value if hasattr(x, "_value") else np.asarray(x)
    key = (v.shape, v.dtype)
    out = _SHAPES.get(key)
    if out is None:     # (kept: the export tells summaries apart by identity; one per shape)
        out = _SHAPES[key] = {"shape": list(v.shape), "dtype": _dtype(v)}
    return out


def _dtype(v):
    try:
        return from_numpy(v.dtype).name
    except TypeError:
        return str(v.dtype)


def _scalar_text(v):
    return str(v[()]) if v.dtype.kind != "f" else f"{float(v):.6g}"


def _num(x):
    x = x.item() if hasattr(x, "item") else x
    if isinstance(x, float) and not np.isfinite(x):
        return str(x)
    return x


def _json_numbers(data):
    if isinstance(data, list):
        return [_json_numbers(d) for d in data]
    if isinstance(data, float) and not np.isfinite(data):
        return str(data)  # JSON has no nan/inf: "nan", "inf", "-inf"
    return data
