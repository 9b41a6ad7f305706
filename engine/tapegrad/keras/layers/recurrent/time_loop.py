"""The time loop of ``RNN`` and of the recurrent layers: steps in order (or backwards), a
masked step keeping the states and repeating the previous output (zeros with
``zero_output_for_mask``), then the sequence or the last output, and the states."""
from .... import nest
from ....errors import InvalidArgumentError
from ....ops import cast, expand_dims, stack, unstack, where, zeros_like
from ..base import to_tensor
from ..core.masking import attach_mask


def steps_of(x, mask, go_backwards):
    """The time steps of ``x`` (batch, time, ...) and each step's mask (None unmasked); a
    sequence of no steps is TensorFlow's InvalidArgumentError (Keras slices its first step)."""
    if int(x.shape[1]) == 0:
        raise InvalidArgumentError(f"slice index 0 of dimension 1 out of bounds: the sequences "
                                   f"(shape {tuple(x.shape)}, dtype {x.dtype.name}) have no "
                                   f"time steps [Op:StridedSlice]")
    steps = unstack(x, axis=1)
    keeps = [None] * len(steps) if mask is None else \
        unstack(expand_dims(cast(to_tensor(mask), "bool"), -1), axis=1)
    if go_backwards:
        steps, keeps = steps[::-1], keeps[::-1]
    return steps, keeps


def run(step, steps, keeps, states, zero_output_for_mask=False):
    """``step(x_t, states) -> (output, new_states)`` over the steps; the outputs and the last
    states (in the structure ``states`` started with)."""
    outputs, previous = [], None
    for x_t, keep in zip(steps, keeps):
        out, new_states = step(x_t, states)
        if keep is not None:  # a masked step keeps the states, repeats the last output
            if previous is None or zero_output_for_mask:
                previous = zeros_like(out)
            new_states = nest.pack_sequence_as(states, [
                where(keep, n, o) for n, o in zip(nest.flatten(new_states),
                                                  nest.flatten(states))])
            out = where(keep, out, previous)
        states, previous = new_states, out
        outputs.append(out)
    return outputs, states


def result_of(layer, outputs, states, mask):
    """The sequence (``return_sequences``, masked as its input) or the last output, then the
    states (``return_state``)."""
    result = stack(outputs, axis=1) if layer.return_sequences else outputs[-1]
    if layer.return_sequences and mask is not None:
        attach_mask(result, mask)  # the next layer sees the same steps masked
    if layer.return_state:
        return (result,) + tuple(states)
    return result
