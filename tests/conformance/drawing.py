"""Drawing generated cases for the recorded suites (tests/property, tests/fuzz): ``distinct``
collects up to ``n`` examples of a Hypothesis strategy, the same list for the same seed and
Hypothesis version, duplicates dropped."""
import json

from hypothesis import HealthCheck, Phase, given, seed, settings


def distinct(strategy, n, seed_value, out=None, seen=None):
    """``out`` extended with up to ``n`` new examples of ``strategy`` (``seen``: their JSON)."""
    out = [] if out is None else out
    seen = set() if seen is None else seen

    @seed(seed_value)
    @settings(max_examples=n, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck), derandomize=False)
    @given(strategy)
    def collect(example):
        key = json.dumps(example, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(example)

    collect()
    return out
