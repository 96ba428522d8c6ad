"""Seven-card hand evaluations per second on one core: tapete's batch evaluator against the Python peers.

    python benchmarks/bench_poker_eval.py [--seconds 2]

Every evaluator ranks the same seeded random 7-card hands, each converted beforehand to its own card objects
(the conversion is not timed). tapete is timed through `rank7_batch` (one call for the whole array); the peers
have no batch API, so they are timed one call per hand through their fastest public path: phevaluator's C
function `evaluate_7cards`, `eval7.evaluate`, treys' `Evaluator.evaluate`, pokerkit's
`StandardHighHand.from_game`. Each peer gets a sample sized to run about `seconds`; a peer that is not
installed is skipped. Numba is held to one thread. `run()` returns the rows for `benchmarks/run.py`.
"""

from __future__ import annotations

import os

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import argparse  # noqa: E402
import importlib  # noqa: E402
import importlib.metadata  # noqa: E402
import itertools  # noqa: E402
import platform  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

import numpy as np  # noqa: E402

RANKS = "23456789TJQKA"
SUITS_LOWER = "shdc"
MAX_HANDS = 5_000_000


def random_hands(n: int, seed: int = 2024) -> np.ndarray:
    """n seeded 7-card hands of distinct cards (uint8 card indices, rank * 4 + suit)."""
    rng = np.random.default_rng(seed)
    out = np.empty((0, 7), dtype=np.uint8)
    while len(out) < n:
        draw = rng.integers(0, 52, size=(int((n - len(out)) * 1.7) + 16, 7), dtype=np.uint8)
        out = np.concatenate([out, draw[(np.diff(np.sort(draw, axis=1), axis=1) != 0).all(axis=1)]])
    return out[:n]


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


# Each entry: (name, distribution, API timed, builder). A builder takes the hands and returns the thunk to
# time; it raises ImportError when the library is missing.


def _tapete(hands: np.ndarray) -> Callable[[], object]:
    from tapete.games.poker.evaluator import rank7_batch

    rank7_batch(hands[:16])  # build the tables, compile or load the kernel
    return lambda: rank7_batch(hands)


def _tapete_numpy(hands: np.ndarray) -> Callable[[], object]:
    from tapete.games.poker.evaluator import STANDARD
    from tapete.games.poker.tables import evaluate

    return lambda: evaluate(hands, STANDARD, use_numba=False)


def _tapete_scalar(hands: np.ndarray) -> Callable[[], object]:
    from tapete.games.poker.evaluator import best5

    rows = hands.tolist()
    return lambda: [best5(r) for r in rows]


def _phevaluator(hands: np.ndarray) -> Callable[[], object]:
    pheval = importlib.import_module("phevaluator._pheval")
    fn = pheval.evaluate_7cards  # its ids are rank * 4 + suit as well
    rows = [tuple(r) for r in hands.tolist()]
    return lambda: list(itertools.starmap(fn, rows))


def _eval7(hands: np.ndarray) -> Callable[[], object]:
    import eval7

    deck = [eval7.Card(r + s) for r in RANKS for s in SUITS_LOWER]
    rows = [[deck[c] for c in r] for r in hands.tolist()]
    return lambda: list(map(eval7.evaluate, rows))


def _treys(hands: np.ndarray) -> Callable[[], object]:
    import treys

    deck = [treys.Card.new(r + s) for r in RANKS for s in SUITS_LOWER]
    ev = treys.Evaluator()
    rows = [[deck[c] for c in r] for r in hands.tolist()]
    return lambda: [ev.evaluate(r[:2], r[2:]) for r in rows]


def _pokerkit(hands: np.ndarray) -> Callable[[], object]:
    from pokerkit import Card, StandardHighHand

    deck = [next(iter(Card.parse(r + s))) for r in RANKS for s in SUITS_LOWER]
    rows = [[deck[c] for c in r] for r in hands.tolist()]
    return lambda: [StandardHighHand.from_game(r) for r in rows]


PEERS: list[tuple[str, str, str, Callable[[np.ndarray], Callable[[], object]]]] = [
    ("tapete", "tapete", "rank7_batch (Numba, 1 thread)", _tapete),
    ("tapete (NumPy fallback)", "tapete", "tables.evaluate(use_numba=False)", _tapete_numpy),
    ("tapete (scalar)", "tapete", "best5, one call per hand", _tapete_scalar),
    ("phevaluator", "phevaluator", "_pheval.evaluate_7cards, one call per hand", _phevaluator),
    ("eval7", "eval7", "eval7.evaluate, one call per hand", _eval7),
    ("treys", "treys", "Evaluator.evaluate, one call per hand", _treys),
    ("pokerkit", "pokerkit", "StandardHighHand.from_game, one call per hand", _pokerkit),
]


Builder = Callable[[np.ndarray], Callable[[], object]]


def _measure(build: Builder, hands: np.ndarray, seconds: float) -> tuple[int, float]:
    """(hands timed, best wall time): calibrate on a small slice, then time one that runs about `seconds`."""
    n = 1000
    while True:
        thunk = build(hands[:n])
        start = time.perf_counter()
        thunk()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds / 20 or n >= len(hands):
            break
        n = min(len(hands), n * 10)
    target = min(len(hands), max(n, int(n * seconds / max(elapsed, 1e-9))))
    thunk = build(hands[:target])
    best = float("inf")
    spent = 0.0
    for _ in range(5):
        start = time.perf_counter()
        thunk()
        elapsed = time.perf_counter() - start
        best, spent = min(best, elapsed), spent + elapsed
        if spent >= seconds:
            break
    return target, best


def run(seconds: float = 2.0, max_hands: int = MAX_HANDS) -> list[dict[str, object]]:
    """One row per evaluator: evaluations per second and how many times faster tapete's batch API is."""
    hands = random_hands(max_hands)
    rows: list[dict[str, object]] = []
    for name, dist, api, build in PEERS:
        try:
            n, elapsed = _measure(build, hands, seconds)
        except ImportError:
            rows.append({"evaluator": name, "version": None, "api": api, "skipped": "not installed"})
            continue
        rows.append({"evaluator": name, "version": _version(dist), "api": api, "hands": n,
                     "seconds": round(elapsed, 4), "per_second": n / elapsed})
    ours = next((r["per_second"] for r in rows if r["evaluator"] == "tapete" and "per_second" in r), None)
    for r in rows:
        if ours and "per_second" in r:
            r["tapete_ratio"] = float(ours) / float(r["per_second"])  # type: ignore[arg-type]
    return rows


def markdown(rows: list[dict[str, object]]) -> str:
    lines = ["| evaluator | version | API timed | hands | 7-card evals/s | tapete batch ÷ this |",
             "|---|---|---|---:|---:|---:|"]
    for r in rows:
        if "skipped" in r:
            lines.append(f"| {r['evaluator']} | — | {r['api']} | — | skipped: {r['skipped']} | — |")
            continue
        rate, ratio = float(r["per_second"]), float(r.get("tapete_ratio", 0))  # type: ignore[arg-type]
        name, version, api, hands = r["evaluator"], r["version"], r["api"], r["hands"]
        lines.append(f"| {name} | {version} | {api} | {hands:,} | {rate:,.0f} | {ratio:.1f}× |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time budget per evaluator (default 2)")
    args = parser.parse_args()
    rows = run(args.seconds)
    print(f"7-card evaluations per second, one core ({platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}, NUMBA_NUM_THREADS={os.environ['NUMBA_NUM_THREADS']})\n")
    print(markdown(rows))


if __name__ == "__main__":
    main()
