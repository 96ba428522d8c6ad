"""Banked poker: the exact analyses' running time, and the big simulations behind `tapete edge`.

    python benchmarks/bench_banked_poker.py                 # 10^8 rounds of each simulated game, 2 workers
    python benchmarks/bench_banked_poker.py --rounds 1e6    # a quick look
    python benchmarks/bench_banked_poker.py --write         # also store the counts in
                                                            # src/tapete/analysis/banked_poker_figures.py

Each simulated game runs in chunks of 10^6 rounds; chunk i always draws from `simulation_stream(seed, i)`, so a
figure depends on the seed and the chunk size, never on the number of workers. `run()` (for benchmarks/run.py)
does the same with the sample size given by TAPETE_BANKED_POKER_ROUNDS (default 10^8).
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

SEED = 20240601
CHUNK = 1_000_000
FIGURES = Path(__file__).parents[1] / "src" / "tapete" / "analysis" / "banked_poker_figures.py"


def _chunk(args: tuple[str, int, int]) -> list[int]:
    from tapete.analysis.banked_poker import simulate_pai_gow, simulate_sin_descarte
    from tapete.core.rng import simulation_stream

    game, size, index = args
    gen = simulation_stream(SEED, index)
    if game == "poker-sin-descarte":
        counts, pcats = simulate_sin_descarte(size, gen)
        return [*map(int, counts), *map(int, pcats)]
    return [*map(int, simulate_pai_gow(size, gen))]


def simulate(game: str, rounds: int, workers: int = 2) -> tuple[list[int], float]:
    sizes = [min(CHUNK, rounds - i) for i in range(0, rounds, CHUNK)]
    jobs = [(game, size, i) for i, size in enumerate(sizes)]
    _chunk((game, 1000, 10**9))                      # compile (or load) the kernels before timing
    start = time.perf_counter()
    total: np.ndarray | None = None
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(_chunk, jobs))
    else:
        parts = [_chunk(job) for job in jobs]
    for part in parts:
        total = np.array(part, dtype=np.int64) if total is None else total + np.array(part, dtype=np.int64)
    assert total is not None
    return [int(x) for x in total], time.perf_counter() - start


def edge_row(game: str, counts: list[int], seconds: float, rounds: int, workers: int) -> dict[str, Any]:
    from tapete.analysis.banked_poker import mean_and_interval, pg_histogram, sd_histogram

    hist = sd_histogram(counts[:14]) if game == "poker-sin-descarte" else pg_histogram(counts, Fraction(5, 100))
    mean, half, n = mean_and_interval(hist)
    return {"what": f"{game} simulation ({'ante, strategy' if game == 'poker-sin-descarte' else 'main, house way, 5%'})",
            "rounds": f"{n:,}", "workers": workers, "seconds": round(seconds, 1),
            "rounds/s": f"{rounds / seconds:,.0f}", "house edge %": f"{100 * (1 - mean):.4f}",
            "99% interval %": f"[{100 * (1 - mean - half):.4f}, {100 * (1 - mean + half):.4f}]"}


def exact_rows() -> list[dict[str, Any]]:
    from tapete.analysis import banked_poker as bp

    rows = []
    for what, fn in (("trijoker exact (51,979,200 deals)", lambda: bp.trijoker_exact.__wrapped__(True)),
                     ("tripoker exact (22,100 x 18,424 hands)", lambda: bp.tripoker_exact.__wrapped__())):
        fn()                                         # compile
        start = time.perf_counter()
        res = fn()
        seconds = time.perf_counter() - start
        edge = res.get("edge", res.get("ante"))
        rows.append({"what": what, "seconds": round(seconds, 2), "house edge %": f"{100 * float(edge):.4f}",
                     "exact": f"{edge.numerator}/{edge.denominator}"})
    return rows


def write_figures(results: dict[str, tuple[list[int], int]]) -> None:
    lines = [
        '"""Stored simulation figures for `tapete edge` (written by `benchmarks/bench_banked_poker.py --write`).',
        "",
        "The ante of póquer sin descarte and Pai Gow's bets have no exact analysis that runs in minutes; the benchmark",
        "simulates at least 10^8 rounds and stores the outcome counts here, with the seed and the sample size, so that",
        "`tapete edge` answers in seconds. Each count vector is what `tapete.analysis.banked_poker` documents.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Any",
        "",
        "FIGURES: dict[str, dict[str, Any]] = {",
    ]
    for game, (counts, rounds) in results.items():
        if game == "poker-sin-descarte":
            lines.append(f'    "{game}": {{"rounds": {rounds}, "seed": {SEED}, "chunk": {CHUNK},')
            lines.append(f'        "counts": {counts[:14]},')
            lines.append(f'        "pcats": {counts[14:]}}},')
        else:
            lines.append(f'    "{game}": {{"rounds": {rounds}, "seed": {SEED}, "chunk": {CHUNK}, "counts": {counts}}},')
    lines.append("}")
    FIGURES.write_text("\n".join(lines) + "\n", encoding="utf-8")


def run(rounds: int | None = None, workers: int = 2, write: bool = False) -> list[dict[str, Any]]:
    rounds = rounds or int(float(os.environ.get("TAPETE_BANKED_POKER_ROUNDS", "1e8")))
    rows = exact_rows()
    results = {}
    for game in ("poker-sin-descarte", "pai-gow"):
        counts, seconds = simulate(game, rounds, workers)
        results[game] = (counts, rounds)
        rows.append(edge_row(game, counts, seconds, rounds, workers))
    if write:
        write_figures(results)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=float, default=1e8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--write", action="store_true", help="store the counts for `tapete edge`")
    args = parser.parse_args()
    for row in run(int(args.rounds), args.workers, args.write):
        print(row, flush=True)


if __name__ == "__main__":
    main()
