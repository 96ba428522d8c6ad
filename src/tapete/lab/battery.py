"""The RNG and shuffle certification battery (`tapete rng test`, docs/lab.md): goodness-of-fit and independence
tests of the table generator's real output path, with stated p-values, sample sizes and the Holm correction.

Each test gives a statistic, its reference distribution and a two-sided (normal) or upper-tail (chi-square) p-value.
The family of tests is judged at α = 0.01 family-wise with Holm's step-down correction: sorted p-values p(1) ≤ ... ≤
p(m) are adjusted to max_{j≤i} min(1, (m - j + 1) p(j)) and a test fails when its adjusted p-value is below α. A
generator without flaws fails the battery with probability at most α.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from tapete.lab.rng_sources import Source

ALPHA = 0.01
BASE_DRAWS = 37_000          # roulette spins at scale 1: 1,000 expected per number


@dataclass(frozen=True)
class Sizes:
    """The sample sizes at a scale (1 = the documented full run, 37,000 roulette spins)."""
    roulette: int
    dice: int
    decks: int
    shoes6: int
    shoes8: int
    cuts: int
    words: int

    @classmethod
    def for_draws(cls, draws: int) -> Sizes:
        if draws < BASE_DRAWS // 10:
            raise ValueError(f"--draws {draws}: at least {BASE_DRAWS // 10} (below it some chi-square cells would "
                             "expect fewer than 5 counts)")
        s = draws / BASE_DRAWS
        return cls(roulette=draws, dice=round(36_000 * s), decks=round(5_200 * s), shoes6=round(1_040 * s),
                   shoes8=round(1_040 * s), cuts=round(1_350 * s), words=round(1_000_000 * s))


@dataclass
class TestResult:
    name: str
    what: str
    statistic: float
    distribution: str            # e.g. "chi2(36)" or "N(0,1)"
    p: float
    n: int                       # the sample: draws, shuffles, words
    p_holm: float = 1.0
    passed: bool = True
    histogram: dict[str, Any] = field(default_factory=dict)   # for the HTML page: {"labels", "counts", "expected"}


@dataclass
class Report:
    source: str
    seeded: bool
    seed: str | None
    sizes: Sizes
    tests: list[TestResult]
    seconds: float
    alpha: float = ALPHA
    correction: str = "Holm step-down correction"

    @property
    def passed(self) -> bool:
        return all(t.passed for t in self.tests)

    def document(self) -> dict[str, Any]:
        return {"source": self.source, "seeded": self.seeded, "seed": self.seed, "alpha": self.alpha,
                "correction": self.correction, "passed": self.passed, "sizes": asdict(self.sizes),
                "seconds": round(self.seconds, 1),
                "tests": [{k: v for k, v in asdict(t).items() if k != "histogram"} for t in self.tests]}


# -- distributions -----------------------------------------------------------------------------------------------
def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for X ~ chi-square(df): the regularized upper incomplete gamma Q(df/2, x/2)."""
    return gamma_q(df / 2, x / 2)


def gamma_q(a: float, x: float) -> float:
    if x <= 0:
        return 1.0
    if x < a + 1:     # series for P, then Q = 1 - P
        term = total = 1.0 / a
        k = a
        for _ in range(100_000):
            k += 1
            term *= x / k
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - math.lgamma(a)))
    b = x + 1 - a     # continued fraction for Q (Lentz)
    c, d = 1e300, 1 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - math.lgamma(a)) * h)


