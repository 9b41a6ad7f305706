"""JAX on CPU, one thread: jax.grad and friends un-jitted (op-by-op, the eager comparison) and the same
functions under jax.jit as a reference. Every step blocks until its result is computed."""
import jax
import jax.numpy as jnp

from .. import data
from ..cases import LEARNING_RATE
from ..peer_api import Peer

jax.config.update("jax_platforms", "cpu")


def _peer(jit: bool) -> Peer:
    peer = Peer("jax-jit" if jit else "jax", version=jax.__version__,
                notes="jax.jit (compiled reference)" if jit else "un-jitted, op by op")
    maybe_jit = jax.jit if jit else (lambda f, **kw: f)

    @peer.case("W1")
    def tape_overhead(case):
        n = case.params["ops"]

        def chain(x):
            y = x
            for _ in range(n):
                y = y * 1.0001
            return jnp.sum(y)
        grad = maybe_jit(jax.grad(chain))
        x = jnp.ones(case.params["size"], jnp.float32)
        return lambda: grad(x).block_until_ready()

    @peer.case("W2", "W3-*")
    def mlp_step(case):
        sizes, batch = case.params["sizes"], case.params["batch"]
        params = [(jnp.asarray(w), jnp.asarray(b)) for w, b in data.mlp_params(sizes)]
        x, labels = (jnp.asarray(a) for a in data.mlp_batch(sizes, batch))

        def loss_fn(params):
            h = x
            for i, (w, b) in enumerate(params):
                h = h @ w + b
                if i < len(params) - 1:
                    h = jax.nn.relu(h)
            logp = jax.nn.log_softmax(h)
            return -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=1))

        def sgd(params):
            loss, grads = jax.value_and_grad(loss_fn)(params)
            return loss, jax.tree_util.tree_map(lambda p, g: p - LEARNING_RATE * g, params, grads)
        update = maybe_jit(sgd)
        state = [params]

        def step():
            loss, state[0] = update(state[0])
            jax.block_until_ready(state[0])
            return loss
        return step

    @peer.case("W4-*")
    def gemm(case):
        p = case.params
        a, b = (jnp.asarray(m) for m in data.gemm_operands(**p))
        product = maybe_jit(lambda a, b: (a.T if p["transpose_a"] else a) @ (b.T if p["transpose_b"] else b))
        return lambda: product(a, b).block_until_ready()

    @peer.case("W5-tanh")
    def tanh_chain(case):
        x, w, b = (jnp.asarray(a) for a in data.tanh_chain(case.params["size"]))
        f = maybe_jit(jax.value_and_grad(lambda x, w, b: jnp.sum(jnp.tanh(x * w + b)), argnums=(0, 1, 2)))

        def step():
            loss, grads = f(x, w, b)
            jax.block_until_ready(grads)
            return loss
        return step

    @peer.case("W5-softmax")
    def softmax_ce(case):
        logits_np, labels_np = data.softmax_logits(case.params["shape"])
        logits, labels = jnp.asarray(logits_np), jnp.asarray(labels_np)

        def loss_fn(logits):
            logp = jax.nn.log_softmax(logits)
            return -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=1))
        grad = maybe_jit(jax.grad(loss_fn))
        return lambda: grad(logits).block_until_ready()

    @peer.case("W6-jacobian")
    def jacobian(case):
        w, b, x = (jnp.asarray(a) for a in data.jacobian_layer(case.params["width"]))
        jac = maybe_jit(jax.jacrev(lambda x: jnp.tanh(w @ x + b)))
        return lambda: jac(x).block_until_ready()

    @peer.case("W6-hvp")
    def hessian_vector_product(case):
        a, x, v = (jnp.asarray(m) for m in data.hvp_problem(case.params["params"], case.params["rows"]))
        f = lambda x: jnp.sum(jnp.tanh(a @ x))
        hvp = maybe_jit(lambda x, v: jax.jvp(jax.grad(f), (x,), (v,))[1])   # forward-over-reverse
        return lambda: hvp(x, v).block_until_ready()

    @peer.case("W6-d3")
    def third_derivative(case):
        d3 = maybe_jit(jax.grad(jax.grad(jax.grad(lambda x: x ** 3 * jnp.sin(x)))))
        x = jnp.float32(case.params["x"])
        return lambda: d3(x).block_until_ready()

    return peer


PEER = _peer(jit=False)
PEER_JIT = _peer(jit=True)
