"""micrograd (Karpathy's scalar engine, from PyPI): only the cases a scalar engine can express."""
import sys
from importlib import metadata

from micrograd.engine import Value

from ..peer_api import Peer

PEER = Peer("micrograd", version=metadata.version("micrograd"),
            notes="scalars only: W1 on one scalar instead of float32[16]")


@PEER.case("W1")
def tape_overhead(case):
    n = case.params["ops"]
    # Value.backward sorts the graph recursively: a 1,000-op chain needs a deeper stack.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * n + 100))

    def step():
        x = Value(1.0)
        y = x
        for _ in range(n):
            y = y * 1.0001
        y.backward()
        return x.grad
    return step


PEER.not_applicable("W2", "micrograd has no exp or log, so no softmax cross-entropy")
PEER.not_applicable("W3-*", "micrograd works on scalars: a 784→256→10 layer is 200k Python objects")
PEER.not_applicable("W4-*", "micrograd has no arrays")
PEER.not_applicable("W5-*", "micrograd has no arrays (and no tanh of arrays, exp or log)")
PEER.not_applicable("W6-*", "micrograd has no jacobians or higher-order derivatives")
