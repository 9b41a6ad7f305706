"""The Adam family: Adam (with AMSGrad), AdamW (decoupled weight decay), Adamax (infinity norm)
and Nadam (Nesterov momentum).

>>> import tapegrad as tf
>>> w = tf.Variable(1.0)
>>> opt = tf.keras.optimizers.Adam(learning_rate=0.1)
>>> _ = opt.apply_gradients([(tf.constant(2.0), w)])
>>> round(float(w), 5)   # the first step moves by about the learning rate
0.9
"""
from ...backend import xp
from ...kernels import dispatch as kernels
from .base import Optimizer, OptimizerVariable, array, cast, scalar


def _step(optimizer, dtype, ahead=1):
    """``iterations + ahead`` as a number of ``dtype`` (Keras's ``local_step``)."""
    return dtype.type(int(optimizer.iterations.numpy()) + ahead)


class Moments(Optimizer):
    """What the Adam family shares: ``beta_1``, ``beta_2`` and ``epsilon`` (kept and saved in the
    config), and first and second moment slots made by ``build``."""

    SLOTS = ("momentum", "velocity")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 weight_decay=None, name=None, **kwargs):
        super().__init__(learning_rate, weight_decay=weight_decay, name=name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self._momentums, self._velocities = self.add_optimizer_variables(variables,
                                                                         list(self.SLOTS))

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon})
        return config



