"""Shapes and dtypes inside a graph: what ``tf.function`` infers for an op whose inputs have
unknown dimensions, and the ``ValueError`` graph construction raises for incompatible shapes.

TensorFlow traces the op (named by ``tf.raw_ops``, so the node is named after it) with an
``input_signature``. tapegrad evaluates the same primitive's shape rule (tapegrad.shape_rules)
until its ``tf.function`` traces graphs itself (issue 29): each case names the primitive and the
attributes tapegrad gives it. A case returns the output's dimensions (None: unknown rank) and dtype name.
"""


def _raw(tf):
    """TensorFlow's raw ops, which only the TensorFlow side of a case calls (not a tapegrad
    name: the coverage table must not count it as checked)."""
    return getattr(tf, "raw_ops")


def _graph(tf, build, signature, op, attrs=None):
    if tf.__name__ == "tapegrad":
        import tapegrad.shape_rules as rules
        from tapegrad.table import TABLE
        out = TABLE[op].shape([rules.spec(s, d) for s, d in signature], attrs or {})
        return [None if out.shape is None else list(out.shape), out.dtype.name]
    specs = [tf.TensorSpec(s, d) for s, d in signature]
    try:
        out = tf.function(build, input_signature=specs).get_concrete_function().structured_outputs
    except ValueError as e:   # the op's own sentence, without the traceback of the user's code
        raise ValueError(str(e).strip().splitlines()[-1].removeprefix("ValueError: ")) from None
    return [out.shape.as_list() if out.shape.rank is not None else None, out.dtype.name]


def case_add_dimensions_must_be_equal(tf):
    return _graph(tf, lambda x, y: _raw(tf).AddV2(x=x, y=y),
                  [([2], tf.float32), ([3], tf.float32)], "AddV2")


def case_add_broadcasts_unknown_dimensions(tf):
    return _graph(tf, lambda x, y: _raw(tf).AddV2(x=x, y=y),
                  [([None, 2], tf.float32), ([3, 1, None], tf.float32)], "AddV2")


def case_mul_unknown_against_one(tf):
    return _graph(tf, lambda x, y: _raw(tf).Mul(x=x, y=y),
                  [([None, 1], tf.float64), ([1, None], tf.float64)], "Mul")


def case_sub_unknown_rank(tf):
    return _graph(tf, lambda x, y: _raw(tf).Sub(x=x, y=y),
                  [(None, tf.float32), ([4], tf.float32)], "Sub")


def case_less_gives_bool(tf):
    return _graph(tf, lambda x, y: _raw(tf).Less(x=x, y=y),
                  [([None, 3], tf.int32), ([3], tf.int32)], "Less")


def case_equal_dimensions_must_be_equal(tf):
    return _graph(tf, lambda x, y: _raw(tf).Equal(x=x, y=y),
                  [([2, 4], tf.float32), ([3, 4], tf.float32)], "Equal")


def case_matmul_inner_dimensions(tf):
    return _graph(tf, lambda x, y: _raw(tf).MatMul(a=x, b=y),
                  [([2, 3], tf.float32), ([4, 5], tf.float32)], "MatMul")


def case_matmul_transposed_inner_dimensions(tf):
    return _graph(tf, lambda x, y: _raw(tf).MatMul(a=x, b=y, transpose_a=True),
                  [([2, 3], tf.float32), ([4, 5], tf.float32)], "MatMul",
                  {"transpose_a": True, "transpose_b": False})


def case_matmul_unknown_dimensions(tf):
    return _graph(tf, lambda x, y: _raw(tf).MatMul(a=x, b=y, transpose_b=True),
                  [([None, 3], tf.float32), ([None, 3], tf.float32)], "MatMul",
                  {"transpose_a": False, "transpose_b": True})


def case_batch_matmul_batch_dimensions(tf):
    return _graph(tf, lambda x, y: _raw(tf).BatchMatMulV2(x=x, y=y),
                  [([2, 2, 3], tf.float32), ([3, 3, 5], tf.float32)], "MatMul")


def case_batch_matmul_broadcasts(tf):
    return _graph(tf, lambda x, y: _raw(tf).BatchMatMulV2(x=x, y=y),
                  [([None, 1, 2, 3], tf.float32), ([4, None, 5], tf.float32)], "MatMul")


def case_sum_invalid_axis(tf):
    return _graph(tf, lambda x: _raw(tf).Sum(input=x, axis=[3]),
                  [([2, 3], tf.float32)], "Sum", {"axes": (3,), "keepdims": False})


def case_sum_keepdims_unknown(tf):
    return _graph(tf, lambda x: _raw(tf).Sum(input=x, axis=[1], keep_dims=True),
                  [([None, 3, None], tf.float32)], "Sum", {"axes": (1,), "keepdims": True})


def case_argmax_index_dtype(tf):
    return _graph(tf, lambda x: _raw(tf).ArgMax(input=x, dimension=0),
                  [([None, 3], tf.float32)], "ArgMax", {"axis": 0, "dtype": "int64"})


def case_reshape_element_count(tf):
    return _graph(tf, lambda x: _raw(tf).Reshape(tensor=x, shape=[4]),
                  [([2, 3], tf.float32)], "Reshape", {"shape": (4,)})


def case_reshape_infers_unknown(tf):
    return _graph(tf, lambda x: _raw(tf).Reshape(tensor=x, shape=[-1, 3]),
                  [([None, 6], tf.float32)], "Reshape", {"shape": (-1, 3)})


def case_concat_other_dimensions_equal(tf):
    return _graph(tf, lambda x, y: _raw(tf).ConcatV2(values=[x, y], axis=0),
                  [([2, 3], tf.float32), ([2, 4], tf.float32)], "ConcatV2", {"axis": 0})


def case_concat_unknown_along_axis(tf):
    return _graph(tf, lambda x, y: _raw(tf).ConcatV2(values=[x, y], axis=1),
                  [([None, 3], tf.float32), ([2, None], tf.float32)], "ConcatV2", {"axis": 1})


def case_transpose_permutation_length(tf):
    return _graph(tf, lambda x: _raw(tf).Transpose(x=x, perm=[0]),
                  [([2, 3], tf.float32)], "Transpose", {"perm": (0,)})


def case_cast_keeps_unknown_shape(tf):
    return _graph(tf, lambda x: _raw(tf).Cast(x=x, DstT=tf.int32),
                  [([None, 2], tf.float32)], "Cast", {"dtype": "int32"})


def case_is_nan_gives_bool(tf):
    return _graph(tf, lambda x: _raw(tf).IsNan(x=x), [([None], tf.float16)], "IsNan")


def case_conv2d_input_depth(tf):
    return _graph(tf, lambda x, y: _raw(tf).Conv2D(input=x, filter=y, strides=[1, 1, 1, 1],
                                                     padding="SAME"),
                  [([1, 8, 8, 3], tf.float32), ([3, 3, 4, 5], tf.float32)], "Conv2D",
                  {"ksize": (3, 3), "strides": (1, 1), "dilations": (1, 1),
                   "pads": ((1, 1), (1, 1)), "out_hw": (8, 8), "in_hw": (8, 8)})


def case_gather_shapes(tf):
    return _graph(tf, lambda x, y: _raw(tf).GatherV2(params=x, indices=y, axis=1),
                  [([None, 5, 2], tf.float32), ([3, None], tf.int32)], "GatherV2", {"axis": 1})


def case_select_broadcasts(tf):
    return _graph(tf, lambda x, y, z: _raw(tf).SelectV2(condition=x, t=y, e=z),
                  [([None, 1], tf.bool), ([3], tf.float32), ([1], tf.float32)], "SelectV2")
