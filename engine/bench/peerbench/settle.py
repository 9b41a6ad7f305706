"""Waiting for a just-launched browser to settle before a first-load timing.

A new headless Chromium spends its first seconds on its own start-up work (building its WebUI
renderers; seen in a trace as 1.5 s of main-thread work) on the same two cores a page's boot needs.
A visitor's browser is running already when they open a page, so the boot timings (tapegrad's
playground and TF.js's boot page alike) start once the browser is idle.
"""
import os
import time
from pathlib import Path


def _descendants_cpu_s() -> float:
    """CPU seconds used so far by this process's descendants (the browser and its helpers)."""
    parent, ticks = {}, {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parent[int(d.name)] = int(fields[1])
            ticks[int(d.name)] = int(fields[11]) + int(fields[12])
    me, total = os.getpid(), 0
    for pid in ticks:
        p = pid
        while p in parent and p not in (0, 1, me):
            p = parent[p]
        if p == me and pid != me:
            total += ticks[pid]
    return total / os.sysconf("SC_CLK_TCK")


def wait_until_browser_idle(limit_s: float = 15.0) -> float:
    """Waits until a just-launched browser has finished its own start-up work (a new Chromium
    builds its WebUI renderers and more for a few seconds, on the same two cores the page needs):
    the visitor's browser is running already when they open the page. Idle: under 5% of one core
    over half a second. Returns the seconds waited."""
    start = time.monotonic()
    last = _descendants_cpu_s()
    while time.monotonic() - start < limit_s:
        time.sleep(0.5)
        now = _descendants_cpu_s()
        if now - last < 0.025:
            break
        last = now
    return time.monotonic() - start