def normal_two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def holm(ps: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        adjusted[i] = running
    return adjusted


# -- the tests ---------------------------------------------------------------------------------------------------
def chi2_counts(name: str, what: str, counts: np.ndarray, expected: np.ndarray, df: int, n: int,
                labels: list[str] | None = None) -> TestResult:
    stat = float(((counts - expected) ** 2 / expected).sum())
    hist = {"labels": labels or [str(i) for i in range(len(counts))], "counts": counts.tolist(),
            "expected": float(expected.flat[0]) if np.ptp(expected) == 0 else expected.tolist()}
    return TestResult(name, what, stat, f"chi2({df})", chi2_sf(stat, df), n, histogram=hist)


def position_matrix(name: str, what: str, perms: np.ndarray, copies: int, width: int) -> TestResult:
    """Card identity (52) × position (bins of `width`) counts against N·copies·width/(52·copies): a contingency
    table whose margins are fixed by construction, so df = 51 × (bins − 1)."""
    n, size = perms.shape
    bins = size // width
    counts = np.zeros((52, bins), dtype=np.int64)
    positions = np.broadcast_to(np.arange(size) // width, perms.shape)
    np.add.at(counts, (perms.ravel(), positions.ravel()), 1)
    expected = np.full(counts.shape, n * width / 52)
    stat = float(((counts - expected) ** 2 / expected).sum())
    df = 51 * (bins - 1)
    residuals = ((counts - expected) / np.sqrt(expected)).round(2)
    return TestResult(name, what, stat, f"chi2({df})", chi2_sf(stat, df), n,
                      histogram={"matrix": residuals.tolist(), "expected": n * width / 52})


def runs_up_down(u: np.ndarray) -> TestResult:
    """Runs up and down (Wald–Wolfowitz / Levene): the number of monotone runs R of n values; E = (2n − 1)/3,
    Var = (16n − 29)/90, z two-sided."""
    n = len(u)
    signs = np.sign(np.diff(u.astype(np.float64)))
    signs = signs[signs != 0]
    runs = 1 + int(np.count_nonzero(signs[1:] != signs[:-1]))
    z = (runs - (2 * n - 1) / 3) / math.sqrt((16 * n - 29) / 90)
    return TestResult("runs-up-down", "runs up and down of the raw 32-bit words", z, "N(0,1)", normal_two_sided(z), n)


def serial(name: str, what: str, x: np.ndarray) -> TestResult:
    """Lag-1 serial correlation r of n values; under independence √n·r ~ N(0,1)."""
    x = x.astype(np.float64)
    x = x - x.mean()
    r = float((x[:-1] * x[1:]).sum() / (x * x).sum())
    z = r * math.sqrt(len(x))
    return TestResult(name, what, z, "N(0,1)", normal_two_sided(z), len(x))


def gaps(name: str, what: str, hits: np.ndarray, p: float, bins: int) -> TestResult:
    """Gap test (Knuth 3.3.2.D): the gaps between successive hits of an event of probability p are geometric,
    P(gap = r) = p(1 − p)^r; gaps grouped in `bins` classes of about equal probability, chi-square on bins − 1 df."""
    where = np.flatnonzero(hits)
    g = np.diff(where) - 1
    cuts = [math.ceil(math.log(1 - k / bins) / math.log(1 - p)) for k in range(1, bins)]   # P(gap < cut_k) ≈ k/bins
    edges = sorted(set(cuts))
    classes = np.searchsorted(np.array(edges), g, side="right")
    counts = np.bincount(classes, minlength=len(edges) + 1)
    cdf = [0.0] + [1 - (1 - p) ** e for e in edges] + [1.0]
    expected = np.array([(cdf[k + 1] - cdf[k]) * len(g) for k in range(len(edges) + 1)])
    labels = [f"{lo}-{hi - 1}" for lo, hi in zip([0, *edges], [*edges, 0], strict=True)]
    labels[-1] = f"≥{edges[-1]}"
    return chi2_counts(name, what, counts, expected, len(edges), len(g), labels)


def run_battery(source: Source, sizes: Sizes, only: set[str] | None = None, seed: str | None = None) -> Report:
    """Every test of the battery (or those named in `only`) on fresh draws of `source`."""
    start = time.monotonic()
    tests: list[TestResult] = []

    def want(*names: str) -> bool:
        return only is None or any(n in only for n in names)

    if want("roulette-numbers", "roulette-serial", "roulette-zero-gaps"):
        spins = source.roulette(sizes.roulette)
        counts = np.bincount(spins, minlength=37)
        tests.append(chi2_counts("roulette-numbers", "French roulette numbers 0-36, one spin per round",
                                 counts, np.full(37, len(spins) / 37), 36, len(spins)))
        tests.append(serial("roulette-serial", "lag-1 correlation of successive spins", spins))
        tests.append(gaps("roulette-zero-gaps", "spins between successive zeros (p = 1/37)", spins == 0, 1 / 37, 10))
    if want("dice-faces", "dice-pairs"):
        rolls = source.dice(sizes.dice)
        faces = np.bincount(rolls.ravel() - 1, minlength=6)
        tests.append(chi2_counts("dice-faces", "faces of both dice of each craps roll", faces,
                                 np.full(6, rolls.size / 6), 5, rolls.size, [str(i) for i in range(1, 7)]))
        pairs = np.bincount((rolls[:, 0] - 1) * 6 + rolls[:, 1] - 1, minlength=36)
        tests.append(chi2_counts("dice-pairs", "the 36 (first, second) die pairs: the two dice independent", pairs,
                                 np.full(36, len(rolls) / 36), 35, len(rolls),
                                 [f"{a}{b}" for a in range(1, 7) for b in range(1, 7)]))
    if want("deck-positions"):
        tests.append(position_matrix("deck-positions", "52 × 52 card-by-position counts of a shuffled pack",
                                     source.decks(sizes.decks), 1, 1))
    if want("shoe6-positions"):
        tests.append(position_matrix("shoe6-positions", "6-deck shoe: 52 cards × 26 position bins of 12",
                                     source.shoes(sizes.shoes6, 6), 6, 12))
    if want("shoe8-positions"):
        tests.append(position_matrix("shoe8-positions", "8-deck shoe: 52 cards × 26 position bins of 16",
                                     source.shoes(sizes.shoes8, 8), 8, 16))
    if want("cut-card"):
        behind = source.cuts(sizes.cuts)
        counts = np.bincount(behind - 52, minlength=27)[:27]
        tests.append(chi2_counts("cut-card", "cards behind a blackjack shoe's cut card, 52-78 uniform (000:404-406)",
                                 counts, np.full(27, len(behind) / 27), 26, len(behind),
                                 [str(i) for i in range(52, 79)]))
    if want("runs-up-down", "words-serial", "words-gaps"):
        words = source.words(sizes.words)
        tests.append(runs_up_down(words))
        tests.append(serial("words-serial", "lag-1 correlation of the raw 32-bit words", words))
        tests.append(gaps("words-gaps", "gaps between words in the lowest tenth (p = 1/10)",
                          words < 2**32 // 10, (2**32 // 10) / 2**32, 10))
    for t, adjusted in zip(tests, holm([t.p for t in tests]), strict=True):
        t.p_holm = adjusted
        t.passed = adjusted >= ALPHA
    return Report(source.name, seed is not None or getattr(source, "seed", None) is not None, seed, sizes, tests,
                  time.monotonic() - start)
