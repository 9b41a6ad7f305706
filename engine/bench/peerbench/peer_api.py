"""How a peer module declares its cases.

    PEER = Peer("torch", version=torch.__version__)

    @PEER.case("W2", "W3-b64", "W3-b256")
    def mlp_step(case):            # called once per case: builds inputs, returns the step
        ...
        def step():                # one repetition; returns a float (a loss, a sum) as a check
            ...
        return step

    PEER.not_applicable("W5-softmax", "why it does not fit this peer")

A case id ending in "*" covers every case of that prefix ("W4-*") except the traced-step rows
(ids ending in "-fn", such as "W3-b64-fn"), which a peer names outright.
"""
from __future__ import annotations

TRACED = "-fn"      # the suffix of the rows whose step runs under @tf.function (cases.py)


class Peer:
    def __init__(self, name: str, version: str = "", notes: str = ""):
        self.name = name
        self.version = version
        self.notes = notes
        self._builders: list[tuple[str, object]] = []
        self._not_applicable: list[tuple[str, str]] = []

    def case(self, *patterns: str):
        def register(builder):
            for p in patterns:
                self._builders.append((p, builder))
            return builder
        return register

    def not_applicable(self, pattern: str, reason: str) -> None:
        self._not_applicable.append((pattern, reason))

    @staticmethod
    def _matches(pattern: str, case_id: str) -> bool:
        if pattern.endswith("*"):
            return case_id.startswith(pattern[:-1]) and not case_id.endswith(TRACED)
        return case_id == pattern

    def builder_for(self, case_id: str):
        for pattern, builder in self._builders:
            if self._matches(pattern, case_id):
                return builder
        return None

    def why_not(self, case_id: str) -> str:
        for pattern, reason in self._not_applicable:
            if self._matches(pattern, case_id):
                return reason
        return f"{self.name} has no {case_id} case"
