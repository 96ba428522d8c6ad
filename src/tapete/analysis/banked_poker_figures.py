"""Stored simulation figures for `tapete edge` (written by `benchmarks/bench_banked_poker.py --write`).

The ante of póquer sin descarte and Pai Gow's bets have no exact analysis that runs in minutes; the benchmark
simulates at least 10^8 rounds and stores the outcome counts here, with the seed and the sample size, so that
`tapete edge` answers in seconds. Each count vector is what `tapete.analysis.banked_poker` documents.
"""

from __future__ import annotations

from typing import Any

FIGURES: dict[str, dict[str, Any]] = {
    "poker-sin-descarte": {"rounds": 100000000, "seed": 20240601, "chunk": 1000000,
        "counts": [47715805, 22766879, 1645, 13704352, 94436, 11665271, 2448720, 1174597, 220420, 109703, 83155, 14167, 779, 71],
        "pcats": [50124356, 42251811, 4754153, 2111123, 393142, 195956, 143913, 24035, 1377, 134]},
    "pai-gow": {"rounds": 100000000, "seed": 20240601, "chunk": 1000000, "counts": [28614112, 41434362, 29951526]},
}
