"""``BaseConv``: what every convolution layer shares (``Conv1D/2D/3D``, their transposes, the
depthwise and separable ones): its arguments checked once (``arguments.py``), the channels-first
round trip (a transpose to channels-last and back, where Keras's TensorFlow backend accepts
channels-first on CPU), the bias, the output shape and the config."""
from ....ops import add, cast
from ... import activations
from ...naming import unique_name
from ..base import Layer, to_tensor
from ..input_spec import InputSpec
from ..layer_config import config_of, int_tuple
from .arguments import (conv_out_len, data_format_of, from_channels_last, no_constraints,
                        padding_of, spatial_of, strictly_positive, strides_and_dilation,
                        with_format)

_SPATIAL_NAMES = {1: "steps", 2: "height, width", 3: "depth, height, width"}


class BaseConv(Layer):
    """The arguments every convolution takes, checked and kept; ``filters`` is None for the
    depthwise layers (their output channels follow the input's)."""
    _rank = 2
    _keras_name = "conv"
    _paddings = ("valid", "same")

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, activation=None, use_bias=True, bias_initializer="zeros",
                 bias_regularizer=None, activity_regularizer=None, bias_constraint=None,
                 name=None, **kwargs):
        super().__init__(name=name if name is not None else unique_name(self._keras_name),
                         activity_regularizer=activity_regularizer, **kwargs)
        layer, n = type(self).__name__, self._rank
        self.kernel_size = int_tuple(kernel_size, n, "kernel_size")
        self.strides = int_tuple(strides, n, "strides")
        self.dilation_rate = int_tuple(dilation_rate, n, "dilation_rate")
        strides_and_dilation(self.strides, self.dilation_rate)
        self.padding = padding_of(padding, layer, self._paddings)
        self.data_format = data_format_of(data_format, layer)
        self.filters = None if filters is None else strictly_positive(filters, "filters")
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        self.bias_initializer, self.bias_regularizer = bias_initializer, bias_regularizer
        self.bias_constraint = bias_constraint
        no_constraints(layer, bias_constraint=bias_constraint)
        self.input_spec = InputSpec(min_ndim=n + 2)

    def _check_input(self, input_shape):
        """At build: the rank (above ``min_ndim``, which every call checks), then the channels
        the weights fix, which later calls must keep (Keras's input spec)."""
        if len(input_shape) != self._rank + 2:
            raise ValueError(f"{type(self).__name__} expects inputs of rank {self._rank + 2} "
                             f"(batch, {_SPATIAL_NAMES[self._rank]}, channels), got shape "
                             f"{tuple(input_shape)}")
        axis = 1 if self.data_format == "channels_first" else -1
        self.input_spec = InputSpec(min_ndim=self._rank + 2,
                                    axes={axis: self._channels(input_shape)})

    def _check_output_size(self, input_shape, kernel_shape):
        """A 'valid' convolution whose kernel does not fit the input: Keras's ValueError."""
        if self.padding != "valid":
            return
        sizes = [conv_out_len(s, k, st, d, "valid") for s, k, st, d in
                 zip(spatial_of(input_shape, self.data_format), self.kernel_size, self.strides,
                     self.dilation_rate)]
        if any(n is not None and n <= 0 for n in sizes):
            dilation = "[" + " ".join(str(d) for d in self.dilation_rate) + "]"
            raise ValueError(f"Computed output size would be zero or negative. Received "
                             f"`inputs shape={tuple(input_shape)}`, `kernel shape="
                             f"{tuple(kernel_shape)}`, `dilation_rate={dilation}`, `strides="
                             f"{self.strides}`, `padding={self.padding}`.")

    def _channels(self, input_shape):
        c = input_shape[1] if self.data_format == "channels_first" else input_shape[-1]
        if c is None:
            raise ValueError(f"{type(self).__name__}: the channel dimension of the inputs must "
                             f"be defined, got shape {tuple(input_shape)}")
        return int(c)

    def _out_channels(self, input_shape):
        return self.filters

    def _add_bias(self, name="bias", size=None):
        if not self.use_bias:
            return None
        return self.add_weight(shape=(size if size is not None else self.filters,),
                               initializer=self.bias_initializer, name=name,
                               regularizer=self.bias_regularizer)

    def _input(self, inputs, dtype):
        x = to_tensor(inputs)
        return cast(x, dtype) if x.dtype != dtype else x

    def _finish(self, y):
        """Bias (channels-last), back to the layer's format, activation."""
        if self.bias is not None:
            y = add(y, self.bias)
        return self.activation(from_channels_last(y, self.data_format))

    def compute_output_shape(self, input_shape):
        spatial = [conv_out_len(s, k, st, d, self.padding) for s, k, st, d in
                   zip(spatial_of(input_shape, self.data_format), self.kernel_size,
                       self.strides, self.dilation_rate)]
        return with_format(input_shape, spatial, self._out_channels(input_shape),
                           self.data_format)

    def _config(self, head, kernels, **middle):
        """Keras's config: ``head`` (filters, depth_multiplier...), the shared arguments, then
        each kernel's initializer, regularizer and constraint (``kernels``: their prefixes)
        and the bias's; ``middle`` (groups...) stands before the activation."""
        return config_of(self, **head, kernel_size=self.kernel_size, strides=self.strides,
                         padding=self.padding, data_format=self.data_format,
                         dilation_rate=self.dilation_rate, **middle, activation=self.activation,
                         use_bias=self.use_bias, **self._regularization(kernels))

    def _regularization(self, kernels):
        tail = {f"{k}_initializer": getattr(self, f"{k}_initializer") for k in kernels}
        tail["bias_initializer"] = self.bias_initializer
        tail.update({f"{k}_regularizer": getattr(self, f"{k}_regularizer") for k in kernels})
        tail.update(bias_regularizer=self.bias_regularizer,
                    activity_regularizer=self.activity_regularizer)
        tail.update({f"{k}_constraint": getattr(self, f"{k}_constraint", None) for k in kernels})
        tail["bias_constraint"] = self.bias_constraint
        return tail


class KernelConv(BaseConv):
    """A convolution with one ``kernel`` (plain and transposed): its initializer, regularizer
    and constraint beside the shared arguments."""

    def __init__(self, filters, kernel_size, strides, padding, data_format, dilation_rate,
                 activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 name=None, **kwargs):
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate,
                         activation, use_bias, bias_initializer, bias_regularizer,
                         activity_regularizer, bias_constraint, name, **kwargs)
        no_constraints(type(self).__name__, kernel_constraint=kernel_constraint)
        self.kernel_initializer, self.kernel_regularizer = kernel_initializer, kernel_regularizer

    def _build_kernel(self, input_shape, last_two):
        self._check_input(input_shape)
        self.kernel = self.add_weight(shape=self.kernel_size + last_two,
                                      initializer=self.kernel_initializer, name="kernel",
                                      regularizer=self.kernel_regularizer)
        self.bias = self._add_bias()
        self.built = True
