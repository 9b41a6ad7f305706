"""The workloads, defined once for every peer: id, sizes, unit and how seconds become the figure.

A peer's step function runs one repetition of a case; ``Case.figure`` turns the median seconds of a
step into the unit shown in the table (µs per op, ms per step, GFLOP/s).
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Case:
    id: str            # e.g. "W3-b64"; the group is what comes before the first "-"
    title: str         # one line for the table
    unit: str          # "us/op", "ms/step", "ms" or "GFLOP/s"
    params: dict = field(default_factory=dict)
    ops_per_step: int = 1          # for us/op: how many ops one step records
    flops: int = 0                 # for GFLOP/s: floating-point operations per step

    @property
    def group(self) -> str:
        return self.id.split("-")[0]

    @property
    def higher_is_better(self) -> bool:
        return self.unit == "GFLOP/s"

    def figure(self, seconds: float) -> float:
        """The table's number for one step that took ``seconds``."""
        if self.unit == "us/op":
            return seconds * 1e6 / self.ops_per_step
        if self.unit in ("ms/step", "ms"):
            return seconds * 1e3
        if self.unit == "s":
            return seconds
        if self.unit == "GFLOP/s":
            return self.flops / seconds / 1e9
        raise ValueError(f"unknown unit {self.unit!r} for case {self.id}")


W1_OPS = 1000
MLP_W2 = (2, 16, 16, 2)
MLP_W3 = (784, 256, 10)
LEARNING_RATE = 0.01
GEMM_SIZES = (64, 128, 256, 512, 1024)
W5_ELEMENTS = 1 << 20
W5_CE_SHAPE = (256, 1000)
W6_JACOBIAN_WIDTH = 64
W6_HVP_PARAMS = 1000
W6_HVP_ROWS = 64
# Conv2D 16 (3×3, ReLU) → 2×2 max pool → Conv2D 32 (3×3, ReLU) → 2×2 max pool → Dense 10, VALID
# padding as Keras's defaults: 28 → 26 → 13 → 11 → 5, so the dense layer takes 5·5·32 = 800.
CNN_IMAGE = (28, 28, 1)
CNN_FILTERS = (16, 32)
CNN_CLASSES = 10
CNN_BATCH = 64


def _gemm(name: str, m: int, k: int, n: int, transpose_a=False, transpose_b=False, title=None):
    return Case(f"W4-{name}", title or f"sgemm {m}x{k} @ {k}x{n}", "GFLOP/s",
                dict(m=m, k=k, n=n, transpose_a=transpose_a, transpose_b=transpose_b),
                flops=2 * m * k * n)


def _w3_products(batch: int):
    """The five matrix products of one W3 step (784→256→10) at this batch size."""
    d_in, d_hid, d_out = MLP_W3
    return [
        _gemm(f"x@W1-b{batch}", batch, d_in, d_hid, title=f"W3 fwd x@W1 ({batch}x{d_in} @ {d_in}x{d_hid})"),
        _gemm(f"h@W2-b{batch}", batch, d_hid, d_out, title=f"W3 fwd h@W2 ({batch}x{d_hid} @ {d_hid}x{d_out})"),
        _gemm(f"dz@W2T-b{batch}", batch, d_out, d_hid, transpose_b=True,
              title=f"W3 bwd dz2@W2ᵀ ({batch}x{d_out} @ {d_out}x{d_hid})"),
        _gemm(f"hT@dz-b{batch}", d_hid, batch, d_out, transpose_a=True,
              title=f"W3 bwd hᵀ@dz2 ({d_hid}x{batch} @ {batch}x{d_out})"),
        _gemm(f"xT@dz-b{batch}", d_in, batch, d_hid, transpose_a=True,
              title=f"W3 bwd xᵀ@dz1 ({d_in}x{batch} @ {batch}x{d_hid})"),
    ]


