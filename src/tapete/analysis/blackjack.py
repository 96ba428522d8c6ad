"""Black Jack, exactly: the dealer's outcomes by recursion over the shoe's composition, the player's
expectations for stand / hit / double / split / surrender, and the basic strategy the engine derives from them.

How it works (docs/games/blackjack.md):
1. Every player hand is a *composition* (how many cards of each value it holds, hard total <= 21). For each
   composition and each dealer up card, the dealer's final distribution (17-21, Black-Jack, bust) is computed by
   depth-first recursion over the cards left in the shoe (the player's cards and the up card removed):
   European deal, no hole card, so a dealer Black-Jack takes doubles and splits.
2. The strategy is a *total-dependent* chart — hard totals, soft totals, pairs — derived, not typed in: for
   each class (total, softness) and up card, the action with the highest expectation averaged over the
   compositions of that class (weighted by how likely each is as a starting holding), classes solved in an
   order where every hit leads to classes already decided. Two-card decisions (double, surrender) and pairs
   come last.
3. The house edge is the expectation of that chart over a full shoe (every starting hand, every up card,
   every later card), insurance and even money declined. One approximation, labelled in the output: a split
   hand draws and is valued from the shoe less its own cards, the up card, the partner card and the x's that
   re-splits (to four hands) put on the table, but not less the cards the other split hands drew.

The arithmetic is double precision (float64) and the split model approximates: `method: enumerated-float`,
with its error bound and the approximation named (docs/edge.md). Every rule —
the dealer's stand rule, the player's totals, who may double or split — comes from the rules objects and the
reducer's own helpers (tapete.games.blackjack), turned into lookup tables for the compiled kernel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from tapete.games.blackjack.game import BJTable, BlackjackGame, Hand
from tapete.games.blackjack.hand import dealer_must_draw, dealer_total, is_natural, is_soft, player_total
from tapete.games.blackjack.rules import BLACKJACK_RULES, BOLSA_JACKPOT_MINIMUM, BlackjackRules

try:  # numba compiles the dealer recursion; without it the same code runs as Python (slowly)
    from numba import njit
except ImportError:  # pragma: no cover
    def njit(*args: Any, **kwargs: Any) -> Any:
        if args and callable(args[0]):
            return args[0]
        return lambda f: f

STAND, HIT, DOUBLE, SURRENDER, SPLIT = 0, 1, 2, 3, 4
ACTIONS = {STAND: "stand", HIT: "hit", DOUBLE: "double", SURRENDER: "surrender", SPLIT: "split"}
SPLIT_HANDS = 4
NOTE = ("float64 enumeration over the shoe for the derived total-dependent chart, exact but for one approximation: "
        "a split hand is valued from the shoe less its own cards, the up card, the partner card and the re-split "
        "cards of its value, not less the cards the other split hands drew; within 0.002 points of "
        "hhoppe/blackjack's solver on nine rule variants, 1 to 8 decks (docs/games/blackjack.md)")
# The float64 arithmetic is good to ~1e-12; the split model's error is known by comparison: within 0.002
# percentage points (2e-5 of a unit) of hhoppe/blackjack's solver on nine rule variants (docs/games/blackjack.md).
# 1e-4 of a unit (0.01 points) states it with room; docs/edge.md.
ERROR_BOUND = 1e-4
APPROXIMATION = ("a split hand is valued without removing the cards the other split hands drew "
                 "(error bound empirical: within 0.002 points of an independent solver on nine rule variants)")
CARD_TEXT = {1: "A", 10: "T"}


def _card(v: int) -> str:
    return CARD_TEXT.get(v, str(v)) + "S"


# -- tables built from the rules code ----------------------------------------------------------------
def dealer_tables(rules: BlackjackRules) -> tuple[np.ndarray, np.ndarray]:
    """State = 2*hard + has_ace. nxt[state, card] and final[state]: -1 to draw, else the total (22 = bust).
    Built from hand.dealer_must_draw / dealer_total: the stand rule is written once."""
    states = 2 * 32
    nxt = np.zeros((states, 11), dtype=np.int64)
    final = np.full(states, -1, dtype=np.int64)
    for hard in range(1, 32):
        for ace in (0, 1):
            if ace and hard < 1:
                continue
            s = 2 * hard + ace
            vals = ([1, hard - 1] if hard > 1 else [1]) if ace else [hard]
            if hard > 21:
                final[s] = 22
            elif not dealer_must_draw(vals, rules.dealer_stands_soft_17):
                final[s] = dealer_total(vals, rules.dealer_stands_soft_17)
            for r in range(1, 11):
                nh = min(hard + r, 31)
                nxt[s, r] = 2 * nh + (1 if ace or r == 1 else 0)
    return nxt, final


@njit(cache=True)
def _dealer_dist(counts: np.ndarray, n: int, up: int, nxt: np.ndarray, final: np.ndarray, out: np.ndarray) -> None:
    """Probabilities of 17, 18, 19, 20, 21, Black-Jack, bust for the dealer holding `up`, drawing from `counts`."""
    for k in range(7):
        out[k] = 0.0
    st = np.zeros(24, dtype=np.int64)
    pr = np.zeros(24)
    rr = np.zeros(24, dtype=np.int64)
    came = np.zeros(24, dtype=np.int64)
    st[0] = 2 * up + (1 if up == 1 else 0)
    pr[0] = 1.0
    rr[0] = 1
    depth = 0
    left = n
    while depth >= 0:
        r = rr[depth]
        if r > 10:
            if depth > 0:
                counts[came[depth]] += 1
                left += 1
            depth -= 1
            continue
        rr[depth] = r + 1
        c = counts[r]
        if c <= 0:
            continue
        p = pr[depth] * c / left
        if depth == 0 and ((up == 1 and r == 10) or (up == 10 and r == 1)):
            out[5] += p
            continue
        ns = nxt[st[depth], r]
        f = final[ns]
        if f >= 0:
            if f > 21:
                out[6] += p
            else:
                out[f - 17] += p
            continue
        counts[r] -= 1
        left -= 1
        depth += 1
        st[depth] = ns
        pr[depth] = p
        rr[depth] = 1
        came[depth] = r


@njit(cache=True)
def _all_dealer(shoe: np.ndarray, comps: np.ndarray, ncards: np.ndarray, nxt: np.ndarray, final: np.ndarray) -> np.ndarray:
    """dist[i, up, k] for every composition i and up card 1..10."""
    m = comps.shape[0]
    total = 0
    for r in range(1, 11):
        total += shoe[r]
    dist = np.zeros((m, 11, 7))
    counts = np.zeros(11, dtype=np.int64)
    out = np.zeros(7)
    for i in range(m):
        for up in range(1, 11):
            ok = True
            for r in range(1, 11):
                counts[r] = shoe[r] - comps[i, r] - (1 if r == up else 0)
                if counts[r] < 0:
                    ok = False
            if not ok:
                continue
            _dealer_dist(counts, total - ncards[i] - 1, up, nxt, final, out)
            for k in range(7):
                dist[i, up, k] = out[k]
    return dist


# -- compositions ----------------------------------------------------------------------------------
@dataclass
class Compositions:
    counts: np.ndarray          # (m, 11) cards of each value 1..10
    ncards: np.ndarray
    hard: np.ndarray
    total: np.ndarray           # the player's best total (hand.player_total)
    soft: np.ndarray
    child: np.ndarray           # (m, 11): index after one more card, -1 on a bust
    index: dict[tuple[int, ...], int] = field(default_factory=dict)


def compositions() -> Compositions:
    """Every multiset of values 1..10 with hard total <= 21 (one card or more), with its children."""
    keys: list[tuple[int, ...]] = []

    def grow(prefix: list[int], start: int, hard: int) -> None:
        for v in range(start, 11):
            if hard + v > 21:
                break
            prefix.append(v)
            key = [0] * 11
            for x in prefix:
                key[x] += 1
            keys.append(tuple(key))
            grow(prefix, v, hard + v)
            prefix.pop()

    grow([], 1, 0)
    index = {k: i for i, k in enumerate(keys)}
    m = len(keys)
    counts = np.array(keys, dtype=np.int64)
    ncards = counts.sum(axis=1)
    hard = (counts * np.arange(11)).sum(axis=1)
    total = np.zeros(m, dtype=np.int64)
    soft = np.zeros(m, dtype=np.bool_)
    child = np.full((m, 11), -1, dtype=np.int64)
    for i, k in enumerate(keys):
        vals = [v for v in range(1, 11) for _ in range(k[v])]
        total[i] = player_total(vals)
        soft[i] = is_soft(vals)
        for r in range(1, 11):
            nk = list(k)
            nk[r] += 1
            child[i, r] = index.get(tuple(nk), -1)
    return Compositions(counts, ncards, hard, total, soft, child, index)


def full_shoe(rules: BlackjackRules) -> np.ndarray:
    shoe = np.zeros(11, dtype=np.int64)
    shoe[1:10] = 4 * rules.decks
    shoe[10] = 16 * rules.decks
    return shoe


# -- the solution ----------------------------------------------------------------------------------
@dataclass
class Solution:
    """The derived chart and its exact expectation. Charts are indexed [soft][total][up] (up 1..10 = A..T)."""

    jurisdiction: str
    hs: np.ndarray              # hit/stand for hands of three or more cards
    first: np.ndarray           # two-card decision: stand, hit, double or surrender
    pair: np.ndarray            # [value][up]: True = split
    can_double: np.ndarray      # [is_split][v1][v2]: the rules allow the double
    ev: float                   # player's expectation per unit bet
    house_edge: float
    table: BJTable


def _table_for(rules: BlackjackRules) -> BJTable:
    return BJTable(minimum=100, maximum=100 * max(rules.maximum_multiples))


def _weights(comps: Compositions, shoe: np.ndarray, up: int) -> np.ndarray:
    """Probability of each composition as a player's first cards, the up card out of the shoe."""
    c = shoe.copy()
    c[up] -= 1
    n_total = int(c.sum())
    w = np.zeros(len(comps.ncards))
    lf = [math.lgamma(x + 1) for x in range(n_total + 2)]
    for i in range(len(w)):
        k = comps.counts[i]
        n = int(comps.ncards[i])
        if any(k[r] > c[r] for r in range(1, 11)):
            continue
        log = lf[n] - lf[n_total] + lf[n_total - n]
        for r in range(1, 11):
            if k[r]:
                log += lf[int(c[r])] - lf[int(c[r] - k[r])] - lf[int(k[r])]
        w[i] = math.exp(log)
    return w