class Adam(Moments):
    """Adam with the bias corrections folded into the step size, as Keras does:
    ``w -= lr * sqrt(1 - beta_2^t) / (1 - beta_1^t) * m / (sqrt(v) + epsilon)``; with
    ``amsgrad=True`` the largest ``v`` seen so far is used."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False,
                 weight_decay=None, name=None, **kwargs):
        super().__init__(learning_rate, beta_1, beta_2, epsilon, weight_decay, name, **kwargs)
        self.amsgrad = amsgrad

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        if self.amsgrad:
            self._velocity_hats = self.add_optimizer_variables(variables, "velocity_hat")

    def _constants(self, dt, learning_rate):
        """``alpha = lr * sqrt(1 - beta_2^t) / (1 - beta_1^t)``, ``1 - beta_1``, ``1 - beta_2``
        and epsilon in ``dt``."""
        lr = scalar(learning_rate, dt)
        t = _step(self, dt)
        one = dt.type(1)
        b1_power = xp.power(cast(self.beta_1, dt), t)
        b2_power = xp.power(cast(self.beta_2, dt), t)
        alpha = lr * xp.sqrt(one - b2_power) / (one - b1_power)
        return alpha, dt.type(1 - self.beta_1), dt.type(1 - self.beta_2), dt.type(self.epsilon)

    def update_step(self, gradient, variable, learning_rate):
        w = array(variable)
        dt = w.dtype
        alpha, b1c, b2c, eps = self.step_constants(dt, lambda: self._constants(dt, learning_rate))
        m = self._slot(self._momentums, variable)
        v = self._slot(self._velocities, variable)
        if not self.amsgrad and not self.is_sparse(gradient):
            fused = kernels.adam(w, gradient, m, v, 1 - self.beta_1, 1 - self.beta_2,
                                 float(alpha), self.epsilon)
            if fused is not None:  # the same steps in one pass (m and v updated in place)
                variable.assign(fused)
                return
        m += (gradient - m) * b1c
        v += (self.square(gradient) - v) * b2c
        if self.amsgrad:
            v_hat = self._slot(self._velocity_hats, variable)
            xp.maximum(v_hat, v, out=v_hat)
            v = v_hat
        variable.assign(w - alpha * m / (xp.sqrt(v) + eps))

    def get_config(self):
        return {**super().get_config(), "amsgrad": self.amsgrad}


class AdamW(Adam):
    """Adam with decoupled weight decay (``w -= w * weight_decay * lr`` before each step;
    0.004 by default)."""

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, amsgrad=False, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, beta_1=beta_1, beta_2=beta_2,
                         epsilon=epsilon, amsgrad=amsgrad, name=name, weight_decay=weight_decay,
                         **kwargs)
        if self.weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. Received: "
                             "weight_decay=None")


class Adamax(Moments):
    """Adam with the infinity norm: ``u = max(beta_2 * u, |g|)``,
    ``w -= lr * m / ((1 - beta_1^t) * (u + epsilon))``."""

    SLOTS = ("momentum", "norm")

    def update_step(self, gradient, variable, learning_rate):
        w = array(variable)
        dt = w.dtype
        lr = scalar(learning_rate, dt)
        b1_power = xp.power(cast(self.beta_1, dt), _step(self, dt))
        m = self._slot(self._momentums, variable)
        u = self._slot(self._velocities, variable)
        m += (gradient - m) * dt.type(1 - self.beta_1)
        u[...] = xp.maximum(dt.type(self.beta_2) * u, self.absolute(gradient))
        step = (lr * m) / ((dt.type(1) - b1_power) * (u + dt.type(self.epsilon)))
        variable.assign(w - step)



class Nadam(Moments):
    """Adam with Nesterov momentum and Keras's momentum schedule
    ``u_t = beta_1 * (1 - 0.5 * 0.96^t)``."""

    def build(self, variables):
        if self.built:
            return
        dtype = variables[0].dtype if variables else "float32"
        super().build(variables)
        self._u_product = OptimizerVariable(1.0, self.name, "u_product", dtype=dtype)
        self._variables.append(self._u_product)

    def _before_update_steps(self):
        """The running product of the momentum schedule, once per step."""
        u = array(self._u_product)
        dt = u.dtype
        decay = xp.power(xp.float32(0.96), xp.float32(int(self.iterations.numpy()) + 1))
        factor = dt.type(1.0) - dt.type(0.5) * decay.astype(dt)
        self._u_product.assign(u * dt.type(self.beta_1) * factor)

    def update_step(self, gradient, variable, learning_rate):
        w = array(variable)
        dt = w.dtype
        one, half = dt.type(1.0), dt.type(0.5)
        lr = scalar(learning_rate, dt)
        decay = cast(0.96, dt)
        beta_1, beta_2 = cast(self.beta_1, dt), cast(self.beta_2, dt)
        u_t = beta_1 * (one - half * xp.power(decay, _step(self, dt)))
        u_t_1 = beta_1 * (one - half * xp.power(decay, _step(self, dt, 2)))
        u_product_t = array(self._u_product).astype(dt)
        u_product_t_1 = u_product_t * u_t_1
        b2_power = xp.power(beta_2, _step(self, dt))
        m = self._slot(self._momentums, variable)
        v = self._slot(self._velocities, variable)
        m += (gradient - m) * (one - beta_1)
        v += (self.square(gradient) - v) * (one - beta_2)
        m_hat = (u_t_1 * m) / (one - u_product_t_1) + ((one - u_t) * gradient) / (one - u_product_t)
        v_hat = v / (one - b2_power)
        variable.assign(w - (m_hat * lr) / (xp.sqrt(v_hat) + dt.type(self.epsilon)))



class Lamb(Moments):
    """Adam's bias-corrected step scaled per variable by the trust ratio
    ``||w|| / ||step||`` (1 when either norm is 0): layer-wise adaptive moments for large
    batches."""


    def update_step(self, gradient, variable, learning_rate):
        w = array(variable)
        dt = w.dtype
        one = dt.type(1.0)
        lr = scalar(learning_rate, dt)
        t = _step(self, dt)
        b1_power = xp.power(cast(self.beta_1, dt), t)
        b2_power = xp.power(cast(self.beta_2, dt), t)
        m = self._slot(self._momentums, variable)
        v = self._slot(self._velocities, variable)
        m += (gradient - m) * dt.type(1 - self.beta_1)
        v += (self.square(gradient) - v) * dt.type(1 - self.beta_2)
        step = (m / (one - b1_power)) / (xp.sqrt(v / (one - b2_power)) + dt.type(self.epsilon))
        w_norm = xp.sqrt(xp.sum(w * w))
        step_norm = xp.sqrt(xp.sum(step * step))
        ratio = w_norm / step_norm if w_norm > 0 and step_norm > 0 else one
        variable.assign(w - ratio * lr * step)

