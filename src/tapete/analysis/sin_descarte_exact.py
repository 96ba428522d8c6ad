"""*Póquer sin descarte* (and Caribbean stud), exactly: the ante's return under the optimal call/fold strategy,
in integer counts over every deal.

A deal is the player's five cards P, the croupier's up-card u and his four hidden cards: C(52,5) x 47 x C(46,4)
= 19,933,230,517,200 deals, equally likely. The player sees P and u and calls when calling returns more than
folding (the ante lost), counted exactly; so the strategy is optimal for the ante and call (no card bought).

Two reductions make it minutes, not years:
- **Suit symmetry.** Permuting the suits maps deals to deals with the same outcome, so each of the 134,459 classes
  of player hands is played once, weighted by its orbit's size.
- **Counting dealer hands per rank class.** The hands are ranked into their 7,462 strength classes. For a player
  hand of class s and an up-card u, what matters is how many croupier hands (u and four of the 46 unseen cards)
  fall below the qualifying class, below s and at s. By inclusion-exclusion over the player's cards S ⊆ P,

      #{D ∋ u, D ∩ P = ∅, class(D) < k} = Σ_S (-1)^|S| #{D ⊇ {u} ∪ S, class(D) < k},

  and the right-hand counts come from tables built once: cumulative counts by class for every card and every
  pair of cards, sorted class lists for every three and four cards (binary search), the hand itself for five.

The kernels run in compiled code with int64 counts (the largest sum is below 10^16). `scripts/exact_sin_descarte.py`
stores the result in `sin_descarte_figures.py` (minutes); tests check the inclusion-exclusion counts against a
brute-force enumeration of the croupier's hands for a sample of deals, and the stored figures' arithmetic.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from tapete.analysis.poker_tables import BINOM, CATS, category_index, five_table
from tapete.games.poker import evaluator as ev

try:
    from numba import njit
except ImportError:  # pragma: no cover
    def njit(*args: Any, **kwargs: Any) -> Any:
        if args and callable(args[0]):
            return args[0]
        return lambda f: f

DEALS = math.comb(52, 5) * 47 * math.comb(46, 4)
DEALER_HANDS = math.comb(46, 4)
METHOD = "exact"
# Caribbean stud's usual paytable (Wizard of Odds, Caribbean Stud Poker: house edge 5.2243 % of the ante)
CARIBBEAN_PAYS: dict[str, int] = {
    "high-card": 1, "pair": 1, "two-pair": 2, "three-of-a-kind": 3, "straight": 4, "flush": 5, "full-house": 7,
    "four-of-a-kind": 20, "straight-flush": 50, "royal-flush": 100,
}
# outcome classes of one deal, per unit of ante (`returns`): 0 fold, 1 called and the croupier does not qualify,
# 2 tie, 3 lost, 4 + category: won (0 high card .. 9 royal flush)
OUTCOMES = ("fold", "not-qualified", "tie", "lost", *(f"won-{c}" for c in CATS))


# ------------------------------------------------------------------------------------------------ tables


@dataclass(frozen=True)
class Tables:
    values: np.ndarray      # the strength of each class (evaluator.rank5), ascending
    cls5: np.ndarray        # class of every five-card hand, by colex index (0 = weakest)
    cat: np.ndarray         # category index (0 high card .. 9 royal) of every class
    qualify: int            # the weakest class the croupier plays with (ace-king)
    cum1: np.ndarray        # cum1[c, k]: hands holding card c of class < k
    cum2: np.ndarray        # cum2[colex2, k]: hands holding both cards, class < k
    sorted3: np.ndarray     # sorted3[colex3]: the classes of the 1,176 hands holding three cards, ascending
    sorted4: np.ndarray     # sorted4[colex4]: the 48 hands holding four cards


@njit(cache=True)
def _fill(cls5: np.ndarray, binom: np.ndarray, n_classes: int, cum1: np.ndarray, cum2: np.ndarray,
          sorted3: np.ndarray, sorted4: np.ndarray) -> None:
    fill3 = np.zeros(sorted3.shape[0], dtype=np.int64)
    fill4 = np.zeros(sorted4.shape[0], dtype=np.int64)
    h = np.zeros(5, dtype=np.int64)
    for e in range(4, 52):
        for d in range(3, e):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        h[0], h[1], h[2], h[3], h[4] = a, b, c, d, e
                        k = cls5[binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[d, 4] + binom[e, 5]]
                        for i in range(5):
                            cum1[h[i], k + 1] += 1
                            for j in range(i + 1, 5):
                                cum2[binom[h[i], 1] + binom[h[j], 2], k + 1] += 1
                                for m in range(j + 1, 5):
                                    t3 = binom[h[i], 1] + binom[h[j], 2] + binom[h[m], 3]
                                    sorted3[t3, fill3[t3]] = k
                                    fill3[t3] += 1
                        for skip in range(5):
                            t4 = 0
                            r = 1
                            for i in range(5):
                                if i != skip:
                                    t4 += binom[h[i], r]
                                    r += 1
                            sorted4[t4, fill4[t4]] = k
                            fill4[t4] += 1
    for c in range(cum1.shape[0]):
        for k in range(1, n_classes + 1):
            cum1[c, k] += cum1[c, k - 1]
    for c in range(cum2.shape[0]):
        for k in range(1, n_classes + 1):
            cum2[c, k] += cum2[c, k - 1]
    for t in range(sorted3.shape[0]):
        sorted3[t].sort()
    for t in range(sorted4.shape[0]):
        sorted4[t].sort()


@lru_cache(maxsize=1)
def tables() -> Tables:
    strengths = five_table("standard")
    values, cls5 = np.unique(strengths, return_inverse=True)
    cats = category_index(values.astype(np.int64))
    code, top, second = values >> ev.CODE_SHIFT, (values >> 16) & 0xF, (values >> 12) & 0xF
    plays = (code >= ev.PAIR) | ((top == ev.ACE + 1) & (second == ev.KING + 1))
    qualify = int(np.argmax(plays))
    assert plays[qualify:].all() and not plays[:qualify].any()
    n = len(values)
    cum1 = np.zeros((52, n + 1), dtype=np.int32)
    cum2 = np.zeros((math.comb(52, 2), n + 1), dtype=np.int32)
    sorted3 = np.zeros((math.comb(52, 3), math.comb(49, 2)), dtype=np.int16)
    sorted4 = np.zeros((math.comb(52, 4), 48), dtype=np.int16)
    _fill(cls5.astype(np.int16), BINOM, n, cum1, cum2, sorted3, sorted4)
    return Tables(values, cls5.astype(np.int16), cats.astype(np.int64), qualify, cum1, cum2, sorted3, sorted4)


# ------------------------------------------------------------------------------------------------ counting


@njit(cache=True)
def _below(row: np.ndarray, k: int) -> int:
    """How many entries of the ascending row are < k."""
    lo, hi = 0, row.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if row[mid] < k:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True)
def _count_below(p: np.ndarray, u: int, ks: np.ndarray, out: np.ndarray, binom: np.ndarray, cls5: np.ndarray,
                 cum1: np.ndarray, cum2: np.ndarray, sorted3: np.ndarray, sorted4: np.ndarray) -> None:
    """out[i] = croupier hands holding u, none of the five cards p, of class < ks[i] (inclusion-exclusion)."""
    for i in range(ks.shape[0]):
        out[i] = 0
    t = np.zeros(6, dtype=np.int64)
    for mask in range(31):                 # every S ⊂ P but P itself (six cards fit no hand)
        size = 0
        t[0] = u
        for b in range(5):
            if mask >> b & 1:
                size += 1
                t[size] = p[b]
        size += 1
        # sort the set {u} ∪ S (insertion sort, at most five)
        for a in range(1, size):
            x = t[a]
            b = a - 1
            while b >= 0 and t[b] > x:
                t[b + 1] = t[b]
                b -= 1
            t[b + 1] = x
        sign = -1 if (size - 1) & 1 else 1
        if size == 1:
            for i in range(ks.shape[0]):
                out[i] += sign * cum1[t[0], ks[i]]
        elif size == 2:
            idx = binom[t[0], 1] + binom[t[1], 2]
            for i in range(ks.shape[0]):
                out[i] += sign * cum2[idx, ks[i]]
        elif size == 3:
            idx = binom[t[0], 1] + binom[t[1], 2] + binom[t[2], 3]
            for i in range(ks.shape[0]):
                out[i] += sign * _below(sorted3[idx], ks[i])
        elif size == 4:
            idx = binom[t[0], 1] + binom[t[1], 2] + binom[t[2], 3] + binom[t[3], 4]
            for i in range(ks.shape[0]):
                out[i] += sign * _below(sorted4[idx], ks[i])
        else:
            k = cls5[binom[t[0], 1] + binom[t[1], 2] + binom[t[2], 3] + binom[t[3], 4] + binom[t[4], 5]]
            for i in range(ks.shape[0]):
                if k < ks[i]:
                    out[i] += sign


@njit(cache=True)
def _outcomes(p: np.ndarray, u: int, s: int, qualify: int, binom: np.ndarray, cls5: np.ndarray, cum1: np.ndarray,
              cum2: np.ndarray, sorted3: np.ndarray, sorted4: np.ndarray, ks: np.ndarray, below: np.ndarray,
              total: int) -> tuple[int, int, int, int]:
    """(croupier does not qualify, qualifies and loses, ties, wins) over his hands, for player class s."""
    ks[0], ks[1], ks[2] = qualify, s, s + 1
    _count_below(p, u, ks, below, binom, cls5, cum1, cum2, sorted3, sorted4)
    nq = below[0]
    if s < qualify:
        return nq, 0, 0, total - nq
    return nq, below[1] - nq, below[2] - below[1], total - below[2]


@njit(cache=True)
def _orbit(hand: np.ndarray, perms: np.ndarray, binom: np.ndarray) -> tuple[bool, int]:
    """(is this hand its suit class's representative — the least colex image —, the class's size)."""
    own = binom[hand[0], 1] + binom[hand[1], 2] + binom[hand[2], 3] + binom[hand[3], 4] + binom[hand[4], 5]
    images = np.empty(perms.shape[0], dtype=np.int64)
    h = np.empty(5, dtype=np.int64)
    for q in range(perms.shape[0]):
        for i in range(5):
            h[i] = (hand[i] >> 2) * 4 + perms[q, hand[i] & 3]
        h.sort()
        images[q] = binom[h[0], 1] + binom[h[1], 2] + binom[h[2], 3] + binom[h[3], 4] + binom[h[4], 5]
        if images[q] < own:
            return False, 0
    images.sort()
    distinct = 1
    for q in range(1, images.shape[0]):
        if images[q] != images[q - 1]:
            distinct += 1
    return True, distinct


@njit(cache=True)
def _solve(pays: np.ndarray, perms: np.ndarray, binom: np.ndarray, cls5: np.ndarray, cat: np.ndarray,
           qualify: int, cum1: np.ndarray, cum2: np.ndarray, sorted3: np.ndarray, sorted4: np.ndarray,
           total: int, counts: np.ndarray, decisions: np.ndarray, values: np.ndarray, simple: bool) -> None:
    """counts[outcome] (OUTCOMES) over every deal under the optimal call/fold choice (or, `simple`, the simulation
    kernel's simple strategy, banked_poker.SD_STRATEGY); decisions[cls, up rank, call] the weighted deals of each
    player class and up-card rank by choice (ties of value go to folding)."""
    hand = np.zeros(5, dtype=np.int64)
    ks = np.zeros(3, dtype=np.int64)
    below = np.zeros(3, dtype=np.int64)
    for e in range(4, 52):
        for d in range(3, e):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        hand[0], hand[1], hand[2], hand[3], hand[4] = a, b, c, d, e
                        rep, weight = _orbit(hand, perms, binom)
                        if not rep:
                            continue
                        s = cls5[binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[d, 4] + binom[e, 5]]
                        pc = cat[s]
                        for u in range(52):
                            if u == a or u == b or u == c or u == d or u == e:  # noqa: SIM109 (numba)
                                continue
                            nq, win, tie, lose = _outcomes(hand, u, s, qualify, binom, cls5, cum1, cum2, sorted3,
                                                           sorted4, ks, below, total)
                            call = nq + win * (1 + 2 * pays[pc]) - 3 * lose
                            calls = _simple_call(values[s], u >> 2) if simple else call > -total
                            if calls:
                                counts[1] += weight * nq
                                counts[2] += weight * tie
                                counts[3] += weight * lose
                                counts[4 + pc] += weight * win
                                decisions[s, u >> 2, 1] += weight
                            else:
                                counts[0] += weight * total
                                decisions[s, u >> 2, 0] += weight


@njit(cache=True)
def _simple_call(ps: int, up: int) -> bool:
    """banked_poker._sd_source's choice: a pair or better; ace-king by the up-card (SD_STRATEGY)."""
    if ps >> 20 >= 1:
        return True
    if not (((ps >> 16) & 15) == 13 and ((ps >> 12) & 15) == 12):
        return False
    r2, r3, r4 = ((ps >> 8) & 15) - 1, ((ps >> 4) & 15) - 1, (ps & 15) - 1
    match = up == r2 or up == r3 or up == r4  # noqa: SIM109 (numba)
    has_q = r2 == 10 or r3 == 10 or r4 == 10
    has_j = r2 == 9 or r3 == 9 or r4 == 9
    return (up <= 10 and match) or (up >= 11 and (has_q or has_j)) or (not match and up <= 10 and has_q and up < r3)


def _perms() -> np.ndarray:
    from itertools import permutations

    return np.array(list(permutations(range(4))), dtype=np.int64)


def pay_vector(pays: Mapping[str, Any]) -> np.ndarray:
    return np.array([int(pays[c]) for c in CATS], dtype=np.int64)


@dataclass(frozen=True)
class AnteResult:
    """Outcome counts over every deal, and the choices by player class and up-card rank."""

    pays: tuple[int, ...]
    counts: tuple[int, ...]          # OUTCOMES, summing to DEALS
    decisions: np.ndarray | None = None

    def returns(self) -> list[Fraction]:
        """Return per unit of ante (1 + net / ante) of each outcome: the call is twice the ante."""
        return [Fraction(0), Fraction(2), Fraction(1), Fraction(-2), *(Fraction(2 + 2 * p) for p in self.pays)]

    @property
    def edge(self) -> Fraction:
        """House edge per unit of ante (the call's stake and result included)."""
        back = sum((r * n for r, n in zip(self.returns(), self.counts, strict=True)), Fraction(0))
        return 1 - back / sum(self.counts)

    @property
    def call_rate(self) -> Fraction:
        return 1 - Fraction(self.counts[0], sum(self.counts))

    @property
    def edge_per_staked(self) -> Fraction:
        """House edge per unit staked: the ante plus the average call."""
        return self.edge / (1 + 2 * self.call_rate)


def solve(pays: Mapping[str, Any], simple: bool = False) -> AnteResult:
    """Every deal, counted (about a minute on one core); `simple`: under the simulation kernel's simple strategy."""
    t = tables()
    counts = np.zeros(len(OUTCOMES), dtype=np.int64)
    decisions = np.zeros((t.cat.shape[0], 13, 2), dtype=np.int64)
    pv = pay_vector(pays)
    _solve(pv, _perms(), BINOM, t.cls5.astype(np.int64), t.cat, t.qualify, t.cum1, t.cum2, t.sorted3, t.sorted4,
           DEALER_HANDS, counts, decisions, t.values.astype(np.int64), simple)
    assert int(counts.sum()) == DEALS
    return AnteResult(tuple(int(x) for x in pv), tuple(int(x) for x in counts), decisions)


def brute_outcomes(hand: list[int], u: int) -> tuple[int, int, int, int]:
    """The same four counts by enumerating the croupier's C(46,4) hands (the test's reference)."""
    t = tables()
    return _brute(np.array(hand, dtype=np.int64), u, t.cls5.astype(np.int64), t.qualify, BINOM)


@njit(cache=True)
def _brute(hand: np.ndarray, u: int, cls5: np.ndarray, qualify: int, binom: np.ndarray) -> tuple[int, int, int, int]:
    s = cls5[binom[hand[0], 1] + binom[hand[1], 2] + binom[hand[2], 3] + binom[hand[3], 4] + binom[hand[4], 5]]
    rest = np.empty(46, dtype=np.int64)
    n = 0
    for c in range(52):
        if c != u and not (hand == c).any():
            rest[n] = c
            n += 1
    nq = win = tie = lose = 0
    h = np.empty(5, dtype=np.int64)
    for i in range(46):
        for j in range(i + 1, 46):
            for k in range(j + 1, 46):
                for m in range(k + 1, 46):
                    h[0], h[1], h[2], h[3], h[4] = u, rest[i], rest[j], rest[k], rest[m]
                    h.sort()
                    d = cls5[binom[h[0], 1] + binom[h[1], 2] + binom[h[2], 3] + binom[h[3], 4] + binom[h[4], 5]]
                    if d < qualify:
                        nq += 1
                    elif d < s:
                        win += 1
                    elif d == s:
                        tie += 1
                    else:
                        lose += 1
    return nq, win, tie, lose


def outcomes_of(hand: list[int], u: int) -> tuple[int, int, int, int]:
    """The inclusion-exclusion counts for one deal's player hand and up-card."""
    t = tables()
    h = np.array(sorted(hand), dtype=np.int64)
    s = int(t.cls5[int(sum(BINOM[c, i + 1] for i, c in enumerate(h)))])
    out = _outcomes(h, u, s, t.qualify, BINOM, t.cls5.astype(np.int64), t.cum1, t.cum2, t.sorted3, t.sorted4,
                    np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64), DEALER_HANDS)
    return tuple(int(x) for x in out)  # type: ignore[return-value]