def _draw_probs(comps: Compositions, shoe: np.ndarray, up: int) -> np.ndarray:
    """q[i, r]: the next card is r, given composition i and the up card out."""
    left = shoe[None, :] - comps.counts
    left[:, up] -= 1
    left = np.clip(left, 0, None).astype(float)
    left[:, 0] = 0
    n = left.sum(axis=1, keepdims=True)
    return left / np.where(n > 0, n, 1)


def _class_order() -> list[tuple[int, int]]:
    """(soft, total) in an order where every hit leads to a class already solved."""
    return ([(0, t) for t in range(21, 10, -1)] + [(1, t) for t in range(21, 11, -1)]
            + [(0, t) for t in range(10, 1, -1)])


def solve(rules: BlackjackRules, table: BJTable | None = None) -> Solution:
    """The chart and its edge for a jurisdiction (and a table's readings: re-split aces, hard-only doubles)."""
    table = table or _table_for(rules)
    return _solve_cached(rules.jurisdiction, table.resplit_aces, table.double_hard_only)


@dataclass
class _FirstDecision:
    """A two-card hand played by the first-decision chart against one up card."""

    first: np.ndarray
    up: int
    comps: Compositions
    allowed: np.ndarray
    dbl: np.ndarray
    value: np.ndarray
    stand: np.ndarray

    def __call__(self, i: int, split_hand: bool, split_card: int = 0) -> float:
        """A split hand: no surrender, and its own doubling rule, looked up with the split card first (a 6 split
        that draws an ace is no split ace: allowed[1, 6, 1], not allowed[1, 1, 6])."""
        comps = self.comps
        v1, v2 = _values_of(comps, i)
        if split_hand and split_card and v1 != split_card:
            v1, v2 = split_card, v1
        a = int(self.first[int(comps.soft[i]), int(comps.total[i]), self.up])
        if a == DOUBLE and self.allowed[int(split_hand), v1, v2]:
            return float(self.dbl[i])
        if a == SURRENDER and not split_hand:
            return -0.5
        return float(self.value[i]) if comps.total[i] < 21 else float(self.stand[i])


