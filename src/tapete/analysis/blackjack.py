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
   every later card), insurance and even money declined. Split hands, re-splits to four hands, are valued by the
   exact word expansion (tapete.analysis.blackjack_exact): no approximation in the model.

This module works in float64 (to derive the chart); blackjack_exact evaluates the same chart as a true Fraction,
and scripts/exact_blackjack.py stores the jurisdictions' figures (blackjack_figures) that `tapete edge` reads as
`method: exact`. Every rule — the dealer's stand rule, the player's totals, who may double or split — comes from
the rules objects and the reducer's own helpers (tapete.games.blackjack), turned into lookup tables for the
compiled kernel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from tapete.analysis.blackjack_words import fingerprint, max_forced, split_value
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
EXACT_NOTE = ("exact rational for the derived total-dependent chart: every hand, split hands and re-splits to four "
              "hands included, valued from the shoe's real composition (word expansion of the splits, integer "
              "arithmetic modulo primes, Chinese remainder; scripts/exact_blackjack.py, docs/games/blackjack.md)")
NOTE = ("float64 enumeration of the derived total-dependent chart by the exact method (split hands by the word "
        "expansion); the exact figures are stored for the jurisdictions' own rules (scripts/exact_blackjack.py)")
# Without stored figures (a rules variant, or a chart the figures were not made for) the float64 evaluation of the
# exact method stands: its rounding error is below 1e-12 of a unit; 1e-9 states it with room.
ERROR_BOUND = 1e-9
APPROXIMATION = "none in the model; float64 rounding only (the exact fraction is computed by scripts/exact_blackjack.py)"
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
    # the dealer's law for split hands: the shoe less the partner card x and j more x's (k = 1 + j of them)
    partner: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
    for x in range(1, 11):
        deepest = 1 + max_forced(_cap(rules, x, resplit_aces)) if allow_split else 1
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
            for k in range(1, 2 + max_forced(_cap(rules, x, table.resplit_aces))):
                if (x, k) not in partner:
                    break
                less, pdist = partner[x, k]
                if less[up] < 1 + (1 if up == x else 0):
                    break
                p_stand = _stand_values(comps, pdist[:, up, :])
                p_q = _draw_probs(comps, less, up)
                p_value, p_dbl = _chart_values(comps, p_q, p_stand, hs[:, :, up])
                levels[k - 1] = (p_q, p_stand, _FirstDecision(first, up, comps, allowed, p_dbl, p_value, p_stand))
            if not allow_split or 0 not in levels:
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


def _cap(rules: BlackjackRules, x: int, resplit_aces: bool) -> int:
    """The most hands a split x-x may become: four with re-splits (aces only where the table allows), else two."""
    return SPLIT_HANDS if rules.resplit and (x != 1 or resplit_aces) else 2


def _split_ev(rules: BlackjackRules, table: BJTable, comps: Compositions, levels: dict[int, tuple[Any, Any, Any]],
              up: int, x: int) -> float:
    """Split x-x, re-splits to four hands, by the exact word expansion (blackjack_exact.split_value) in floats.
    levels[j] = (q, stand, first_ev) of the shoe less the partner and j more x's; g(j) = P(j given second-card
    positions hold x's)."""
    one = comps.index[_key([x])]
    aces = x == 1 and rules.split_aces_one_card
    cap = _cap(rules, x, table.resplit_aces)
    g, evx, evn = [], [], []
    gj = 1.0
    for j in range(max_forced(cap) + 1):
        g.append(gj)
        if j not in levels:
            evx.append(0.0)
            evn.append(0.0)
            gj = 0.0
            continue
        q, stand, first_ev = levels[j]
        sx = sy = 0.0
        for r in range(1, 11):
            if q[one, r] == 0:
                continue
            i = comps.child[one, r]
            e = q[one, r] * (float(stand[i]) if aces else first_ev(i, True, x))
            sx += e
            if r != x:
                sy += e
        evx.append(sx)
        evn.append(sy)
        gj *= float(q[one, x])
    return float(split_value(cap, g, evx, evn))


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
def stored_exact(rules: BlackjackRules, sol: Solution) -> tuple[Fraction, Fraction] | None:
    """(house edge, expected wager) from blackjack_figures when they were computed for this very chart, else None."""
    try:
        from tapete.analysis.blackjack_figures import FIGURES
    except ImportError:  # pragma: no cover - before scripts/exact_blackjack.py has run
        return None
    row = FIGURES.get(rules.jurisdiction)
    if row is None or rules != BLACKJACK_RULES.get(rules.jurisdiction) or row["chart"] != fingerprint(sol):
        return None
    return -Fraction(*row["ev"]), Fraction(*row["wager"])


def exact_edges(rules: BlackjackRules) -> list[Any]:
    from tapete.analysis.exact import EdgeResult, Stakes

    sol = solve(rules)
    stored = stored_exact(rules, sol)
    if stored is not None:
        main = EdgeResult("main", None, "basic-strategy", stored[0], "exact", EXACT_NOTE,
                          stakes=Stakes(Fraction(1), stored[1], "doubles and splits of the derived chart add to the "
                                        "first bet (scripts/exact_blackjack.py)"))
    else:
        main = EdgeResult("main", None, "basic-strategy", Fraction(sol.house_edge), "enumerated-float", NOTE,
                          error_bound=ERROR_BOUND, approximation=APPROXIMATION)
    out = [main]
    if rules.bolsa:
        out.append(EdgeResult("bolsa", None, "jackpot-3000x", bolsa_edge(rules, sol), "model",
                              "the jackpot (a meter) at its minimum, 3000 x the stake (003:823-843): the lowest "
                              "return the prize can give; exact arithmetic on that snapshot"))
    return out


def par_wager(game: Any, jurisdiction: str, line: Any, sheet: Any) -> tuple[Fraction | float, str] | None:
    """The PAR sheet's element of risk: the money the chart wagers per unit of the first bet (doubles and splits
    add to it), exact where the stored figures hold the chart (blackjack_figures), else the float64 enumeration."""
    rules = game.rules_for(jurisdiction)
    if line.kind == "bolsa":
        return Fraction(1), "exact: the Bolsa takes no decision, the wager is the stake"
    if line.kind != "main":
        return None
    sol = solve(rules)
    stored = stored_exact(rules, sol)
    if stored is not None:
        return stored[1], "exact: doubles and splits of the derived chart, scripts/exact_blackjack.py"
    return None      # minutes of exact arithmetic for a chart the figures do not hold: not computed on the fly


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
