"""Small, JSON-ready summaries of tensor values for the graph and its events."""
import numpy as np

from ..dtypes import from_numpy

FULL_VALUE_LIMIT = 16   # tensors with at most this many elements are shown whole


def value_summary(x):
    """{'shape', 'dtype', 'text', 'data' (small tensors), 'min'/'max'/'mean' (numeric)}.

    (NumPy's printing is asked for its options directly, not through ``np.printoptions``, and a
    single number is summarized without reductions: a tape of a few hundred ops has a summary per
    tensor, and in a browser each context switch of NumPy's options costs a fraction of a ms.)"""
    if x is None:
        return None
    v = np.asarray(x._value if hasattr(x, "_value") else x)
    out = {"shape": list(v.shape), "dtype": _dtype(v)}
    kind = v.dtype.kind
    if kind == "O":
        out["text"] = str(v.tolist())[:200]
        return out
    if v.size <= FULL_VALUE_LIMIT:
        out["data"] = _json_numbers(v.tolist())
        out["text"] = (np.array2string(v, precision=4, suppress_small=True) if v.ndim else
                       _scalar_text(v))
    else:
        out["text"] = np.array2string(v, precision=4, suppress_small=True, threshold=8,
                                      edgeitems=2)
    if v.size and kind in "fiub":
        out.update(_stats(v, kind))
    return out


def _stats(v, kind):
    """{'min', 'max', 'mean'} of the finite numbers of ``v`` (nothing when there are none)."""
    if v.size == 1:
        x = v.reshape(-1)[0]
        if kind == "f" and not np.isfinite(x):
            return {}
        return {"min": _num(x), "max": _num(x), "mean": _num(np.float64(x))}
    finite = v[np.isfinite(v)] if kind == "f" else v
    if not finite.size:
        return {}
    return {"min": _num(finite.min()), "max": _num(finite.max()),
            "mean": _num(finite.astype(np.float64).mean())}


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
