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

# float64 products of log-factorial exponentials and sums of < 10^6 non-negative terms below 1: the relative
# rounding error stays under 1e-11; the bound states 1e-9 with room (docs/edge.md)
ERROR_BOUND = 1e-9
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
            out.append(EdgeResult(kind, None, option, Fraction(edges[option]), "enumerated-float", NOTE,
                                  error_bound=ERROR_BOUND))
        # insured: every tie returns the stake, the premium is kept: exactly the premium (B9-2)
        out.append(EdgeResult(kind, None, "insured", rules.insurance_premium, "exact",
                              "any win, loss or tie: the 1% premium is the whole edge"))
    return out


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


# -- `tapete simulate trente-quarante`: whole bets, the zero rule included -----------------------------------
PRISON_DEPTH = 64            # 31-31 ties met by one bet; deeper (never seen) counts as the last


@njit(cache=True, inline="always")
def _tq_coup(deck: np.ndarray, value: np.ndarray, stop: int, trace: np.ndarray, row: int, used: np.ndarray) -> tuple[int, int, int]:
    """One coup from a full shoe (the deck array stays a permutation; drawn cards swap to its end): the black
    row, then the red, each until `stop` (000:528). Returns (black total, red total, first card)."""
    left = deck.size
    totals = np.zeros(2, dtype=np.int64)
    first = -1
    for r in range(2):
        s = 0
        while s < stop:
            j = int(np.random.random() * left)
            left -= 1
            card = deck[j]
            deck[j] = deck[left]
            deck[left] = card
            if first < 0:
                first = card
            s += value[card]
            if row < trace.shape[0] and used[row] < trace.shape[1]:
                trace[row, used[row]] = card
                used[row] += 1
        totals[r] = s
    return totals[0], totals[1], first


@njit(cache=True)
def _tq_rounds(n: int, seed: int, value: np.ndarray, red: np.ndarray, stop: int, first: np.ndarray,
               prison: np.ndarray, trace: np.ndarray, used: np.ndarray) -> None:
    """first[black total - stop, red total - stop, first card red]: the coup on which every bet rides.
    After a 31-31 tie the bets in prison ride further coups, each from a full shoe as the exact analysis takes
    them: prison[ties met, black total - stop, red total - stop, first card red] counts the coup that decides
    them (equal totals other than 31 wait, B9-4; another 31-31 adds a tie)."""
    np.random.seed(seed)
    deck = np.arange(value.size)
    for r in range(n):
        bt, rt, c = _tq_coup(deck, value, stop, trace, r, used)
        first[bt - stop, rt - stop, red[c]] += 1
        if bt != stop or rt != stop:
            continue
        zeros = 1
        while True:
            bt, rt, c = _tq_coup(deck, value, stop, trace, r, used)
            if bt == rt:
                if bt == stop and zeros < prison.shape[0] - 1:
                    zeros += 1
                continue
            prison[zeros, bt - stop, rt - stop, red[c]] += 1
            break


def shoe_cards(decks: int) -> list[str]:
    return [r + s for _ in range(decks) for s in "SHDC" for r in "A23456789TJQK"]


class TrenteQuaranteKernel:
    """`tapete simulate trente-quarante`: each chance half back at 31-31, in prison, or insured (1%)."""

    OPTIONS = ("half", "prison", "insured")

    def __init__(self, game: Any, jurisdiction: str) -> None:
        from tapete.games.trente_quarante import is_red

        self.game = game
        self.rules = game.rules_for(jurisdiction)
        self.cards = shoe_cards(self.rules.decks)
        self.value = np.array([card_value(c) for c in self.cards], dtype=np.int64)
        self.red = np.array([int(is_red(c)) for c in self.cards], dtype=np.int64)

    def _check(self, specs: list[Any]) -> None:
        from tapete.core.errors import TapeteError

        for spec in specs:
            if spec.kind not in self.rules.kinds or spec.option not in self.OPTIONS:
                raise TapeteError("unknown-bet-kind", f"trente-quarante simulates {', '.join(self.rules.kinds)} each "
                                  f"@{', @'.join(self.OPTIONS)}, not {spec.label()}")

    def play(self, rounds: int, seed: int, traced: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        stop = self.rules.row_stop
        first = np.zeros((11, 11, 2), dtype=np.int64)
        prison = np.zeros((PRISON_DEPTH, 11, 11, 2), dtype=np.int64)
        trace = np.zeros((traced, 120), dtype=np.int64)
        used = np.zeros(traced, dtype=np.int64)
        _tq_rounds(rounds, seed, self.value, self.red, stop, first, prison, trace, used)
        return first, prison, trace, used

    def returned(self, kind: str, option: str, bt: int, rt: int, first_red: bool, zeros: int = 0) -> Fraction:
        """Per unit of the chance, 1 + net (the premium counted in the stake): the reducer's `winners`, payout and
        zero system (000:504-514; 003:1121-1133; the refund and the held stake of tapete.engine.zero_system)."""
        from tapete.engine import zero_system
        from tapete.games.trente_quarante import winners

        stop = self.rules.row_stop
        premium = self.rules.insurance_premium if option == "insured" else Fraction(0)
        won = winners(bt, rt, first_red)
        if zeros:                                        # freed from prison or lost
            back = zero_system.held(1, zeros) if won is not None and kind in won else Fraction(0)
        elif won is not None:
            back = 1 + self.rules.payout if kind in won else Fraction(0)
        elif bt != stop or option == "insured":          # void, or insured at the 31 tie: the stake back
            back = Fraction(1)
        elif option == "half":
            back = zero_system.refund(1, 1)
        else:
            raise ValueError("a prison bet at 31-31 is settled by the coups after it")
        return back - premium

    def histogram(self, kind: str, option: str, first: np.ndarray, prison: np.ndarray) -> dict[Fraction, int]:
        stop = self.rules.row_stop
        hist: dict[Fraction, int] = {}
        for b, r, c in zip(*np.nonzero(first), strict=True):
            if b == r == 0 and option == "prison":
                continue
            ret = self.returned(kind, option, stop + int(b), stop + int(r), bool(c))
            hist[ret] = hist.get(ret, 0) + int(first[b, r, c])
        if option == "prison":
            for z, b, r, c in zip(*np.nonzero(prison), strict=True):
                ret = self.returned(kind, option, stop + int(b), stop + int(r), bool(c), int(z))
                hist[ret] = hist.get(ret, 0) + int(prison[z, b, r, c])
        return hist

    def run(self, specs: list[Any], rounds: int, gen: np.random.Generator) -> list[dict[Fraction, int]]:
        self._check(specs)
        first, prison, _, _ = self.play(rounds, int(gen.integers(0, 2**31 - 1)))
        return [self.histogram(s.kind, s.option, first, prison) for s in specs]
