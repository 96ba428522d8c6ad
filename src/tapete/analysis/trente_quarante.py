"""Trente et quarante, exactly: the joint law of the two rows' totals for a full 6-deck shoe, by dynamic
programming over card counts, and every chance's edge with and without the 1% insurance, under each choice of
the zero rule at a 31-31 tie.

The rows. A row is a *prefix* (cards summing to at most 30, in any order) and a *last card* that takes it to
31 or more (000:528). The black row is prefix A and last card u1, then the red row prefix B and last card u2.
Drawing without replacement, one ordered sequence of values has probability prod_v (c_v)_(k_v) / (N)_n, and
the prefixes may come in any order, so

    P(A, u1, B, u2) = nA! nB! / (N)_(nA+nB+2) * prod_v (c_v)_(A_v + B_v + [u1=v] + [u2=v]) / (A_v! B_v!).

For each pair of last cards the dynamic programme runs over the card values, carrying (sum A, size A, sum B,
size B) and the multinomial count of ways to take A_v and B_v cards of value v from what is left. The totals'
law then gives every edge: the colour of the black row's first card is independent of the card values, and the
two rows are exchangeable, so black, red, colour and inverse all win with the same probability.

Arithmetic in float64; a unit test checks the programme against exhaustive rational enumeration on small shoes.
The zero rule after the tie (prison, repeated ties) treats later coups as independent, each with the law of a
full shoe.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from tapete.games.trente_quarante import TQ_RULES, TrenteQuaranteRules, card_value

try:
    from numba import njit
except ImportError:  # pragma: no cover
    def njit(*args: Any, **kwargs: Any) -> Any:
        if args and callable(args[0]):
            return args[0]
        return lambda f: f

NOTE = "float64 dynamic programme over the 6-deck shoe's card counts; coups after a tie treated as independent"


@njit(cache=True)
def _joint(counts: np.ndarray, stop: int) -> np.ndarray:
    """joint[b, r] = P(black row totals b, red row totals r) for a shoe with counts[v] cards of value v (1..10)."""
    top = stop - 1                       # the largest prefix sum
    n_total = 0
    for v in range(1, 11):
        n_total += counts[v]
    lf = np.zeros(n_total + 2)
    for k in range(1, n_total + 2):
        lf[k] = lf[k - 1] + math.log(k)
    joint = np.zeros((stop + 10, stop + 10))
    size = top + 1
    for u1 in range(1, 11):
        for u2 in range(u1, 11):
            c = counts.copy()
            c[u1] -= 1
            c[u2] -= 1
            if c[u1] < 0 or c[u2] < 0:
                continue
            lead = float(counts[u1]) * float(counts[u2] - (1 if u1 == u2 else 0))
            t = np.zeros((size, size, size, size))
            t[0, 0, 0, 0] = 1.0
            for v in range(10, 0, -1):
                nt = np.zeros((size, size, size, size))
                cv = c[v]
                for sa in range(size):
                    for na in range(sa + 1):
                        for sb in range(size):
                            for nb in range(sb + 1):
                                w = t[sa, na, sb, nb]
                                if w == 0.0:
                                    continue
                                i = 0
                                while sa + v * i <= top and i <= cv:
                                    j = 0
                                    while sb + v * j <= top and i + j <= cv:
                                        m = math.exp(lf[cv] - lf[i] - lf[j] - lf[cv - i - j])
                                        nt[sa + v * i, na + i, sb + v * j, nb + j] += w * m
                                        j += 1
                                    i += 1
                t = nt
            for sa in range(stop - 10, size):
                for sb in range(stop - 10, size):
                    for na in range(sa + 1):
                        for nb in range(sb + 1):
                            w = t[sa, na, sb, nb]
                            if w == 0.0:
                                continue
                            n = na + nb + 2
                            scale = math.exp(lf[na] + lf[nb] + lf[n_total - n] - lf[n_total]) * lead * w
                            if sa + u1 >= stop and sb + u2 >= stop:
                                joint[sa + u1, sb + u2] += scale
                            if u1 != u2 and sa + u2 >= stop and sb + u1 >= stop:
                                joint[sa + u2, sb + u1] += scale
    return joint


@dataclass(frozen=True)
class Outcomes:
    """The law of one coup from a full shoe."""

    joint: np.ndarray
    black: float                 # black row wins (= red, = colour, = inverse)
    red: float
    tie_31: float                # 31-31: the zero rule
    tie_other: float             # 32-32 ... 40-40: void

    def row_totals(self) -> dict[int, float]:
        return {t: float(self.joint[t, :].sum()) for t in range(31, 41)}


def shoe_counts(decks: int) -> np.ndarray:
    counts = np.zeros(11, dtype=np.int64)
    for rank in "A23456789TJQK":
        counts[card_value(rank + "S")] += 4 * decks
    return counts


@lru_cache(maxsize=4)
def outcomes(decks: int = 6, stop: int = 31) -> Outcomes:
    joint = _joint(shoe_counts(decks), stop)
    diag = [float(joint[t, t]) for t in range(stop, stop + 10)]
    black = float(np.triu(joint, 1).sum())
    red = float(np.tril(joint, -1).sum())
    return Outcomes(joint, black, red, diag[0], sum(diag[1:]))


def edges_of(o: Outcomes) -> dict[str, float]:
    """Edges per unit bet of an even chance: the tie taken half back, left in prison, or insured (1%)."""
    win = o.black
    half = 1 - (2 * win + o.tie_other + o.tie_31 / 2)
    held = win / (1 - o.tie_other - o.tie_31 / 2)        # a prison bet's worth per unit held, ties repeating
    prison = 1 - (2 * win + o.tie_other + o.tie_31 * held)
    return {"half": half, "prison": prison}


def exact_edges(rules: TrenteQuaranteRules) -> list[Any]:
    from tapete.analysis.exact import EdgeResult

    o = outcomes(rules.decks, rules.row_stop)
    edges = edges_of(o)
    out = []
    for kind in rules.kinds:
        for option in ("half", "prison"):
            out.append(EdgeResult(kind, None, option, _fraction(edges[option]), "exact", NOTE))
        # insured: every tie returns the stake, the premium is kept: exactly the premium (B9-2)
        out.append(EdgeResult(kind, None, "insured", rules.insurance_premium, "exact",
                              "any win, loss or tie: the 1% premium is the whole edge"))
    return out


def _fraction(x: float) -> Fraction:
    return Fraction(round(x * 10**12), 10**12)


def exact_rational(counts: dict[int, int], stop: int) -> dict[tuple[int, int], Fraction]:
    """The rows' joint law by exhaustive enumeration in Fractions, for small shoes (the DP's cross-check)."""
    n_total = sum(counts.values())
    out: dict[tuple[int, int], Fraction] = {}

    def row(c: dict[int, int], left: int, prob: Fraction, total: int, first: int | None) -> None:
        for v, k in list(c.items()):
            if k == 0:
                continue
            p = prob * Fraction(k, left)
            c[v] -= 1
            t = total + v
            if t >= stop:
                if first is None:
                    row(c, left - 1, p, 0, t)
                else:
                    out[first, t] = out.get((first, t), Fraction(0)) + p
            else:
                row(c, left - 1, p, t, first)
            c[v] += 1

    row(dict(counts), n_total, Fraction(1), 0, None)
    return out


def tq_rules(jurisdiction: str) -> TrenteQuaranteRules:
    return TQ_RULES[jurisdiction]


@njit(cache=True)
def _simulate(n: int, seed: int, counts: np.ndarray, stop: int) -> np.ndarray:
    """Counts of (black wins, red wins, 31-31, other ties) over n coups, each from a full shoe."""
    np.random.seed(seed)
    out = np.zeros(4, dtype=np.int64)
    c = counts.copy()
    n_total = 0
    for v in range(1, 11):
        n_total += counts[v]
    for _ in range(n):
        for v in range(11):
            c[v] = counts[v]
        left = n_total
        totals = np.zeros(2, dtype=np.int64)
        for row in range(2):
            s = 0
            while s < stop:
                r = np.random.randint(0, left)
                acc = 0
                for v in range(1, 11):
                    acc += c[v]
                    if r < acc:
                        c[v] -= 1
                        s += v
                        break
                left -= 1
            totals[row] = s
        if totals[0] == totals[1]:
            out[2 if totals[0] == stop else 3] += 1
        else:
            out[0 if totals[0] < totals[1] else 1] += 1
    return out


def simulate(coups: int, seed: int = 1, decks: int = 6) -> dict[str, float]:
    """Frequencies of the four outcomes over `coups` seeded coups (the DP's Monte Carlo check)."""
    from tapete.core.rng import simulation_stream

    s = int(simulation_stream(seed, 0).integers(0, 2**31 - 1))
    k = _simulate(coups, s, shoe_counts(decks), 31)
    return {"black": k[0] / coups, "red": k[1] / coups, "tie_31": k[2] / coups, "tie_other": k[3] / coups}
