"""Issue 33, point 7: the roulette bench's memory row is the simulation's own peak, measured in a process of its
own, not the bench process's (Linux carries ru_maxrss over exec from the parent's address space: the row read
1,598 MiB, the bench's speed runs, for a simulation that peaks near 100 MiB)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_simulation_memory_row_does_not_count_the_parent_process() -> None:
    spec = importlib.util.spec_from_file_location("bench_roulette_mem", ROOT / "benchmarks" / "bench_roulette.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    ballast = b"\x01" * (400 << 20)            # the parent holds 400 MiB, resident (written), while the child runs
    peak, _seconds = bench.resident_memory(10_000)
    assert len(ballast) == 400 << 20
    assert 20 < peak < 350, peak
