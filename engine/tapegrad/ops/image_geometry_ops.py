"""``tf.image`` crops and patches: ``crop_and_resize`` (bilinear or nearest samples of boxes),
``extract_patches``, ``resize_with_pad`` and ``draw_bounding_boxes``.

The sampling ops gather pixels with ``gather`` and blend them with differentiable weights, so
the image gets TensorFlow's scatter-back gradient and, for ``crop_and_resize``, the boxes get
the derivative of the sample positions (TensorFlow's CropAndResizeGradBoxes).
"""
from ..backend import xp
from ..dtypes import float32
from ..errors import InvalidArgumentError
from ..ground import reshape
from ..recording import bind
from ..table import primitive
from ..checks.dtype_rules import FLOAT
from .. import shape_rules
from ..table import defshape
from ..tensor import convert_to_tensor, wrap
from .arithmetic_ops import cast
from .image_ops import _image, _tensor, pad_to_bounding_box, resize
from .indexing_ops import gather
from .logic_ops import where
from .shape_ops import pad
from ..primitives import NO_GRADIENT, exempt


def _crop_positions(starts, ends, n_out, n_in):
    """Sample positions (in pixels) of ``n_out`` points from each box edge pair, shape [N, n]."""
    if n_out > 1:
        steps = convert_to_tensor(xp.arange(n_out, dtype=xp.float32) / (n_out - 1))
        return (starts[:, None] + (ends - starts)[:, None] * steps[None, :]) * float(n_in - 1)
    return reshape((starts + ends) * (0.5 * (n_in - 1)), [-1, 1])


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear",
                    extrapolation_value=0.0, name=None):
    """For each box ``[y1, x1, y2, x2]`` (normalised) of image ``box_indices[i]``, a
    ``crop_size`` grid of samples; points outside the image get ``extrapolation_value``.

    >>> import tapegrad as tf
    >>> img = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    >>> tf.image.crop_and_resize(img, [[0.0, 0.0, 1.0, 1.0]], [0], [2, 2]).numpy().ravel().tolist()
    [0.0, 3.0, 12.0, 15.0]
    """
    x = _tensor(image)
    b = cast(_tensor(boxes), float32)
    idx = xp.asarray(getattr(box_indices, "_value", box_indices)).astype(xp.int64).reshape(-1)
    size = [int(v) for v in xp.asarray(getattr(crop_size, "_value", crop_size)).reshape(-1)]
    if x._value.ndim != 4:
        raise InvalidArgumentError(f"input image must be 4-D, got shape {list(x._value.shape)}")
    if b._value.ndim != 2 or b._value.shape[1] != 4:
        raise InvalidArgumentError(f"boxes must be 2-D [num_boxes, 4], got "
                                   f"{list(b._value.shape)}")
    if idx.shape[0] != b._value.shape[0]:
        raise InvalidArgumentError(f"box_index has incompatible shape [{idx.shape[0]}]")
    if len(size) != 2 or min(size) <= 0:
        raise InvalidArgumentError("crop dimensions must be positive")
    if method not in ("bilinear", "nearest"):
        raise ValueError(f"method must be 'bilinear' or 'nearest', got {method!r}")
    batch, h, w, c = x._value.shape
    if idx.size and (idx.min() < 0 or idx.max() >= batch):
        raise InvalidArgumentError(f"box_index has values outside [0, {batch})")
    if x._value.dtype != xp.float32:
        x = cast(x, float32)
    ys = _crop_positions(b[:, 0], b[:, 2], size[0], h)          # [N, ch]
    xs = _crop_positions(b[:, 1], b[:, 3], size[1], w)          # [N, cw]
    yv, xv = ys._value, xs._value
    inside = (((yv >= 0) & (yv <= h - 1))[:, :, None] & ((xv >= 0) & (xv <= w - 1))[:, None, :])
    flat = reshape(x, [batch * h * w, c])
    base = (idx * h)[:, None, None]

    def pick(rows, cols):
        rows = xp.clip(rows, 0, h - 1)[:, :, None]
        cols = xp.clip(cols, 0, w - 1)[:, None, :]
        return gather(flat, wrap(((base + rows) * w + cols).astype(xp.int64)))

    if method == "nearest":
        # roundf: halves away from zero (positions inside the image are >= 0)
        out = pick(xp.floor(yv + 0.5).astype(xp.int64), xp.floor(xv + 0.5).astype(xp.int64))
    else:
        top, left = xp.floor(yv), xp.floor(xv)
        bottom, right = xp.ceil(yv), xp.ceil(xv)
        y_lerp = (ys - wrap(top.astype(xp.float32)))[:, :, None, None]
        x_lerp = (xs - wrap(left.astype(xp.float32)))[:, None, :, None]
        t, bo = top.astype(xp.int64), bottom.astype(xp.int64)
        le, ri = left.astype(xp.int64), right.astype(xp.int64)
        upper = pick(t, le) + (pick(t, ri) - pick(t, le)) * x_lerp
        lower = pick(bo, le) + (pick(bo, ri) - pick(bo, le)) * x_lerp
        out = upper + (lower - upper) * y_lerp
    fill = convert_to_tensor(float(extrapolation_value), dtype=float32)
    mask = wrap(xp.broadcast_to(inside[..., None], out._value.shape))
    return where(mask, out, fill)