# ------------------------------------------------------------------------------------------------ strategy

RANKS = "23456789TJQKA"


def strategy_table(decisions: np.ndarray) -> dict[str, Any]:
    """The optimal choices in words: each category's share of calls, and for the ace-king hands (the only ones
    that vary) the choice by the player's ranks and the up-card's rank: C call, F fold, c / f mostly call /
    mostly fold (the suits decide)."""
    t = tables()
    shares: dict[str, list[int]] = {c: [0, 0] for c in CATS}
    ak: dict[str, str] = {}
    for s in range(decisions.shape[0]):
        cat = CATS[int(t.cat[s])]
        fold, call = int(decisions[s, :, 0].sum()), int(decisions[s, :, 1].sum())
        shares[cat][0] += call
        shares[cat][1] += call + fold
        v = int(t.values[s])
        if cat == "high-card" and s >= t.qualify:
            ranks = "".join(RANKS[((v >> sh) & 0xF) - 1] for sh in (16, 12, 8, 4, 0))
            row = ""
            for up in range(13):
                f, c = int(decisions[s, up, 0]), int(decisions[s, up, 1])
                row += "C" if f == 0 else "F" if c == 0 else ("c" if c >= f else "f")
            ak[ranks] = row
    return {"call_share": {c: [a, b] for c, (a, b) in shares.items()}, "ace_king": dict(sorted(ak.items(), reverse=True))}