@lru_cache(maxsize=16)
def _solve_cached(jurisdiction: str, resplit_aces: bool, double_hard_only: bool) -> Solution:
    return solve_rules(BLACKJACK_RULES[jurisdiction], resplit_aces, double_hard_only)


def _stand_values(comps: Compositions, d: np.ndarray) -> np.ndarray:
    """Standing's expectation for every composition against the dealer's law d (no hole card: his Black-Jack
    beats every non-natural hand, 000:356; A9-2)."""
    stand = d[:, 6] - d[:, 5]
    for k, dt in enumerate(range(17, 22)):
        stand = stand + d[:, k] * np.sign(comps.total - dt)
    return stand


def _chart_values(comps: Compositions, q: np.ndarray, stand: np.ndarray, hs_up: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(value, double) of every composition played by a fixed hit/stand chart hs_up[soft, total], drawing with
    the probabilities q: the split hands' values from the shoe less the partner and re-split cards."""
    order = np.array(_class_order(), dtype=np.int64)
    return _chart_values_nb(order, comps.soft, comps.total, comps.child, q, stand, hs_up.astype(np.int64))


@njit(cache=True)
def _chart_values_nb(order: np.ndarray, soft: np.ndarray, total: np.ndarray, child: np.ndarray, q: np.ndarray,
                     stand: np.ndarray, hs_up: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    m = soft.shape[0]
    value = np.full(m, np.nan)
    dbl = np.full(m, np.nan)
    for c in range(order.shape[0]):
        sf, tot = order[c, 0], order[c, 1]
        for i in range(m):
            if soft[i] != (sf == 1) or total[i] != tot:
                continue
            h = 0.0
            g = 0.0
            for r in range(1, 11):
                if q[i, r] == 0:
                    continue
                j = child[i, r]
                h += q[i, r] * (-1.0 if j < 0 else value[j])
                g += q[i, r] * (-1.0 if j < 0 else stand[j])
            dbl[i] = 2 * g
            value[i] = stand[i] if tot == 21 or hs_up[sf, tot] == STAND else h
    return value, dbl


def _split_dealer(comps: Compositions, dist: np.ndarray, less: np.ndarray, x: int, k: int, nxt: np.ndarray,
                  final: np.ndarray) -> np.ndarray:
    """The dealer's law against every holding of a split x hand, the shoe less k more x's: a holding c drawn from
    that shoe leaves what c + k x's leave the full shoe (its row of `dist` when that is a holding too); the others
    are recursed anew. Holdings without an x are no split hand's (left at zero)."""
    out = np.zeros_like(dist)
    todo = []
    for i in np.nonzero(comps.counts[:, x] >= 1)[0]:
        key = list(comps.counts[i])
        key[x] += k
        j = comps.index.get(tuple(key))
        if j is None:
            todo.append(i)
        else:
            out[i] = dist[j]
    if todo:
        rows = np.array(todo, dtype=np.int64)
        out[rows] = _all_dealer(less, comps.counts[rows], comps.ncards[rows], nxt, final)
    return out


def solve_rules(rules: BlackjackRules, resplit_aces: bool = True, double_hard_only: bool = False,
                allow_split: bool = True) -> Solution:
    """The chart and its edge for any rules object (a jurisdiction's, or a variant: decks, S17/H17, DAS ...);
    `allow_split=False`: no pair is split (the cross-check's split-free variants, exact but for float64)."""
    table = _table_for(rules)
    table.resplit_aces, table.double_hard_only = resplit_aces, double_hard_only
    comps = _comps()
    shoe = full_shoe(rules)
    nxt, final = dealer_tables(rules)
    dist = _all_dealer(shoe, comps.counts, comps.ncards, nxt, final)
    # the dealer's law for split hands: the shoe less the partner card x and the re-split x's (k of them)
    partner: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
    for x in range(1, 11):
        deepest = SPLIT_HANDS - 1 if rules.resplit and allow_split and (x != 1 or resplit_aces) else 1
        for k in range(1, deepest + 1):
            less = shoe.copy()
            less[x] -= k
            if less[x] >= 1:
                partner[x, k] = (less, _split_dealer(comps, dist, less, x, k, nxt, final))
    m = len(comps.ncards)
    allowed = _double_table(rules, table)
    hs = np.zeros((2, 22, 11), dtype=np.int8)
    first = np.zeros((2, 22, 11), dtype=np.int8)
    pair = np.zeros((11, 11), dtype=np.bool_)
    ev_total = 0.0
    n_shoe = int(shoe.sum())
    for up in range(1, 11):
        d = dist[:, up, :]
        # stand: the dealer's bust wins, a dealer Black-Jack beats every non-natural hand (000:356; A9-2)
        stand = _stand_values(comps, d)
        q = _draw_probs(comps, shoe, up)
        w = _weights(comps, shoe, up)
        value = np.full(m, np.nan)          # the chart's value of a hand of 3+ cards
        hit = np.full(m, np.nan)
        dbl = np.full(m, np.nan)
        for soft, tot in _class_order():
            members = np.nonzero((comps.soft == bool(soft)) & (comps.total == tot) & (comps.ncards >= 2))[0]
            if not len(members):
                continue
            for i in members:
                h = 0.0
                g = 0.0
                for r in range(1, 11):
                    if q[i, r] == 0:
                        continue
                    j = comps.child[i, r]
                    h += q[i, r] * (-1.0 if j < 0 else value[j])
                    g += q[i, r] * (-1.0 if j < 0 else stand[j])
                hit[i] = h
                dbl[i] = 2 * g
            ws, wh = float(w[members] @ stand[members]), float(w[members] @ hit[members])
            choice = STAND if tot == 21 or ws >= wh else HIT
            hs[soft, tot, up] = choice
            value[members] = stand[members] if choice == STAND else hit[members]
        # two-card decisions, per class, with each holding's own options (a double the rules refuse falls back)
        two = np.nonzero(comps.ncards == 2)[0]
        opts = {}
        for i in two:
            v1, v2 = _values_of(comps, i)
            if is_natural([v1, v2]):
                continue
            base = value[i]
            ev = {STAND: stand[i], HIT: hit[i] if comps.total[i] < 21 else stand[i]}
            ev[DOUBLE] = dbl[i] if allowed[0, v1, v2] else base
            ev[SURRENDER] = -0.5 if rules.surrender and up != 1 else base
            opts[i] = ev
        for soft in (0, 1):
            for tot in range(4, 22):
                members = [i for i in opts if comps.soft[i] == bool(soft) and comps.total[i] == tot]
                if not members:
                    continue
                best, best_ev = STAND, -np.inf
                for a in (STAND, HIT, DOUBLE, SURRENDER):
                    e = sum(w[i] * opts[i][a] for i in members)
                    if e > best_ev + 1e-15:
                        best, best_ev = a, e
                first[soft, tot, up] = best

        first_ev = _FirstDecision(first, up, comps, allowed, dbl, value, stand)

        split_evs = {}
        for x in range(1, 11):
            i_pair = comps.index[_key([x, x])]
            no_split = first_ev(i_pair, False)
            levels = {}
            for k in range(1, SPLIT_HANDS):
                if (x, k) not in partner:
                    break
                less, pdist = partner[x, k]
                if less[up] < 1 + (1 if up == x else 0):
                    break
                p_stand = _stand_values(comps, pdist[:, up, :])
                p_q = _draw_probs(comps, less, up)
                p_value, p_dbl = _chart_values(comps, p_q, p_stand, hs[:, :, up])
                levels[k + 1] = (p_q, p_stand, _FirstDecision(first, up, comps, allowed, p_dbl, p_value, p_stand))
            if not allow_split or 2 not in levels:
                split_evs[x] = -np.inf
                continue
            split_evs[x] = _split_ev(rules, table, comps, levels, up, x)
            pair[x, up] = split_evs[x] > no_split
        # the whole shoe: P(up) x P(two cards | up out) x EV of the chart
        p_up = shoe[up] / n_shoe
        for i in two:
            v1, v2 = _values_of(comps, i)
            if is_natural([v1, v2]):
                e = float(rules.blackjack_pays) * (1 - d[i, 5])
            elif v1 == v2 and pair[v1, up]:
                e = split_evs[v1]
            else:
                e = first_ev(i, False)
            ev_total += p_up * w[i] * e
    return Solution(rules.jurisdiction, hs, first, pair, allowed, ev_total, -ev_total, table)


def _split_ev(rules: BlackjackRules, table: BJTable, comps: Compositions, levels: dict[int, tuple[Any, Any, Any]],
              up: int, x: int) -> float:
    """Split x-x, re-splits to four hands. levels[n] = (q, stand, first_ev) of the shoe less the n - 1 other x's
    that n split hands show: a hand's second card is drawn, and the hand valued, from that shoe (the partner and
    the re-split x's out; the other hands' drawn cards are not removed: the one approximation)."""
    one = comps.index[_key([x])]
    aces = x == 1
    can_resplit = rules.resplit and (not aces or table.resplit_aces)
    limit = SPLIT_HANDS if can_resplit else 2

    def level(n: int) -> tuple[float, float, float]:
        """(P(the next card is x), value of x + another card, value of x + x) with n hands showing."""
        q, stand, first_ev = levels[min(n, max(levels))]
        p = float(q[one, x])
        others = 0.0
        for r in range(1, 11):
            if r == x or q[one, r] == 0:
                continue
            i = comps.child[one, r]
            others += q[one, r] * (float(stand[i]) if aces and rules.split_aces_one_card else first_ev(i, True, x))
        i_xx = comps.child[one, x]
        v_pair = 0.0
        if p > 0:
            v_pair = float(stand[i_xx]) if aces and rules.split_aces_one_card else first_ev(i_xx, True, x)
        return p, (others / (1 - p) if p < 1 else 0.0), v_pair

    lv = {n: level(n) for n in range(2, limit + 1)}
    memo: dict[tuple[int, int], float] = {}

    def value(n: int, pending: int) -> float:
        """Expected total of the `pending` hands still to draw their second card, n hands showing."""
        if pending == 0:
            return 0.0
        if (n, pending) in memo:
            return memo[n, pending]
        p, v_other, v_pair = lv[n]
        rest = value(n, pending - 1)
        v = (1 - p) * (v_other + rest)
        if p > 0:
            v += p * (value(n + 1, pending + 1) if n < limit else v_pair + rest)
        memo[n, pending] = v
        return v

    return value(2, 2)


def _key(values: list[int]) -> tuple[int, ...]:
    k = [0] * 11
    for v in values:
        k[v] += 1
    return tuple(k)


def _values_of(comps: Compositions, i: int) -> tuple[int, int]:
    vals = [v for v in range(1, 11) for _ in range(int(comps.counts[i, v]))]
    return vals[0], vals[-1]


@lru_cache(maxsize=1)
def _comps() -> Compositions:
    return compositions()


def _double_table(rules: BlackjackRules, table: BJTable) -> np.ndarray:
    """allowed[is_split, v1, v2]: the reducer's own can_double on that two-card hand (split aces excluded)."""
    out = np.zeros((2, 11, 11), dtype=np.bool_)
    for split in (0, 1):
        for v1 in range(1, 11):
            for v2 in range(1, 11):
                hand = Hand(1, [_card(v1), _card(v2)], split=bool(split), split_aces=bool(split) and v1 == 1)
                out[split, v1, v2] = BlackjackGame.can_double(rules, table, hand)[0]
    return out


# -- what the CLI, the terminal and `tapete edge` ask -------------------------------------------------
def exact_edges(rules: BlackjackRules) -> list[Any]:
    from tapete.analysis.exact import EdgeResult

    sol = solve(rules)
    out = [EdgeResult("main", None, "basic-strategy", Fraction(sol.house_edge), "enumerated-float", NOTE,
                      error_bound=ERROR_BOUND, approximation=APPROXIMATION)]
    if rules.bolsa:
        out.append(EdgeResult("bolsa", None, "jackpot-3000x", bolsa_edge(rules, sol), "exact",
                              "exact rational; the jackpot at its minimum, 3000 x the stake"))
    return out


def bolsa_edge(rules: BlackjackRules, sol: Solution | None = None) -> Fraction:
    """The Bolsa's exact edge: the box's first three cards, in dealing order, from a full shoe (003:823-843).

    By exchangeability the box's first two cards are any two cards of the shoe. A third card comes when the
    chart does not stand on 7-7 against the up card (an unseen card between them); it then completes three
    suited 7s (the same card again) or three suits (a 7 of a suit not yet seen)
    (docs/rulings.md#blackjack-bolsa).
    """
    sol = sol or solve(rules)
    d = rules.decks
    n = d * 52
    pays = rules.bolsa_pays or {}
    first = Fraction(4 * d, n)
    two_suited = first * Fraction(d - 1, n - 1)
    two_mixed = first * Fraction(3 * d, n - 1)

    def third(good: int) -> Fraction:
        """P(a third card comes and is one of `good` cards | two 7s), summed over the up card."""
        total = Fraction(0)
        for up in range(1, 11):
            if int(sol.first[0, 14, up]) == STAND and not sol.pair[7, up]:
                continue
            if up == 7:
                sevens = 4 * d - 2
                total += Fraction(good, n - 2) * Fraction(good - 1, n - 3)
                total += Fraction(sevens - good, n - 2) * Fraction(good, n - 3)
            else:
                count = 4 * d if up < 10 else 16 * d
                total += Fraction(count, n - 2) * Fraction(good, n - 3)
        return total

    three_suited = two_suited * third(d - 2)
    three_mixed = two_mixed * third(2 * d)
    win = (three_suited * (1 + BOLSA_JACKPOT_MINIMUM)
           + three_mixed * (1 + pays["three-sevens"])
           + (two_suited - three_suited) * (1 + pays["two-sevens-suited"])
           + (two_mixed - three_mixed) * (1 + pays["two-sevens"])
           + (first - two_suited - two_mixed) * (1 + pays["first-seven"]))
    return 1 - win


def advice(jurisdiction: str, cards: list[str], up: str, *, split: bool = False, split_aces: bool = False,
           first_decision: bool = True, hands: int = 1, table: BJTable | None = None) -> str:
    """The chart's verb for a hand (cards in docs/format.md notation) against the dealer's up card; `hands`: how many
    hands the box already plays (the chart splits up to four)."""
    from tapete.games.blackjack.hand import value

    rules = BLACKJACK_RULES[jurisdiction]
    sol = solve(rules, table)
    vals = [value(c) for c in cards]
    u = value(up)
    tot = player_total(vals)
    soft = int(is_soft(vals))
    game_hand = Hand(1, list(cards), split=split, split_aces=split_aces)
    if tot >= 21 or split_aces and len(vals) >= 2 and not (vals[0] == vals[1] == 1):
        return "stand"
    if (len(vals) == 2 and vals[0] == vals[1] and sol.pair[vals[0], u] and hands < SPLIT_HANDS
            and BlackjackGame.can_split(rules, sol.table, game_hand)[0]):
        return "split"
    if split_aces:
        return "stand"
    if len(vals) == 2:
        a = int(sol.first[soft, tot, u])
        if a == DOUBLE and BlackjackGame.can_double(rules, sol.table, game_hand)[0]:
            return "double"
        if a == SURRENDER and first_decision and not split and rules.surrender and u != 1:
            return "surrender"
    return ACTIONS[int(sol.hs[soft, tot, u])]


def chart(jurisdiction: str) -> dict[str, Any]:
    """The derived chart as data: rows hard 5-20, soft 13-20, pairs; cells S H D Ds R Rs P."""
    rules = BLACKJACK_RULES[jurisdiction]
    sol = solve(rules)
    ups = list(range(2, 11)) + [1]

    def cell(soft: int, tot: int, up: int) -> str:
        a, h = int(sol.first[soft, tot, up]), int(sol.hs[soft, tot, up])
        if a == DOUBLE:
            return "D" if h == HIT else "Ds"
        if a == SURRENDER:
            return "R" if h == HIT else "Rs"
        return "H" if a == HIT else "S"

    hard = {str(t): [cell(0, t, u) for u in ups] for t in range(5, 21)}
    soft = {f"A,{t - 11}": [cell(1, t, u) for u in ups] for t in range(13, 21)}
    pairs = {}
    for x in (2, 3, 4, 5, 6, 7, 8, 9, 10, 1):
        name = f"{CARD_TEXT.get(x, str(x))},{CARD_TEXT.get(x, str(x))}"
        tot, sft = (12, 1) if x == 1 else (2 * x, 0)
        pairs[name] = ["P" if sol.pair[x, u] else cell(sft, tot, u) for u in ups]
    return {"jurisdiction": jurisdiction, "up": [CARD_TEXT.get(u, str(u)) for u in ups], "hard": hard, "soft": soft,
            "pairs": pairs, "house_edge": sol.house_edge, "house_edge_percent": round(sol.house_edge * 100, 4),
            "legend": {"S": "stand", "H": "hit", "D": "double, else hit", "Ds": "double, else stand",
                       "R": "surrender, else hit", "Rs": "surrender, else stand", "P": "split"}}


# -- simulation: the same chart on random shoes, compiled ----------------------------------------------
HIST_ZERO = 2 * 2 * SPLIT_HANDS + 1      # results run from -2 x SPLIT_HANDS to +2 x SPLIT_HANDS units (doubled)
HIST_SIZE = 2 * HIST_ZERO + 1

@njit(cache=True, inline="always")
def _draw(deck: np.ndarray, left: np.ndarray) -> int:
    """One card without replacement: a random position among the cards left, swapped to the end (partial
    Fisher-Yates), so the array stays a permutation of the full shoe for the next hand."""
    n = left[0]
    j = int(np.random.random() * n)
    n -= 1
    card = deck[j]
    deck[j] = deck[n]
    deck[n] = card
    left[0] = n
    return card


@njit(cache=True, inline="always")
def _play(counts: np.ndarray, left: np.ndarray, hard: int, ace: int, n: int, up: int, split: int, aces: int,
          first: np.ndarray, hs: np.ndarray, dbl_ok: np.ndarray, ptot: np.ndarray, psoft: np.ndarray,
          v1: int, v2: int, surrender_ok: int) -> tuple[int, int, int]:
    """Play one hand by the chart from its first two cards: (final total or 22 bust, units, surrendered)."""
    units = 1
    if aces == 1:
        return ptot[hard, ace], 1, 0
    t = ptot[hard, ace]
    s = psoft[hard, ace]
    if t >= 21:
        return t, 1, 0
    a = first[s, t, up]
    if a == 2 and dbl_ok[split, v1, v2]:
        v = _draw(counts, left)
        hard += v
        if v == 1:
            ace = 1
        return (ptot[hard, ace] if hard <= 21 else 22), 2, 0
    if a == 3 and surrender_ok == 1:
        return t, 1, 1
    while True:
        t = ptot[hard, ace]
        if t >= 21:
            return t, units, 0
        if hs[psoft[hard, ace], t, up] == 0:
            return t, units, 0
        v = _draw(counts, left)
        hard += v
        if v == 1:
            ace = 1
        if hard > 21:
            return 22, units, 0


@njit(cache=True)
def _simulate(n_hands: int, seed: int, shoe: np.ndarray, first: np.ndarray, hs: np.ndarray, pair: np.ndarray,
              dbl_ok: np.ndarray, nxt: np.ndarray, final: np.ndarray, ptot: np.ndarray, psoft: np.ndarray,
              bj_pays: float, surrender: int, resplit: int, resplit_aces: int, max_hands: int,
              trace: np.ndarray, outcome: np.ndarray, hist: np.ndarray, sevens: np.ndarray) -> tuple[float, float]:
    """Sum and sum of squares of the player's result per unit bet, each hand from a full shoe. The first
    len(trace) hands leave their cards in dealing order in `trace` and their result in `outcome` (to replay them
    through the reducer).

    `hist` counts the results exactly: index 0 a Black-Jack paid, else HIST_ZERO + 2 x the result in units (a
    surrender is -1/2). `sevens` counts, for the Bolsa, the pattern of 7s among the box's first card, the up
    card, the box's second card and the next card the box receives (bits 1, 2, 4, 8; 0 when it receives none)."""
    np.random.seed(seed)
    left = np.zeros(1, dtype=np.int64)
    total_cards = 0
    for v in range(1, 11):
        total_cards += shoe[v]
    counts = np.zeros(total_cards, dtype=np.int64)     # the shoe as a deck of values
    k = 0
    for v in range(1, 11):
        for _ in range(shoe[v]):
            counts[k] = v
            k += 1
    firsts = np.zeros(8, dtype=np.int64)
    totals = np.zeros(8, dtype=np.int64)
    units = np.zeros(8, dtype=np.int64)
    acc = 0.0
    acc2 = 0.0
    last = 0.0
    for hand_no in range(n_hands + 1):
        if hand_no > 0 and hand_no - 1 < trace.shape[0]:
            used = total_cards - left[0]
            for k in range(min(used, trace.shape[1])):
                trace[hand_no - 1, k] = counts[total_cards - 1 - k]
            outcome[hand_no - 1] = last
        if hand_no == n_hands:
            break
        left[0] = total_cards
        p1 = _draw(counts, left)
        up = _draw(counts, left)
        p2 = _draw(counts, left)
        before = left[0]
        pattern = (1 if p1 == 7 else 0) + (2 if up == 7 else 0) + (4 if p2 == 7 else 0)
        result = 0.0
        if (p1 == 1 and p2 == 10) or (p1 == 10 and p2 == 1):
            d2 = _draw(counts, left)
            dealer_bj = (up == 1 and d2 == 10) or (up == 10 and d2 == 1)
            result = 0.0 if dealer_bj else bj_pays
            acc += result
            acc2 += result * result
            last = result
            hist[HIST_ZERO if dealer_bj else 0] += 1
            sevens[pattern] += 1
            continue
        nh = 0
        if p1 == p2 and pair[p1, up]:
            nh = 2
            firsts[0] = p1
            firsts[1] = p1
            h = 0
            while h < nh:
                x = firsts[h]
                v = _draw(counts, left)
                if v == x and nh < max_hands and resplit == 1 and (x != 1 or resplit_aces == 1):
                    firsts[nh] = x
                    nh += 1
                    continue      # this hand is [x] again: it draws anew
                hard = x + v
                ace = 1 if (x == 1 or v == 1) else 0
                t, u, sur = _play(counts, left, hard, ace, 2, up, 1, 1 if x == 1 else 0, first, hs, dbl_ok,
                                  ptot, psoft, x, v, 0)
                totals[h] = t
                units[h] = u
                h += 1
        else:
            sur_ok = 1 if (surrender == 1 and up != 1) else 0
            t, u, sur = _play(counts, left, p1 + p2, 1 if (p1 == 1 or p2 == 1) else 0, 2, up, 0, 0, first, hs,
                              dbl_ok, ptot, psoft, p1, p2, sur_ok)
            if sur == 1:
                acc += -0.5
                acc2 += 0.25
                last = -0.5
                hist[HIST_ZERO - 1] += 1
                sevens[pattern] += 1
                continue
            nh = 1
            totals[0] = t
            units[0] = u
        if left[0] < before and counts[before - 1] == 7:   # the box's next card (the swap put it there)
            pattern += 8
        sevens[pattern] += 1
        live = False
        for h in range(nh):
            if totals[h] <= 21:
                live = True
        dealer_bj = False
        dt = 0
        if live:
            st = 2 * up + (1 if up == 1 else 0)
            d2 = _draw(counts, left)
            dealer_bj = (up == 1 and d2 == 10) or (up == 10 and d2 == 1)
            st = nxt[st, d2]
            while final[st] < 0:
                st = nxt[st, _draw(counts, left)]
            dt = final[st]
        for h in range(nh):
            t = totals[h]
            u = units[h]
            if t > 21 or dealer_bj:
                result -= u
            elif dt > 21 or t > dt:
                result += u
            elif t < dt:
                result -= u
        acc += result
        acc2 += result * result
        last = result
        hist[HIST_ZERO + int(2 * result)] += 1
    return acc, acc2


def _player_tables() -> tuple[np.ndarray, np.ndarray]:
    """ptot[hard, ace] and psoft[hard, ace] from hand.player_total / is_soft."""
    ptot = np.zeros((32, 2), dtype=np.int64)
    psoft = np.zeros((32, 2), dtype=np.int64)
    for hard in range(2, 32):
        for ace in (0, 1):
            vals = [1, hard - 1] if ace else [hard]
            ptot[hard, ace] = min(player_total(vals), 22)
            psoft[hard, ace] = int(is_soft(vals))
    return ptot, psoft


@dataclass(frozen=True)
class SimulationResult:
    hands: int
    mean: float                 # player's result per unit bet
    stderr: float
    seconds: float              # CPU seconds
    trace: np.ndarray | None = field(default=None, compare=False, repr=False)
    outcome: np.ndarray | None = field(default=None, compare=False, repr=False)

    @property
    def house_edge(self) -> float:
        return -self.mean

    def interval(self, z: float = 3.0) -> tuple[float, float]:
        """The house edge's confidence interval, z standard errors either side."""
        return self.house_edge - z * self.stderr, self.house_edge + z * self.stderr


def simulate(jurisdiction: str, hands: int, seed: int = 1, chunks: int = 1, traced: int = 0) -> SimulationResult:
    """The derived chart played on `hands` hands, each from a full shuffled shoe (seeded; NumPy streams give
    each chunk its own seed, tapete.core.rng.simulation_stream). `traced`: keep the first hands' cards and
    results (`SimulationResult.trace`, `.outcome`) so the reducer can replay them."""
    import time

    from tapete.core.rng import simulation_stream

    rules = BLACKJACK_RULES[jurisdiction]
    sol = solve(rules)
    nxt, final = dealer_tables(rules)
    ptot, psoft = _player_tables()
    shoe = full_shoe(rules)
    trace = np.zeros((traced, 40), dtype=np.int64)
    outcome = np.zeros(traced)
    hist = np.zeros(HIST_SIZE, dtype=np.int64)
    sevens = np.zeros(16, dtype=np.int64)
    per = -(-hands // chunks)
    total = total2 = 0.0
    done = 0
    start = time.process_time()      # CPU seconds of this process: one core, whatever else the machine runs
    for chunk in range(chunks):
        n = min(per, hands - done)
        if n <= 0:
            break
        chunk_seed = int(simulation_stream(seed, chunk).integers(0, 2**31 - 1))
        a, b = _simulate(n, chunk_seed, shoe, sol.first, sol.hs, sol.pair, sol.can_double, nxt, final, ptot, psoft,
                         float(rules.blackjack_pays), int(rules.surrender), int(rules.resplit),
                         int(sol.table.resplit_aces), SPLIT_HANDS, trace, outcome, hist, sevens)
        total += a
        total2 += b
        done += n
    seconds = time.process_time() - start
    mean = total / done
    var = max(total2 / done - mean * mean, 0.0)
    return SimulationResult(done, mean, math.sqrt(var / done), seconds, trace, outcome)


# -- `tapete simulate blackjack`: the same kernel, as histograms of exact returns ----------------------------
STRATEGY = "basic-strategy"          # the derived chart of `solve`, the one `tapete edge` measures


def _play_histograms(jurisdiction: str, hands: int, seed: int, traced: int = 0
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(result counts, 7-pattern counts, trace, outcome) of `hands` hands from the compiled kernel."""
    rules = BLACKJACK_RULES[jurisdiction]
    sol = solve(rules)
    nxt, final = dealer_tables(rules)
    ptot, psoft = _player_tables()
    trace = np.zeros((traced, 40), dtype=np.int64)
    outcome = np.zeros(traced)
    hist = np.zeros(HIST_SIZE, dtype=np.int64)
    sevens = np.zeros(16, dtype=np.int64)
    _simulate(hands, seed, full_shoe(rules), sol.first, sol.hs, sol.pair, sol.can_double, nxt, final, ptot, psoft,
              float(rules.blackjack_pays), int(rules.surrender), int(rules.resplit), int(sol.table.resplit_aces),
              SPLIT_HANDS, trace, outcome, hist, sevens)
    return hist, sevens, trace, outcome


def main_returns(rules: BlackjackRules) -> list[Fraction]:
    """Return per unit initially staked (1 + net) of each index of the kernel's result histogram."""
    out = [1 + Fraction(i - HIST_ZERO, 2) for i in range(HIST_SIZE)]
    out[0] = 1 + Fraction(rules.blackjack_pays)      # 000:350-356 via the rules object: the Black-Jack payout
    return out


def bolsa_return(game: BlackjackGame, rules: BlackjackRules, cards: list[str]) -> Fraction:
    """What the reducer's own Bolsa settlement (003:823-843) returns per unit on the box's first cards."""
    from types import SimpleNamespace

    state = SimpleNamespace(box_cards={1: cards}, limits=SimpleNamespace(bolsa_jackpot=None))
    bet = SimpleNamespace(box=1, amount=1)
    return Fraction(game._bolsa(state, rules, bet))  # type: ignore[arg-type]  # noqa: SLF001


def bolsa_histogram(game: BlackjackGame, rules: BlackjackRules, sevens: np.ndarray,
                    gen: np.random.Generator) -> dict[Fraction, int]:
    """The Bolsa's returns: the kernel counts the pattern of 7s among (box card 1, up card, box card 2, the box's
    next card); the suits of those 7s are a uniform draw without replacement from the shoe's 4 x decks sevens
    (drawn here from `gen`), and the reducer's `_bolsa` settles each suit pattern."""
    per_suit = rules.decks
    hist: dict[Fraction, int] = {}
    memo: dict[tuple[str, ...], Fraction] = {}
    other = "2S"
    for pattern, k in enumerate(sevens):
        k = int(k)
        if not k:
            continue
        where = [i for i in range(4) if pattern >> i & 1]
        m = len(where)
        if not m or not pattern & 1:               # no 7 first: only the suitless classes matter
            key = (other,)
            if key not in memo:
                memo[key] = bolsa_return(game, rules, [other, other, other])
            hist[memo[key]] = hist.get(memo[key], 0) + k
            continue
        picks = gen.integers(0, np.arange(4 * per_suit, 4 * per_suit - m, -1), size=(k, m), dtype=np.int64)
        suits = np.empty((k, m), dtype=np.int64)
        pool = np.tile(np.arange(4 * per_suit), (k, 1))   # sevens 0..4d-1, suit = index % 4
        rows = np.arange(k)
        for j in range(m):                          # partial Fisher-Yates over each row's pool
            pos = j + picks[:, j]
            chosen = pool[rows, pos].copy()
            pool[rows, pos] = pool[rows, j]
            pool[rows, j] = chosen
            suits[:, j] = chosen % 4
        codes, counts = np.unique(suits @ (4 ** np.arange(m)), return_counts=True)
        for code, n in zip(codes, counts, strict=True):
            suit = [int(code) // 4**j % 4 for j in range(m)]
            seq = {pos: "7" + "SHDC"[s] for pos, s in zip(where, suit, strict=True)}
            box = [seq.get(0, other), seq.get(2, other)] + ([seq[3]] if 3 in seq else [other])
            key = tuple(box)
            if key not in memo:
                memo[key] = bolsa_return(game, rules, box)
            hist[memo[key]] = hist.get(memo[key], 0) + int(n)
    return hist


class BlackjackKernel:
    """`tapete simulate blackjack`: the main bet under the derived basic strategy, and the Bolsa (ES-AN), one box
    dealt from a full shoe each hand. The compiled kernel's own generator is seeded from the chunk's stream."""

    strategies = {"main": (STRATEGY,)}

    def __init__(self, game: BlackjackGame, jurisdiction: str) -> None:
        self.game = game
        self.jurisdiction = jurisdiction
        self.rules = game.rules_for(jurisdiction)

    def check(self, specs: list[Any]) -> None:
        from tapete.core.errors import TapeteError

        for spec in specs:
            if spec.kind == "main" and spec.option in (None, STRATEGY):
                continue
            if spec.kind == "bolsa" and self.rules.bolsa and spec.option in (None, "jackpot-3000x"):
                continue
            raise TapeteError("unknown-bet-kind", f"blackjack in {self.jurisdiction} simulates main@{STRATEGY}"
                              + (" and bolsa (the jackpot at 3000 x)" if self.rules.bolsa else "")
                              + f", not {spec.label()}")

    def run(self, specs: list[Any], rounds: int, gen: np.random.Generator) -> list[dict[Fraction, int]]:
        self.check(specs)
        hist, sevens, _, _ = _play_histograms(self.jurisdiction, rounds, int(gen.integers(0, 2**31 - 1)))
        main = {r: int(k) for r, k in zip(main_returns(self.rules), hist, strict=True) if k}
        out = []
        for spec in specs:
            out.append(dict(main) if spec.kind == "main" else bolsa_histogram(self.game, self.rules, sevens, gen))
        return out

    def traced(self, rounds: int, seed: int) -> tuple[np.ndarray, list[Fraction]]:
        """The first `rounds` hands' cards in dealing order (values; 0 pads) and each main bet's return per unit."""
        hist, _, trace, outcome = _play_histograms(self.jurisdiction, rounds, seed, traced=rounds)
        return trace, [1 + Fraction(float(x)).limit_denominator(4) for x in outcome]
