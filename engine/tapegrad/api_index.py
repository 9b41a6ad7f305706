"""The one index of tapegrad's public names: for each face (``tf``, ``tf.math``, ``tf.nn``...),
each public name and the module where its one definition lives.

``FACES[face][source]`` lists names, separated by spaces, that ``face`` shows from the module
``tapegrad.<source>``; ``name=there`` when the definition has another name there
(``tf.tuple`` is ``ops.tuple_``); ``own`` lists the names the face module defines itself. Ops
come from the flat index ``tapegrad.ops`` (ops/__init__.py says which family module defines
each), so an op with a ragged or sparse form is the same object in every face.

The re-exporting faces (``math.py``, ``nn.py``, ``linalg.py``...) are built by ``bind``; the
faces with code of their own (``random.py``, ``config.py``, ``debugging.py``,
``nn_experimental.py``) import what they use and are checked against this index by
tests/engine/test_public_names.py, which also checks that no face binds a name twice and that
docs/coverage.md agrees.
"""
import sys
import types

FACES = {
    "tf": {
        "ops": """
            IndexedSlices RaggedTensor RaggedTensorSpec SparseTensor SparseTensorSpec abs acos acosh
            add add_n approx_top_k argmax argmin argsort as_string asin asinh atan atan2 atanh
            batch_to_space bitcast boolean_mask broadcast_dynamic_shape broadcast_static_shape
            broadcast_to cast clip_by_global_norm clip_by_norm clip_by_value complex concat conv
            conv2d_backprop_filter_v2 conv2d_backprop_input_v2 cos cosh cumprod cumsum divide
            dynamic_partition dynamic_stitch edit_distance einsum ensure_shape equal exp expand_dims
            extract_volume_patches eye fftnd fill fingerprint floor gather gather_nd
            get_static_value greater greater_equal guarantee_const histogram_fixed_width
            histogram_fixed_width_bins identity ifftnd irfftnd less less_equal linspace log
            logical_and logical_not logical_or matmul matrix_square_root maximum meshgrid minimum
            multiply negative norm not_equal one_hot ones ones_like pad pow print
            ragged_fill_empty_rows range rank realdiv reduce_all reduce_any reduce_logsumexp
            reduce_max reduce_mean reduce_min reduce_prod reduce_sum repeat
            required_space_to_batch_paddings reshape reverse reverse_sequence rfftnd roll round
            saturate_cast scalar_mul scatter_nd searchsorted sequence_mask shape shape_n sigmoid
            sign sin sinh size slice sort space_to_batch space_to_batch_nd split sqrt square squeeze
            stack stop_gradient strided_slice subtract tan tanh tensor_scatter_nd_add
            tensor_scatter_nd_max tensor_scatter_nd_min tensor_scatter_nd_sub
            tensor_scatter_nd_update tensordot tile transpose truediv truncatediv truncatemod
            tuple=tuple_ unique unique_with_counts unravel_index unstack where zeros zeros_like
        """,
        "aliases": "install_as_tensorflow",   # tapegrad's own: import tensorflow/keras give tapegrad
        "backprop": "UnconnectedGradients",
        "config": "device",
        "control_flow.branches": "case cond switch_case",
        "control_flow.grouping": "control_dependencies group identity_n no_op",
        "control_flow.loops": "foldl foldr map_fn scan vectorized_map while_loop",
        "control_flow.tensor_array": "TensorArray",
        "custom": "NoGradient NotDifferentiable RegisterGradient custom_gradient no_gradient",
        "dtypes": """
            DType as_dtype bfloat16 bool complex128 complex64 double float16 float32 float64 half
            int16 int32 int64 int8 qint16 qint32 qint8 quint16 quint8 resource string uint16 uint32
            uint64 uint8 variant
        """,
        "function": "executing_eagerly function",
        "graph_gradients": "gradients hessians inside_function is_symbolic_tensor parallel_stack",
        "initializers": """
            constant_initializer ones_initializer random_normal_initializer
            random_uniform_initializer zeros_initializer
        """,
        "module": "Module",
        "name_scope": "get_current_name_scope init_scope name_scope",
        "ops.assert_ops": "Assert assert_equal assert_greater assert_less assert_rank",
        "py_function": "numpy_function py_function",
        "rng.index_shuffle": "random_index_shuffle",
        "tape": "GradientTape",
        "tensor": "Tensor constant convert_to_tensor is_tensor",
        "tensor_proto": "make_ndarray make_tensor_proto",
        "tensor_shape": "TensorShape",
        "tensor_spec": "TensorSpec",
        "type_spec": """
            IndexedSlicesSpec NoneTensorSpec OptionalSpec TensorArraySpec TypeSpec
            type_spec_from_value
        """,
        "utilities": """
            AggregationMethod DeviceSpec VariableAggregation VariableSynchronization check_pinned
            get_logger grad_pass_through nondifferentiable_batch_function recompute_grad
            register_tensor_conversion_function timestamp version
        """,
        "variables": "Variable",
        "widget.magic": "load_ipython_extension unload_ipython_extension",
        "own": "autodiff newaxis",
    },
    "tf.math": {
        "ops": """
            abs accumulate_n acos acosh add add_n angle approx_max_k approx_min_k argmax argmin asin
            asinh atan atan2 atanh bessel_i0 bessel_i0e bessel_i1 bessel_i1e betainc bincount cast
            ceil confusion_matrix conj cos cosh count_nonzero cumprod cumsum cumulative_logsumexp
            digamma divide divide_no_nan equal erf erfc erfcinv erfinv exp expm1 floor floor_div
            floordiv floormod greater greater_equal igamma igammac imag in_top_k invert_permutation
            is_finite is_inf is_nan is_non_decreasing is_strictly_increasing l2_normalize lbeta less
            less_equal lgamma log log1p log_sigmoid log_softmax logical_and logical_not logical_or
            logical_xor maximum minimum mod multiply multiply_no_nan ndtri negative nextafter
            not_equal polygamma polyval pow real realdiv reciprocal reciprocal_no_nan reduce_all
            reduce_any reduce_euclidean_norm reduce_logsumexp reduce_max reduce_mean reduce_min
            reduce_prod reduce_std reduce_sum reduce_variance rint=round round rsqrt scalar_mul
            segment_max segment_mean segment_min segment_prod segment_sum sigmoid sign sin sinh
            softmax softplus softsign sqrt square squared_difference subtract tan tanh top_k truediv
            unsorted_segment_max unsorted_segment_mean unsorted_segment_min unsorted_segment_prod
            unsorted_segment_sqrt_n unsorted_segment_sum where xdivy xlog1py xlogy zero_fraction
            zeta
        """,
        "own": "special",
    },
    "tf.nn": {
        "ops": """
            approx_max_k approx_min_k atrous_conv2d atrous_conv2d_transpose avg_pool avg_pool1d
            avg_pool2d avg_pool3d batch_norm_with_global_normalization batch_normalization bias_add
            collapse_repeated compute_average_loss conv1d conv1d_transpose conv2d conv2d_transpose
            conv3d conv3d_transpose conv_transpose convolution crelu ctc_beam_search_decoder
            ctc_greedy_decoder ctc_loss ctc_unique_labels depth_to_space depthwise_conv2d
            depthwise_conv2d_backprop_filter depthwise_conv2d_backprop_input dilation2d dropout elu
            embedding_lookup embedding_lookup_sparse erosion2d fractional_avg_pool
            fractional_max_pool gelu in_top_k isotonic_regression l2_loss l2_normalize leaky_relu
            local_response_normalization log_poisson_loss log_softmax lrn max_pool max_pool1d
            max_pool2d max_pool3d max_pool_with_argmax moments nce_loss normalize_moments pool relu
            relu6 safe_embedding_lookup_sparse sampled_softmax_loss scale_regularization_loss selu
            separable_conv2d sigmoid sigmoid_cross_entropy_with_logits silu softmax
            softmax_cross_entropy_with_logits softplus softsign space_to_batch space_to_depth
            sparse_softmax_cross_entropy_with_logits sufficient_statistics swish tanh top_k
            weighted_cross_entropy_with_logits weighted_moments with_space_to_batch zero_fraction
        """,
        "candidate_sampling": "all_candidate_sampler compute_accidental_hits",
        "random": "fixed_unigram_candidate_sampler learned_unigram_candidate_sampler",
        "rnn_cell_wrappers": "RNNCellDeviceWrapper RNNCellDropoutWrapper RNNCellResidualWrapper",
    },
    "tf.nn.experimental": {
        "ops": "greater_equal multiply where zeros_like",
        "rng.stateless": "stateless_uniform",
        "tensor": "convert_to_tensor",
        "variables": "Variable",
        "own": "general_dropout stateless_dropout",
    },
    "tf.linalg": {
        "ops": """
            adjoint band_part banded_triangular_solve cholesky cholesky_solve cross det diag
            diag_part eig eigh eigh_tridiagonal eigvals eigvalsh einsum expm eye global_norm inv
            l2_normalize logdet logm lstsq lu lu_matrix_inverse lu_reconstruct lu_solve matmul
            matrix_inverse=inv matrix_rank matrix_transpose matvec norm normalize pinv qr set_diag
            slogdet solve sqrtm svd tensor_diag=diag tensor_diag_part tensordot trace
            transpose=matrix_transpose triangular_solve tridiagonal_matmul tridiagonal_solve
        """,
        "linear_operator.block": """
            LinearOperatorBlockDiag LinearOperatorBlockLowerTriangular LinearOperatorKronecker
        """,
        "linear_operator.core": """
            LinearOperator LinearOperatorAdjoint LinearOperatorComposition LinearOperatorFullMatrix
            LinearOperatorInversion LinearOperatorLowerTriangular
        """,
        "linear_operator.diagonal": """
            LinearOperatorDiag LinearOperatorIdentity LinearOperatorScaledIdentity
            LinearOperatorZeros
        """,
        "linear_operator.structured": """
            LinearOperatorCirculant LinearOperatorCirculant2D LinearOperatorCirculant3D
            LinearOperatorHouseholder LinearOperatorLowRankUpdate LinearOperatorPermutation
            LinearOperatorToeplitz LinearOperatorTridiag
        """,
    },
    "tf.signal": {
        "ops": """
            dct fft fft2d fft3d fftnd fftshift frame hamming_window hann_window idct ifft ifft2d
            ifft3d ifftnd ifftshift inverse_mdct inverse_stft inverse_stft_window_fn irfft irfft2d
            irfft3d irfftnd kaiser_bessel_derived_window kaiser_window linear_to_mel_weight_matrix
            mdct mfccs_from_log_mel_spectrograms overlap_and_add rfft rfft2d rfft3d rfftnd stft
            vorbis_window
        """,
    },
    "tf.image": {
        "ops": """
            ResizeMethod adjust_brightness adjust_contrast adjust_gamma adjust_hue adjust_saturation
            central_crop combined_non_max_suppression convert_image_dtype crop_and_resize
            crop_to_bounding_box decode_bmp decode_gif decode_image decode_png draw_bounding_boxes
            encode_png extract_jpeg_shape extract_patches flip_left_right flip_up_down
            grayscale_to_rgb hsv_to_rgb image_gradients is_jpeg non_max_suppression
            non_max_suppression_overlaps non_max_suppression_padded non_max_suppression_with_scores
            pad_to_bounding_box per_image_standardization psnr random_brightness random_contrast
            random_crop random_flip_left_right random_flip_up_down random_hue random_saturation
            resize resize_with_crop_or_pad resize_with_pad rgb_to_grayscale rgb_to_hsv rgb_to_yiq
            rgb_to_yuv rot90 sobel_edges ssim ssim_multiscale stateless_random_brightness
            stateless_random_contrast stateless_random_crop stateless_random_flip_left_right
            stateless_random_flip_up_down stateless_random_hue stateless_random_saturation
            total_variation transpose=transpose_image yiq_to_rgb yuv_to_rgb
        """,
    },
    "tf.strings": {
        "ops": """
            as_string bytes_split format=string_format join=string_join length=string_length
            lower=string_lower ngrams reduce_join regex_full_match regex_replace split=string_split
            strip=string_strip substr to_hash_bucket to_hash_bucket_fast to_hash_bucket_strong
            to_number unicode_decode unicode_decode_with_offsets unicode_encode unicode_script
            unicode_split unicode_split_with_offsets unicode_transcode unsorted_segment_join
            upper=string_upper
        """,
    },
    "tf.sparse": {
        "ops": """
            SparseTensor add=sparse_add bincount=sparse_bincount concat=sparse_concat
            cross=sparse_cross cross_hashed=sparse_cross_hashed expand_dims=sparse_expand_dims
            eye=sparse_eye fill_empty_rows=sparse_fill_empty_rows from_dense
            map_values=sparse_map_values mask=sparse_mask maximum=sparse_maximum
            minimum=sparse_minimum reduce_max=sparse_reduce_max reduce_sum=sparse_reduce_sum reorder
            reset_shape=sparse_reset_shape reshape=sparse_reshape retain=sparse_retain
            sampled_addmm=sparse_sampled_addmm segment_mean=sparse_segment_mean
            segment_sqrt_n=sparse_segment_sqrt_n segment_sum=sparse_segment_sum slice=sparse_slice
            softmax=sparse_softmax sparse_dense_matmul split=sparse_split to_dense
            to_indicator=sparse_to_indicator transpose=sparse_transpose
        """,
    },
    "tf.ragged": {
        "ops": """
            RaggedTensor boolean_mask=ragged_boolean_mask constant=ragged_constant
            cross=ragged_cross cross_hashed=ragged_cross_hashed map_flat_values range=ragged_range
            row_splits_to_segment_ids segment_ids_to_row_splits stack=ragged_stack
            stack_dynamic_partitions
        """,
    },
    "tf.bitwise": {
        "ops": "bitwise_and bitwise_or bitwise_xor invert left_shift right_shift",
    },
    "tf.sets": {
        "ops": """
            difference=set_difference intersection=set_intersection size=set_size union=set_union
        """,
    },
    "tf.debugging": {
        "checks.numerics": "disable_check_numerics enable_check_numerics",
        "ops.assert_ops": """
            Assert assert_all_finite assert_equal assert_greater assert_greater_equal assert_integer
            assert_less assert_less_equal assert_near assert_negative assert_non_negative
            assert_non_positive assert_none_equal assert_positive assert_rank assert_rank_at_least
            assert_rank_in assert_scalar assert_shapes assert_type check_numerics is_numeric_tensor
            set_log_device_placement
        """,
        "own": """
            assert_proper_iterable assert_same_float_dtype disable_traceback_filtering
            enable_traceback_filtering get_log_device_placement is_traceback_filtering_enabled
        """,
    },
    "tf.config": {
        "function": "functions_run_eagerly run_functions_eagerly",
        "own": """
            LogicalDevice LogicalDeviceConfiguration PhysicalDevice device experimental
            experimental_functions_run_eagerly experimental_run_functions_eagerly
            get_logical_device_configuration get_soft_device_placement get_visible_devices
            list_logical_devices list_physical_devices set_logical_device_configuration
            set_soft_device_placement set_visible_devices threading
        """,
    },
    "tf.distribute": {
        "distribute.context": """
            ReplicaContext experimental_set_strategy get_replica_context get_strategy has_strategy
            in_cross_replica_context
        """,
        "distribute.cross_device_ops": """
            CrossDeviceOps HierarchicalCopyAllReduce NcclAllReduce ReductionToOneDevice RunOptions
        """,
        "distribute.gradient_tape": "DistributedGradientTape",   # tapegrad's own (Horovod's)
        "distribute.input": "DistributedDataset DistributedIterator InputContext InputOptions",
        "distribute.reduce_op": "ReduceOp",
        "distribute.strategies": """
            MirroredStrategy MultiWorkerMirroredStrategy OneDeviceStrategy Strategy
            StrategyExtended
        """,
        "distribute.values": "DistributedValues",
        "own": "cluster_resolver experimental",
    },
    "tf.saved_model": {
        "saved_model.loading": "LoadOptions contains_saved_model load",
        "saved_model.saving": "SaveOptions save",
    },
    "tf.random": {
        "candidate_sampling": "all_candidate_sampler",
        "errors": "InvalidArgumentError",
        "rng.generator": """
            Algorithm Generator create_rng_state get_global_generator set_global_generator
        """,
        "rng.stateless": """
            fold_in split stateless_binomial stateless_categorical stateless_gamma stateless_normal
            stateless_parameterized_truncated_normal stateless_poisson stateless_truncated_normal
            stateless_uniform
        """,
        "tensor": "wrap",
        "own": """
            categorical fixed_unigram_candidate_sampler gamma learned_unigram_candidate_sampler
            log_uniform_candidate_sampler normal poisson set_seed shuffle truncated_normal uniform
            uniform_candidate_sampler
        """,
    },
}


def entries(face):
    """(public name, source module, name there) for each public name of ``face``."""
    for source, names in FACES[face].items():
        for item in names.split():
            public, _, there = item.partition("=")
            yield public, source, there or public


def resolve(source, there):
    """The object ``tapegrad.<source>.<there>`` (its module already imported)."""
    return getattr(sys.modules[f"{__package__}.{source}"], there)


def bind(namespace, face):
    """Binds, in ``namespace`` (the face module's globals), each name the index gives ``face``
    from another module. The face imports those modules first; a name bound twice is an error
    (a submodule's attribute may give way: ``tf.function`` is the function, not the module)."""
    for public, source, there in entries(face):
        if source == "own":
            continue
        if public in namespace and not isinstance(namespace[public], types.ModuleType):
            raise ValueError(f"{face}.{public} is bound twice")
        namespace[public] = resolve(source, there)