def _patch_padding(n, k, stride, rate, padding):
    span = (k - 1) * rate + 1
    if padding == "VALID":
        return max((n - span) // stride + 1, 0), 0, 0
    out = -(-n // stride)
    total = max((out - 1) * stride + span - n, 0)
    return out, total // 2, total - total // 2


def extract_patches(images, sizes, strides, rates, padding, name=None):
    """Patches of ``images`` [batch, h, w, c] laid out in the depth axis: output
    [batch, out_h, out_w, kh * kw * c] with ``sizes = [1, kh, kw, 1]`` (strides and rates alike),
    ``padding`` 'VALID' or 'SAME' (zeros).

    >>> import tapegrad as tf
    >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    >>> tf.image.extract_patches(x, [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID").shape
    TensorShape([1, 2, 2, 4])
    """
    x = _tensor(images)
    if x._value.ndim != 4:
        raise ValueError(f"images must be 4-D [batch, in_rows, in_cols, depth], got shape "
                         f"{list(x._value.shape)}")
    sizes, strides, rates = ([int(v) for v in arg] for arg in (sizes, strides, rates))
    for label, arg in (("ksizes", sizes), ("strides", strides), ("rates", rates)):
        if len(arg) != 4 or arg[0] != 1 or arg[3] != 1:
            raise InvalidArgumentError(f"{label} must be of the form [1, rows, cols, 1], got "
                                       f"{arg}")
    padding = padding.upper() if isinstance(padding, str) else padding
    if padding not in ("VALID", "SAME"):
        raise ValueError(f"padding must be 'VALID' or 'SAME', got {padding!r}")
    batch, h, w, c = x._value.shape
    oh, top, bottom = _patch_padding(h, sizes[1], strides[1], rates[1], padding)
    ow, left, right = _patch_padding(w, sizes[2], strides[2], rates[2], padding)
    if top or bottom or left or right:
        x = pad(x, [[0, 0], [top, bottom], [left, right], [0, 0]])
    ph, pw = h + top + bottom, w + left + right
    rows = (xp.arange(oh) * strides[1])[:, None] + xp.arange(sizes[1]) * rates[1]   # [oh, kh]
    cols = (xp.arange(ow) * strides[2])[:, None] + xp.arange(sizes[2]) * rates[2]   # [ow, kw]
    index = (xp.arange(batch)[:, None, None, None, None] * ph + rows[None, :, None, :, None]) * pw \
        + cols[None, None, :, None, :]                                   # [b, oh, ow, kh, kw]
    flat = reshape(x, [batch * ph * pw, c])
    patches = gather(flat, wrap(index.astype(xp.int64)))                # [b, oh, ow, kh, kw, c]
    return reshape(patches, [batch, oh, ow, sizes[1] * sizes[2] * c])


def resize_with_pad(image, target_height, target_width, method="bilinear", antialias=False):
    """Resizes to fit inside ``target_height x target_width`` keeping the aspect ratio, then
    pads the rest with zeros (centred)."""
    x = _image(image, "resize_with_pad")
    th, tw = int(target_height), int(target_width)
    if th <= 0 or tw <= 0:
        raise ValueError("target_height and target_width must be > 0.")
    h, w = x._value.shape[-3], x._value.shape[-2]
    f = xp.float32
    ratio = max(f(w) / f(tw), f(h) / f(th))
    rh_f, rw_f = f(h) / ratio, f(w) / f(ratio)
    rh, rw = int(xp.floor(rh_f)), int(xp.floor(rw_f))
    pad_h = max(0, int(xp.floor((f(th) - rh_f) / f(2))))
    pad_w = max(0, int(xp.floor((f(tw) - rw_f) / f(2))))
    resized = resize(x, [rh, rw], method=method, antialias=antialias)
    return pad_to_bounding_box(resized, pad_h, pad_w, th, tw)


_DEFAULT_COLORS = ((1, 1, 0, 1), (0, 0, 1, 1), (1, 0, 0, 1), (0, 1, 0, 1), (0.5, 0, 0.5, 1),
                   (0.5, 0.5, 0.5, 1), (0.5, 0.5, 0, 1), (0.5, 0, 0, 1), (0, 0, 0.5, 1),
                   (0, 1, 1, 1), (1, 0, 1, 1))


def _draw_boxes(images, boxes, colors):
    canvas = images.copy()
    _, h, w, depth = canvas.shape
    for b in range(canvas.shape[0]):
        for n, box in enumerate(boxes[b]):
            color = colors[n % len(colors)][:depth]
            top, bottom = int(xp.float32(box[0]) * (h - 1)), int(xp.float32(box[2]) * (h - 1))
            left, right = int(xp.float32(box[1]) * (w - 1)), int(xp.float32(box[3]) * (w - 1))
            if top > bottom or left > right or top >= h or bottom < 0 or left >= w or right < 0:
                continue                                  # TF skips such boxes
            r0, r1 = max(top, 0), min(bottom, h - 1)
            c0, c1 = max(left, 0), min(right, w - 1)
            if top >= 0:
                canvas[b, top, c0:c1 + 1] = color
            if bottom < h:
                canvas[b, bottom, c0:c1 + 1] = color
            if left >= 0:
                canvas[b, r0:r1 + 1, left] = color
            if right < w:
                canvas[b, r0:r1 + 1, right] = color
    return canvas


# no gradient registered, as in TF: a tape asked through it raises LookupError
DRAW_BOUNDING_BOXES = primitive(
    "DrawBoundingBoxesV2", lambda images, boxes, colors: _draw_boxes(images, boxes, colors),
                                dtypes=FLOAT)
exempt(DRAW_BOUNDING_BOXES, **NO_GRADIENT)
defshape(DRAW_BOUNDING_BOXES, shape_rules.same)


def draw_bounding_boxes(images, boxes, colors, name=None):
    """Outlines ``boxes`` [batch, n, 4] (normalised ``[y1, x1, y2, x2]``) on ``images``
    [batch, h, w, depth] with ``colors`` [k, >= depth] used in turn (TF's default table when
    None or empty).

    >>> import tapegrad as tf
    >>> out = tf.image.draw_bounding_boxes(tf.zeros([1, 3, 3, 1]), [[[0, 0, 1, 1]]], [[1.0]])
    >>> out.numpy()[0, :, :, 0].tolist()
    [[1.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 1.0]]
    """
    x = _tensor(images)
    if x._value.dtype.kind != "f":
        raise InvalidArgumentError(f"Value for attr 'T' of {x.dtype.name} is not in the list of "
                                   f"allowed values: float, half")
    if x._value.ndim != 4:
        raise InvalidArgumentError(f"The rank of the images should be 4, got shape "
                                   f"{list(x._value.shape)}")
    depth = x._value.shape[3]
    if depth not in (1, 3, 4):
        raise InvalidArgumentError(f"Channel depth should be either 1 (GRY), 3 (RGB), or 4 "
                                   f"(RGBA), got {depth}")
    bx = _tensor(boxes)
    if bx._value.ndim != 3 or bx._value.shape[2] != 4 or bx._value.shape[0] != x._value.shape[0]:
        raise InvalidArgumentError(f"boxes must be 3-D [batch, num_boxes, 4] matching the "
                                   f"images, got {list(bx._value.shape)}")
    table = xp.zeros((0, 4), xp.float32) if colors is None else \
        xp.asarray(getattr(colors, "_value", colors), xp.float32).reshape(-1, xp.shape(
            getattr(colors, "_value", colors))[-1] if xp.ndim(getattr(colors, "_value", colors))
            else 0)
    if table.size == 0:
        table = xp.asarray(_DEFAULT_COLORS, xp.float32)
        if depth == 1:
            table[:, 0] = 1.0
    elif table.shape[1] < depth:
        raise InvalidArgumentError(f"Color table must have at least {depth} columns (depth), "
                                   f"got {table.shape[1]}")
    return bind(DRAW_BOUNDING_BOXES, (x, wrap(bx._value.astype(xp.float32)), wrap(table)), {})
