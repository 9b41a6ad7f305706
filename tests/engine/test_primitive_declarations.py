"""Every primitive in the table is declared with every rule it needs, in one place: its
implementation, its reverse rule (or ``nondiff``), its forward rule, its batched rule, its dtype
rule and its shape rule. A rule kind a primitive has none of on purpose is listed in its own
``exempt`` mapping, with a one-line reason (``primitive(..., exempt=...)`` or ``exempt(P, ...)``).
"""
import pytest

import tapegrad  # noqa: F401  (every op module joins the table)
import tapegrad.keras  # noqa: F401  (its primitives join the table too)
from tapegrad import batching
from tapegrad.checks import registry
from tapegrad.checks.dtype_rules import FLOAT
from tapegrad.table import TABLE, primitive

KINDS = ("impl", "vjp", "jvp", "batched", "dtypes", "shape")


def _has(prim, kind):
    if kind == "vjp":
        return prim.vjp is not None or prim.nondiff
    if kind == "batched":
        return batching.rule_of(prim) is not None
    return getattr(prim, kind) is not None


def _lacking(kind):
    return sorted(name for name, prim in TABLE.items()
                  if not _has(prim, kind) and kind not in prim.exempt)


@pytest.mark.parametrize("kind", KINDS)
def test_every_primitive_declares_each_rule_or_says_why_not(kind):
    missing = _lacking(kind)
    assert not missing, f"primitives with no {kind} rule and no exempt reason: {missing}"


def test_exemptions_are_one_line_reasons_for_known_kinds():
    for name, prim in TABLE.items():
        for kind, reason in prim.exempt.items():
            assert kind in KINDS, (name, kind)
            assert isinstance(reason, str) and reason.strip() and "\n" not in reason, (name, kind)


def test_an_exemption_is_not_kept_for_a_rule_that_exists():
    stale = sorted((name, kind) for name, prim in TABLE.items() for kind in prim.exempt
                   if _has(prim, kind))
    assert not stale, f"exempt although the rule is declared: {stale}"


def test_a_primitive_with_no_dtype_rule_and_no_reason_is_reported():
    try:
        primitive("DocNoDtypes", lambda x: x)
        primitive("DocFloatDtypes", lambda x: x, dtypes=FLOAT)
        primitive("DocExemptDtypes", lambda x: x, exempt={"dtypes": "a test's reason"})
        lacking = _lacking("dtypes")
        assert "DocNoDtypes" in lacking
        assert "DocFloatDtypes" not in lacking and "DocExemptDtypes" not in lacking
    finally:
        for name in ("DocNoDtypes", "DocFloatDtypes", "DocExemptDtypes"):
            TABLE.pop(name, None)
            registry.ADOPTED.pop(name, None)