def stored(pays: Mapping[str, Any]) -> dict[str, Any] | None:
    """The stored figure of scripts/exact_sin_descarte.py for this paytable, if any."""
    from tapete.analysis.sin_descarte_figures import FIGURES

    key = [int(x) for x in pay_vector(pays)]
    return next((f for f in FIGURES.values() if f["pays"] == key), None)


def ante_result(pays: Mapping[str, Any]) -> AnteResult:
    """The stored counts for this paytable, else every deal counted now (about a minute)."""
    fig = stored(pays)
    if fig is None:
        return solve(pays)
    return AnteResult(tuple(fig["pays"]), tuple(fig["counts"]))


def ante_note(result: AnteResult) -> str:
    return (f"every deal counted ({DEALS:,}: suit symmetry, croupier hands counted per rank class); the optimal "
            f"call/fold choice for each player hand and up-card, no card bought; per unit of ante, the call's stake "
            f"and result included; call rate {float(result.call_rate) * 100:.4f} %, "
            f"{float(result.edge_per_staked) * 100:.4f} % per unit staked (ante + call)")


def strategy_document(pays: Mapping[str, Any]) -> dict[str, Any]:
    """`tapete strategy poker-sin-descarte`: the optimal call/fold rule behind the exact ante figure."""
    fig = stored(pays)
    if fig is None:
        r = solve(pays)
        fig = {"counts": list(r.counts), "strategy": strategy_table(r.decisions)}
    result = AnteResult(tuple(int(x) for x in pay_vector(pays)), tuple(fig["counts"]))
    shares = fig["strategy"]["call_share"]
    always = [c for c, (a, b) in shares.items() if a == b]
    return {
        "rule": (f"call (voy) with {', '.join(always[:1])} or better; with high card, call only with ace-king as "
                 "the chart says, by the player's five ranks and the up-card's rank; no card bought"),
        "always_call": always,
        "up": list(RANKS),
        "ace_king": dict(sorted(fig["strategy"]["ace_king"].items(), key=lambda kv: [RANKS.index(c) for c in kv[0]],
                                reverse=True)),
        "legend": {"C": "call", "F": "fold", "c": "call with most suits", "f": "fold with most suits"},
        "call_rate": float(result.call_rate),
        "house_edge": str(result.edge),
        "house_edge_percent": float(result.edge) * 100,
    }
