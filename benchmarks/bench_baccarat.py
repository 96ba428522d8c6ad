"""Baccarat speed (issue 6): simulated punto y banca coups per second — whole 6-deck shoes shuffled with the chunk's
NumPy stream, burned and played to the stop card by the Numba kernel — against a straightforward pure-Python loop
in the same run; and the time of the exact enumerations behind `tapete edge`."""

from __future__ import annotations

import json
import time

from tapete.analysis.baccarat_sim import python_coups, simulate_counts
from tapete.core.rng import simulation_stream


def timed(fn, *args) -> tuple[float, float]:   # noqa: ANN001
    """(wall seconds, CPU seconds of this process): on a shared machine the CPU time is the one-core cost."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn(*args)
    return time.perf_counter() - wall, time.process_time() - cpu


def kernel_rate(coups: int, repeats: int = 3) -> tuple[float, float]:
    simulate_counts(10_000, simulation_stream(0, 0))            # compile (or load the cache) outside the timing
    runs = [timed(simulate_counts, coups, simulation_stream(1, i)) for i in range(repeats)]
    return coups / min(w for w, _ in runs), coups / min(c for _, c in runs)


def python_rate(coups: int) -> tuple[float, float]:
    wall, cpu = timed(python_coups, coups, 1)
    return coups / wall, coups / cpu


def enumeration_seconds(game_id: str, jurisdiction: str = "ES") -> float:
    from tapete.analysis import baccarat
    from tapete.analysis.edges import edges
    from tapete.catalog import get_game

    baccarat.enumerate_coups.cache_clear()
    baccarat.two_tables_enumeration.cache_clear()
    start = time.perf_counter()
    edges(get_game(game_id), jurisdiction)
    return time.perf_counter() - start


def run() -> list[dict]:
    fast_wall, fast_cpu = kernel_rate(30_000_000)
    slow_wall, slow_cpu = python_rate(200_000)
    rows = [{"measure": "punto y banca coups per CPU-second, shuffled 6-deck shoes to the stop card (one core)",
             "tapete": f"{fast_cpu / 1e6:.1f} M", "peer": f"plain Python loop {slow_cpu / 1e3:.0f} k",
             "ratio": f"{fast_cpu / slow_cpu:.0f}x"},
            {"measure": "the same per wall-clock second (shared machine)", "tapete": f"{fast_wall / 1e6:.1f} M",
             "peer": f"plain Python loop {slow_wall / 1e3:.0f} k", "ratio": f"{fast_wall / slow_wall:.0f}x"}]
    enumeration_seconds("baccarat-two-tables")                   # compile the dos paños kernel first
    for game in ("punto-banca", "chemin-de-fer", "baccarat-two-tables"):
        rows.append({"measure": f"exact edges of {game} (full 6-deck composition enumeration)",
                     "tapete": f"{enumeration_seconds(game):.2f} s", "peer": "", "ratio": ""})
    return rows


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