CASES: list[Case] = [
    Case("W1", f"tape overhead: {W1_OPS:,} × y*1.0001 on float32[16], grad of sum (fwd+bwd)",
         "us/op", dict(ops=W1_OPS, size=16), ops_per_step=W1_OPS),
    Case("W2", "MLP 2→16→16→2 ReLU, softmax CE, batch 32, SGD step", "ms/step",
         dict(sizes=MLP_W2, batch=32)),
    Case("W3-b64", "MLP 784→256→10, batch 64, fwd+bwd+SGD", "ms/step", dict(sizes=MLP_W3, batch=64)),
    Case("W3-b256", "MLP 784→256→10, batch 256, fwd+bwd+SGD", "ms/step", dict(sizes=MLP_W3, batch=256)),
    # The W2 and W3-b64 steps traced whole (forward, tape.gradient, SGD) with @tf.function by the
    # peers that have it (tapegrad, TensorFlow); PyTorch, TF.js and NumPy run their own W2/W3 step,
    # as the rows compare a traced step with PyTorch's eager one (issue 29, item 5).
    Case("W2-fn", "W2's step under @tf.function (PyTorch, TF.js: eager)", "ms/step",
         dict(sizes=MLP_W2, batch=32)),
    Case("W3-b64-fn", "W3-b64's step under @tf.function (PyTorch, TF.js: eager)", "ms/step",
         dict(sizes=MLP_W3, batch=64)),
    *[_gemm(f"n{n}", n, n, n, title=f"sgemm n={n}") for n in GEMM_SIZES],
    *_w3_products(64),
    Case("W5-tanh", f"sum(tanh(x*w+b)) on {W5_ELEMENTS:,} float32, grads of x, w, b", "ms",
         dict(size=W5_ELEMENTS)),
    Case("W5-softmax", f"softmax CE {W5_CE_SHAPE[0]}x{W5_CE_SHAPE[1]}, fwd+bwd", "ms",
         dict(shape=W5_CE_SHAPE)),
    Case("W6-jacobian", f"jacobian of tanh(W x + b), {W6_JACOBIAN_WIDTH}→{W6_JACOBIAN_WIDTH}", "ms",
         dict(width=W6_JACOBIAN_WIDTH)),
    Case("W6-hvp", f"Hessian-vector product, f(x)=sum(tanh(A x)), {W6_HVP_PARAMS:,} parameters", "ms",
         dict(params=W6_HVP_PARAMS, rows=W6_HVP_ROWS)),
    Case("W6-d3", "third derivative of x³·sin(x) through nested tapes (scalar)", "ms", dict(x=0.7)),
    Case("CNN-step", f"CNN 28×28 conv{CNN_FILTERS[0]}→pool→conv{CNN_FILTERS[1]}→pool→dense{CNN_CLASSES}, "
         f"batch {CNN_BATCH}, fwd+bwd+SGD", "ms/step",
         dict(image=CNN_IMAGE, filters=CNN_FILTERS, classes=CNN_CLASSES, batch=CNN_BATCH)),
]

# Measured by the browser harness only, in seconds from navigation: for tapegrad on the playground
# page itself (tests/browser/bench_boot.py: the default example's gradient shown in the console,
# Run pressed as soon as it is enabled; Ready = Python booted), for TF.js on its boot page.
FIRST_GRADIENT_CASES: list[Case] = [
    Case("TTFG-cold", "time to first gradient, cold (new browser profile)", "s"),
    Case("TTFG-warm", "time to first gradient, warm (page opened again)", "s"),
    Case("TTFG-ready-cold", "playground Ready, cold (new browser profile)", "s"),
    Case("TTFG-ready-warm", "playground Ready, warm (page opened again)", "s"),
    Case("TTFG-editor-cold", "playground editor takes typing, cold (new browser profile)", "s"),
    Case("TTFG-editor-warm", "playground editor takes typing, warm (page opened again)", "s"),
    # the same page through Chromium's network emulation (bench_boot.py --network)
    Case("TTFG-10mbit-cold", "time to first gradient at 10 Mbit/s (40 ms), cold", "s"),
    Case("TTFG-10mbit-warm", "time to first gradient at 10 Mbit/s (40 ms), warm", "s"),
    Case("TTFG-phone-cold", "time to first gradient, phone-like (20 Mbit/s, main thread 4x slower), cold", "s"),
    Case("TTFG-phone-warm", "time to first gradient, phone-like (20 Mbit/s, main thread 4x slower), warm", "s"),
]
CASES += FIRST_GRADIENT_CASES

BY_ID = {c.id: c for c in CASES}
GROUPS = sorted({c.group for c in CASES})
NATIVE_GROUPS = ("W1", "W2", "W3", "W4", "W5", "W6", "CNN")
BROWSER_GROUPS = ("W2", "W3", "W4", "CNN", "TTFG")


def select(only: str | None = None, groups=None) -> list[Case]:
    """Cases whose id or group is in the comma list ``only`` (all when empty), restricted to ``groups``."""
    wanted = [w.strip() for w in (only or "").split(",") if w.strip()]
    unknown = [w for w in wanted if w not in BY_ID and w not in GROUPS]
    if unknown:
        raise ValueError(f"unknown workload(s) {', '.join(unknown)}; choose from "
                         f"{', '.join(GROUPS)} or a case id: {', '.join(BY_ID)}")
    chosen = [c for c in CASES if not wanted or c.id in wanted or c.group in wanted]
    if groups is not None:
        chosen = [c for c in chosen if c.group in groups]
    return chosen
