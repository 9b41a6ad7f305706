"""Ops: primitives of the table (with their rules) and the public functions composed from them.

This module is the flat index of every public op function: code outside ``ops/`` imports ops from
here (``from tapegrad.ops import reduce_sum, matmul, reshape``), never from the module that
defines them, so ops can move between modules freely. A new op module adds its names below.
"""
from .. import convert  # noqa: F401  (argument conversion, for modules that used ops.convert)
from ..ground import add, broadcast_to, multiply, reduce_sum, reshape, unbroadcast  # noqa: F401
from .arithmetic_ops import (  # noqa: F401
    abs, add_n, cast, ceil, clip_by_value, divide, divide_no_nan, floor, floor_div, floordiv,
    floormod, identity, maximum, minimum, mod, negative, realdiv, round, scalar_mul, sign,
    stop_gradient, subtract, truediv,
)
from .logic_ops import (  # noqa: F401
    equal, greater, greater_equal, is_finite, is_inf, is_nan, less, less_equal, logical_and,
    logical_not, logical_or, logical_xor, not_equal, where,
)
from .exponential_ops import (  # noqa: F401
    erf, exp, expm1, log, log1p, pow, reciprocal, rsqrt, sqrt, square, squared_difference,
)
from .trig_ops import (  # noqa: F401
    acos, acosh, asin, asinh, atan, atan2, atanh, cos, cosh, sin, sinh, tan, tanh,
)
from .activation_ops import log_sigmoid, relu, relu_grad, sigmoid, softplus  # noqa: F401
from .cumulative_ops import cumprod, cumsum  # noqa: F401
from .reduction_ops import (  # noqa: F401
    argmax, argmin, clip_by_norm, l2_loss, reduce_all, reduce_any, reduce_logsumexp, reduce_max,
    reduce_mean, reduce_min, reduce_prod, reduce_std, reduce_variance,
)
from .matmul_ops import matmul  # noqa: F401
from .sparse_xent_ops import sparse_softmax_cross_entropy_with_logits  # noqa: F401
from .array_ops import (  # noqa: F401
    adjoint, concat, expand_dims, eye, fill, getitem, linspace, matrix_transpose, ones, ones_like,
    range_, rank, shape, size, slice_, squeeze, stack, transpose, unstack, zeros, zeros_like,
)
from .array_ops import range_ as range, slice_ as slice  # noqa: F401  (TensorFlow's names)
from .shape_ops import pad, reverse, split, tensordot, tile  # noqa: F401
from .indexing_ops import (  # noqa: F401
    IndexedSlices, boolean_mask, gather, gather_nd, one_hot, scatter_nd, tensor_scatter_nd_add,
    tensor_scatter_nd_update,
)
from .nn_ops import (  # noqa: F401
    bias_add, dropout, elu, gelu, leaky_relu, log_softmax, moments,
    sigmoid_cross_entropy_with_logits, silu, softmax, softmax_cross_entropy_with_logits,
    softmax_cross_entropy_with_logits_v2, softsign, swish,
)
from .conv_ops import avg_pool2d, conv2d, max_pool2d, max_pool_grad, max_pool_grad_grad  # noqa: F401
from .linalg_ops import (  # noqa: F401
    band_part, cholesky, cholesky_solve, det, diag, diag_part, inv, logdet, set_diag, slogdet,
    solve, trace, triangular_solve,
)
from .nn_composite_ops import (  # noqa: F401  (relu6, selu: not nn_ops' versions)
    batch_normalization, crelu, embedding_lookup, hard_sigmoid, l2_normalize, log_poisson_loss,
    relu6, selu, weighted_cross_entropy_with_logits,
)
from .sort_ops import argsort, in_top_k, sort, top_k, unique  # noqa: F401
from .segment_ops import (  # noqa: F401  (unsorted_segment_sum drops negative ids)
    segment_max, segment_mean, segment_min, segment_prod, segment_sum, unsorted_segment_max,
    unsorted_segment_mean, unsorted_segment_min, unsorted_segment_prod, unsorted_segment_sqrt_n,
    unsorted_segment_sum,
)
from .special_ops import (  # noqa: F401
    digamma, lgamma, polygamma, reciprocal_no_nan, xdivy, xlog1py, xlogy,
)
from .counting_ops import (  # noqa: F401
    bincount, confusion_matrix, count_nonzero, is_non_decreasing, is_strictly_increasing,
)
from .clip_ops import clip_by_global_norm, global_norm  # noqa: F401
from .arithmetic_ops import accumulate_n, polyval, truncatediv, truncatemod  # noqa: F401
from .reduction_ops import reduce_euclidean_norm  # noqa: F401
from .einsum_ops import einsum  # noqa: F401  (every subscript form)
from .decomposition_ops import (  # noqa: F401  (norm: reduction_ops' norm plus the spectral norm)
    cross, eigh, eigvalsh, expm, lstsq, matvec, norm, pinv, qr, svd,
)
from .print_ops import print  # noqa: F401,A001  (tf.print)
from .complex_ops import angle, complex, conj, imag, real  # noqa: F401,A004
from .signal_ops import (  # noqa: F401
    fft, fft2d, fft3d, frame, hamming_window, hann_window, ifft, ifft2d, ifft3d, irfft, irfft2d,
    irfft3d, rfft, rfft2d, rfft3d,
)
from .image_ops import (  # noqa: F401  (tf.image)
    ResizeMethod, adjust_brightness, central_crop, convert_image_dtype, crop_to_bounding_box,
    flip_left_right, flip_up_down, grayscale_to_rgb, pad_to_bounding_box, per_image_standardization,
    random_flip_left_right, random_flip_up_down, resize, resize_with_crop_or_pad, rgb_to_grayscale,
    rot90, transpose_image,
)
from .string_ops import (  # noqa: F401  (tf.strings; prefixed where a name is taken)
    as_string, format as string_format, join as string_join, length as string_length,
    lower as string_lower, reduce_join, regex_full_match, regex_replace, split as string_split,
    strip as string_strip, substr, to_number, upper as string_upper,
)
from .ragged_ops import RaggedTensor, constant as ragged_constant  # noqa: F401
from .sparse_ops import (  # noqa: F401
    SparseTensor, add as sparse_add, from_dense, reduce_sum as sparse_reduce_sum, reorder,
    sparse_dense_matmul, to_dense,
)
from .conv1d_ops import avg_pool1d, conv1d, max_pool1d  # noqa: F401
from .nn_composite_ops import (  # noqa: F401
    compute_average_loss, normalize_moments, scale_regularization_loss, sufficient_statistics,
    weighted_moments,
)
from .special_ops import erfc, erfinv, multiply_no_nan, ndtri  # noqa: F401
from .reduction_ops import cumulative_logsumexp  # noqa: F401
from .decomposition_ops import matrix_rank, normalize  # noqa: F401
from .ragged_ops import map_flat_values, range as ragged_range  # noqa: F401
from .sparse_ops import (  # noqa: F401
    expand_dims as sparse_expand_dims, slice as sparse_slice, transpose as sparse_transpose,
)
from .string_ops import bytes_split, unicode_split  # noqa: F401
from .bessel_ops import bessel_i0, bessel_i0e, bessel_i1, bessel_i1e  # noqa: F401
from .bitwise_ops import (  # noqa: F401
    bitwise_and, bitwise_or, bitwise_xor, invert, left_shift, right_shift,
)
from .cast_ops import bitcast, saturate_cast  # noqa: F401
from .string_ops import (  # noqa: F401
    fingerprint, ngrams, to_hash_bucket, to_hash_bucket_fast, to_hash_bucket_strong,
    unsorted_segment_join,
)
from .unicode_ops import (  # noqa: F401
    unicode_decode, unicode_decode_with_offsets, unicode_encode, unicode_script,
    unicode_split_with_offsets, unicode_transcode,
)
from .set_ops import (  # noqa: F401
    difference as set_difference, intersection as set_intersection, size as set_size,
    union as set_union,
)
from .sparse_array_ops import (  # noqa: F401  (tf.sparse, beyond the basics)
    bincount as sparse_bincount, concat as sparse_concat, cross as sparse_cross,
    cross_hashed as sparse_cross_hashed, eye as sparse_eye,
    fill_empty_rows as sparse_fill_empty_rows, map_values as sparse_map_values,
    mask as sparse_mask, maximum as sparse_maximum, minimum as sparse_minimum,
    reduce_max as sparse_reduce_max, reset_shape as sparse_reset_shape,
    reshape as sparse_reshape, retain as sparse_retain, sampled_addmm as sparse_sampled_addmm,
    segment_mean as sparse_segment_mean, segment_sqrt_n as sparse_segment_sqrt_n,
    segment_sum as sparse_segment_sum, softmax as sparse_softmax, split as sparse_split,
    to_indicator as sparse_to_indicator,
)
from .ragged_array_ops import (  # noqa: F401  (tf.ragged, beyond the basics)
    RaggedTensorSpec, boolean_mask as ragged_boolean_mask, cross as ragged_cross,
    cross_hashed as ragged_cross_hashed, row_splits_to_segment_ids, segment_ids_to_row_splits,
    stack as ragged_stack, stack_dynamic_partitions,
)
from .ragged_array_ops import ragged_fill_empty_rows  # noqa: F401
from .sparse_array_ops import SparseTensorSpec  # noqa: F401
from .rearrange_ops import (  # noqa: F401  (top-level tf.* array ops)
    UniqueWithCounts, dynamic_partition, dynamic_stitch, guarantee_const, histogram_fixed_width,
    histogram_fixed_width_bins, meshgrid, parallel_stack_values, repeat, reverse_sequence, roll,
    searchsorted, sequence_mask, strided_slice, tensor_scatter_nd_max, tensor_scatter_nd_min,
    tensor_scatter_nd_sub, tuple_, unique_with_counts, unravel_index,
)
from .shape_ops import (  # noqa: F401  (top-level tf.* shape helpers)
    broadcast_dynamic_shape, broadcast_static_shape, ensure_shape, get_static_value, shape_n,
)
from .dct_ops import dct, idct  # noqa: F401  (tf.signal, continued)
from .spectral_windows import (  # noqa: F401
    kaiser_bessel_derived_window, kaiser_window, vorbis_window,
)
from .stft_ops import (  # noqa: F401
    inverse_mdct, inverse_stft, inverse_stft_window_fn, mdct, overlap_and_add, stft,
)
from .mel_ops import linear_to_mel_weight_matrix, mfccs_from_log_mel_spectrograms  # noqa: F401
from .fftnd_ops import fftnd, fftshift, ifftnd, ifftshift, irfftnd, rfftnd  # noqa: F401
from .gamma_ops import (  # noqa: F401  (tf.math special functions)
    betainc, erfcinv, igamma, igammac, invert_permutation, lbeta, nextafter, zero_fraction, zeta,
)
from .approx_topk_ops import approx_max_k, approx_min_k, approx_top_k  # noqa: F401
from .conv_nd_ops import (  # noqa: F401  (N-d and transposed convolutions; tf.conv and friends)
    atrous_conv2d, atrous_conv2d_transpose, conv, conv1d_transpose, conv2d_backprop_filter_v2,
    conv2d_backprop_input_v2, conv2d_transpose, conv3d, conv3d_transpose, conv_transpose,
    convolution, extract_volume_patches,
)
from .depthwise_ops import (  # noqa: F401
    depthwise_conv2d, depthwise_conv2d_backprop_filter, depthwise_conv2d_backprop_input,
    depthwise_conv2d_native, separable_conv2d,
)
from .pool_nd_ops import (  # noqa: F401  (max_pool/avg_pool: by rank, replacing nn_ops' 2-D names)
    avg_pool, avg_pool3d, dilation2d, erosion2d, fractional_avg_pool, fractional_max_pool,
    max_pool, max_pool3d, max_pool_with_argmax, pool,
)
from .space_ops import (  # noqa: F401
    batch_to_space, batch_to_space_nd, depth_to_space, required_space_to_batch_paddings,
    space_to_batch, space_to_batch_nd, space_to_depth, with_space_to_batch,
)
from .lrn_ops import local_response_normalization, lrn  # noqa: F401
from .ctc_ops import (  # noqa: F401  (tf.nn CTC)
    collapse_repeated, ctc_beam_search_decoder, ctc_greedy_decoder, ctc_loss, ctc_unique_labels,
)
from .lu_ops import lu, lu_matrix_inverse, lu_reconstruct, lu_solve  # noqa: F401  (tf.linalg)
from .banded_ops import (  # noqa: F401
    banded_triangular_solve, eigh_tridiagonal, tensor_diag_part, tridiagonal_matmul,
    tridiagonal_solve,
)
from .matrix_functions import logm, matrix_square_root, sqrtm  # noqa: F401
from .eig_ops import eig, eigvals  # noqa: F401
from .rearrange_ops import edit_distance  # noqa: F401  (sparse sequences)
from .color_ops import (  # noqa: F401  (tf.image colour spaces and adjustments)
    adjust_contrast, adjust_gamma, adjust_hue, adjust_saturation, hsv_to_rgb, rgb_to_hsv,
    rgb_to_yiq, rgb_to_yuv, yiq_to_rgb, yuv_to_rgb,
)
from .image_quality_ops import (  # noqa: F401
    image_gradients, psnr, sobel_edges, ssim, ssim_multiscale, total_variation,
)
from .image_geometry_ops import (  # noqa: F401
    crop_and_resize, draw_bounding_boxes, extract_patches, resize_with_pad,
)
from .nms_ops import (  # noqa: F401
    combined_non_max_suppression, non_max_suppression, non_max_suppression_overlaps,
    non_max_suppression_padded, non_max_suppression_with_scores,
)
from .image_random_ops import (  # noqa: F401
    random_brightness, random_contrast, random_crop, random_hue, random_saturation,
    stateless_random_brightness, stateless_random_contrast, stateless_random_crop,
    stateless_random_flip_left_right, stateless_random_flip_up_down, stateless_random_hue,
    stateless_random_saturation,
)
from .sampled_loss_ops import nce_loss, sampled_softmax_loss  # noqa: F401
from .embedding_sparse_ops import (  # noqa: F401
    embedding_lookup_sparse, safe_embedding_lookup_sparse,
)
from .batch_norm_global import batch_norm_with_global_normalization  # noqa: F401
from .isotonic_ops import isotonic_regression  # noqa: F401
from .png_codec import decode_png, encode_png  # noqa: F401
from .image_decode_ops import (  # noqa: F401
    decode_bmp, decode_gif, decode_image, extract_jpeg_shape, is_jpeg,
)
from . import variable_reads  # noqa: F401,E402  (attaches Variable.sparse_read, gather_nd)
from . import ragged_elementwise_ops  # noqa: F401  (registers the elementwise ops' ragged forms)
from . import sparse_elementwise_ops  # noqa: F401  (registers the elementwise ops' sparse forms)
from . import ragged_shape  # noqa: F401  (registers tf.shape/tf.tile/tf.ones... forms for ragged shapes)
from . import ragged_reductions  # noqa: F401  (registers the reductions' and tf.expand_dims's ragged forms)
from .composite_dispatch import install as _install_composite_dispatch

# Last: each op with a ragged (or sparse) form registered is bound here to its public op, the
# object every face shows (tf.reduce_sum is tf.math.reduce_sum is ops.reduce_sum).
_install_composite_dispatch(globals())
