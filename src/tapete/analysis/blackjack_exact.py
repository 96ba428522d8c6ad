"""Black Jack exactly: the expectation of a fixed chart (the derived total-dependent basic strategy) as a true
Fraction, split hands and re-splits to four hands included, any number of decks.

Why it is exact (docs/games/blackjack.md#exact-splits):
1. A hand played alone: its value is a recursion over its *composition* (its cards as a multiset), the dealer's
   law computed from the shoe less those cards and the up card — every probability a ratio of card counts.
2. A split: each hand's play depends only on its own cards (a fixed chart) and the dealer's only on his. Drawing
   without replacement, the joint law of every hand's and the dealer's card sequences then does not depend on the
   order in which they take cards (each realisation has the same probability, the product of falling counts
   over the shoe's size, whatever the interleaving). So the second cards of all the split hands may be drawn
   first — the *word* of pair (P), non-pair (N) and, once four hands show, any (A) cards — and, for one hand,
   its own draws and the dealer's right after. Writing each N as "any card minus a pair card" (inclusion-
   exclusion), every term is: j given positions hold pair cards, probability g(j) = (X)_j / (N0)_j, and the
   hand is valued from the shoe less j pair cards with its second card free (EVx) or not a pair card (EVN);
   the other hands' cards are unconstrained and marginalise out (Eric Farmer's exact fixed-strategy split).
3. Machine arithmetic, exact integers: every expectation times D = 2 (N)_K (N cards, K a bound on the cards one
   round can use, 2 for the 3:2 and the half back) is an integer; it is computed modulo primes under 2^31 in
   compiled code and joined by the Chinese remainder theorem, one more prime checking the reconstruction
   (tapete.analysis.modular).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from tapete.analysis import blackjack as bj
from tapete.analysis.blackjack_words import (  # noqa: F401 - where the tests and scripts find them
    fingerprint,
    max_forced,
    split_value,
    split_words,
    word_probabilities,
)
from tapete.analysis.modular import crt, njit, primes_for

STAND, HIT, DOUBLE, SURRENDER = 0, 1, 2, 3
MAX_HANDS = 4


# -- modular kernels ---------------------------------------------------------------------------------------------
@njit(cache=True)
def _mm(a: int, b: int, p: int) -> int:
    return (a * b) % p


@njit(cache=True)
def _dealer_mod(counts: np.ndarray, n: int, up: int, nxt: np.ndarray, final: np.ndarray, out: np.ndarray,
                p: int, inv: np.ndarray) -> None:
    """The dealer's law (17..21, Black-Jack, bust) modulo p: tapete.analysis.blackjack._dealer_dist in residues."""
    for k in range(7):
        out[k] = 0
    st = np.zeros(24, dtype=np.int64)
    pr = np.zeros(24, dtype=np.int64)
    rr = np.zeros(24, dtype=np.int64)
    came = np.zeros(24, dtype=np.int64)
    st[0] = 2 * up + (1 if up == 1 else 0)
    pr[0] = 1
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
        q = (pr[depth] * c) % p * inv[left] % p
        if depth == 0 and ((up == 1 and r == 10) or (up == 10 and r == 1)):
            out[5] = (out[5] + q) % p
            continue
        ns = nxt[st[depth], r]
        f = final[ns]
        if f >= 0:
            k = 6 if f > 21 else f - 17
            out[k] = (out[k] + q) % p
            continue
        counts[r] -= 1
        left -= 1
        depth += 1
        st[depth] = ns
        pr[depth] = q
        rr[depth] = 1
        came[depth] = r


@njit(cache=True)
def _dealer_rows_mod(shoe: np.ndarray, comps: np.ndarray, ncards: np.ndarray, up: int, nxt: np.ndarray,
                     final: np.ndarray, p: int, inv: np.ndarray) -> np.ndarray:
    """dist[i, k] modulo p for the listed holdings against `up` (rows the shoe cannot hold stay 0)."""
    m = comps.shape[0]
    total = 0
    for r in range(1, 11):
        total += shoe[r]
    dist = np.zeros((m, 7), dtype=np.int64)
    counts = np.zeros(11, dtype=np.int64)
    out = np.zeros(7, dtype=np.int64)
    for i in range(m):
        ok = True
        for r in range(1, 11):
            counts[r] = shoe[r] - comps[i, r] - (1 if r == up else 0)
            if counts[r] < 0:
                ok = False
        if not ok:
            continue
        _dealer_mod(counts, total - ncards[i] - 1, up, nxt, final, out, p, inv)
        for k in range(7):
            dist[i, k] = out[k]
    return dist


@njit(cache=True)
def _values_mod(order: np.ndarray, soft: np.ndarray, total: np.ndarray, counts: np.ndarray, child: np.ndarray,
                shoe: np.ndarray, up: int, dist: np.ndarray, hs: np.ndarray, p: int, inv: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(stand, chart value, double) modulo p of every holding drawn from `shoe` against `up`, the hit/stand
    chart hs[soft, total] fixed; a dealer Black-Jack beats every non-natural hand (000:356)."""
    m = soft.shape[0]
    n_shoe = 0
    for r in range(1, 11):
        n_shoe += shoe[r]
    stand = np.zeros(m, dtype=np.int64)
    for i in range(m):
        s = dist[i, 6] - dist[i, 5]
        for k in range(5):
            dt = 17 + k
            if total[i] > dt:
                s += dist[i, k]
            elif total[i] < dt:
                s -= dist[i, k]
        stand[i] = s % p
    value = np.zeros(m, dtype=np.int64)
    dbl = np.zeros(m, dtype=np.int64)
    for c in range(order.shape[0]):
        sf, tot = order[c, 0], order[c, 1]
        for i in range(m):
            if soft[i] != (sf == 1) or total[i] != tot:
                continue
            left = n_shoe - 1
            ok = True
            for r in range(1, 11):
                left -= counts[i, r]
                if counts[i, r] + (1 if r == up else 0) > shoe[r]:
                    ok = False
            if not ok or left <= 0:
                continue
            h = 0
            g = 0
            for r in range(1, 11):
                c_r = shoe[r] - counts[i, r] - (1 if r == up else 0)
                if c_r <= 0:
                    continue
                q = c_r * inv[left] % p
                j = child[i, r]
                if j < 0:
                    h -= q
                    g -= q
                else:
                    h += q * value[j] % p
                    g += q * stand[j] % p
            dbl[i] = 2 * (g % p) % p
            value[i] = stand[i] if (tot == 21 or hs[sf, tot] == 0) else h % p
    return stand, value, dbl


# -- the evaluator -------------------------------------------------------------------------------------------------
@dataclass
class Chart:
    """What the evaluator needs of a derived chart (tapete.analysis.blackjack.Solution) and its rules."""

    hs: np.ndarray          # [soft, total, up]
    first: np.ndarray       # [soft, total, up]
    pair: np.ndarray        # [x, up]
    allowed: np.ndarray     # [is_split, v1, v2]
    bj_pays: Fraction
    surrender: bool
    cap: dict[int, int]     # pair value -> most hands (4 with re-splits, else 2)
    one_card_aces: bool


def card_bound(shoe: np.ndarray) -> int:
    """K: no round uses more cards. Four hands end at a hard total of 30 at most (a hit only below 21), the dealer
    (up card included) at 26; K cards hold at least the K smallest of the shoe."""
    most = MAX_HANDS * 30 + 26
    k = total = 0
    for v in range(1, 11):
        for _ in range(int(shoe[v])):
            if total + v > most:
                return k
            total += v
            k += 1
    return k


def denominator(shoe: np.ndarray) -> int:
    """D = 2 (N)_K: every probability of a path of k <= K cards is an integer over (N)_k, which divides (N)_K;
    the 2 clears the 3:2 and the surrender's half."""
    n = int(shoe.sum())
    d = 2
    for t in range(card_bound(shoe)):
        d *= n - t
    return d


class Evaluator:
    """One prime's pass: expectations modulo p. `run` returns residues of (EV, wager, split EVs by (up, x))."""

    def __init__(self, comps: Any, shoe: np.ndarray, nxt: np.ndarray, final: np.ndarray, chart: Chart,
                 ups: tuple[int, ...]) -> None:
        self.comps, self.shoe, self.nxt, self.final, self.chart, self.ups = comps, shoe, nxt, final, chart, ups
        self.cache: dict[Any, np.ndarray] = {}     # dealer rows by (prime, up, x, j): shared by charts of one shoe
        self.expands = (chart.hs == HIT) | (chart.first == DOUBLE)   # [soft, total, up]: a holding draws on
        self.order = np.array(bj._class_order(), dtype=np.int64)
        self.two = [i for i in np.nonzero(comps.ncards == 2)[0]]
        self.vals = {i: bj._values_of(comps, i) for i in self.two}
        self.key = bj._key
        self.reuse: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        for x in range(1, 11):
            for j in range(max_forced(MAX_HANDS) + 1):
                dst, src, todo = [], [], []
                for i in np.nonzero(comps.counts[:, x] >= 1)[0]:
                    key = list(comps.counts[i])
                    key[x] += 1 + j          # the holding and the other x's: a holding of the full shoe's table?
                    k = comps.index.get(tuple(key))
                    if k is None:
                        todo.append(i)
                    else:
                        dst.append(i)
                        src.append(k)
                self.reuse[x, j] = (np.array(dst, dtype=np.int64), np.array(src, dtype=np.int64),
                                    np.array(todo, dtype=np.int64))

    def _first(self, i: int, up: int, split_card: int, stand: np.ndarray, value: np.ndarray, dbl: np.ndarray,
               p: int, half: int) -> tuple[int, int]:
        """(value, units wagered) of a two-card holding played by the first-decision chart (tapete.analysis.
        blackjack._FirstDecision): a split hand may not surrender and looks its double up split card first."""
        c, ch = self.comps, self.chart
        v1, v2 = self.vals[i]
        split = split_card > 0
        if split and v1 != split_card:
            v1, v2 = split_card, v1
        a = int(ch.first[int(c.soft[i]), int(c.total[i]), up])
        if a == DOUBLE and ch.allowed[int(split), v1, v2]:
            return int(dbl[i]), 2
        if a == SURRENDER and not split and ch.surrender and up != 1:
            return (p - half) % p, 1
        return (int(value[i]) if c.total[i] < 21 else int(stand[i])), 1

    def reachable(self, x: int, up: int) -> np.ndarray:
        """Holdings a split x hand can reach against `up` (any chart sharing this cache: `expands` is their union)."""
        key = ("reach", x, up)
        if key not in self.cache:
            c = self.comps
            seen = np.zeros(len(c.ncards), dtype=np.bool_)
            stack = [c.index[self.key([x])]]
            seen[stack[0]] = True
            while stack:
                i = stack.pop()
                if c.total[i] >= 21 or (c.ncards[i] >= 2 and not self.expands[int(c.soft[i]), int(c.total[i]), up]):
                    continue
                for r in range(1, 11):
                    k = int(c.child[i, r])
                    if k >= 0 and not seen[k]:
                        seen[k] = True
                        stack.append(k)
            self.cache[key] = seen
        return self.cache[key]

    def run(self, p: int) -> tuple[int, int, dict[tuple[int, int], tuple[int, int]]]:
        c, ch, shoe = self.comps, self.chart, self.shoe
        n = int(shoe.sum())
        inv = np.zeros(n + 2, dtype=np.int64)
        for t in range(1, n + 2):
            inv[t] = pow(t, -1, p)
        il = [int(v) for v in inv]            # Python ints: products leave int64
        half = pow(2, -1, p)
        bj = ch.bj_pays.numerator * pow(ch.bj_pays.denominator, -1, p) % p
        ev = wager = 0
        splits: dict[tuple[int, int], tuple[int, int]] = {}
        for up in self.ups:
            if shoe[up] < 1:
                continue
            if (p, up) not in self.cache:
                self.cache[p, up] = _dealer_rows_mod(shoe, c.counts, c.ncards, up, self.nxt, self.final, p, inv)
            dist = self.cache[p, up]
            stand, value, dbl = _values_mod(self.order, c.soft, c.total, c.counts, c.child, shoe, up, dist,
                                            ch.hs[:, :, up].astype(np.int64), p, inv)
            p_up = int(shoe[up]) * il[n] % p
            ev_up = wager_up = 0
            for i in self.two:
                v1, v2 = self.vals[i]
                a1 = int(shoe[v1]) - (up == v1)
                a2 = int(shoe[v2]) - (up == v2) - (v1 == v2)
                if a1 <= 0 or a2 <= 0:
                    continue
                w = a1 * a2 * (1 if v1 == v2 else 2) % p * il[n - 1] % p * il[n - 2] % p
                if {v1, v2} == {1, 10}:
                    e, u = bj * (1 - int(dist[i, 5])) % p, 1
                elif v1 == v2 and ch.pair[v1, up]:
                    e, u = self.split(v1, up, p, inv, il, half, dist)
                    splits[up, v1] = (e, u)
                else:
                    e, u = self._first(i, up, 0, stand, value, dbl, p, half)
                ev_up += w * e
                wager_up += w * u
            ev = (ev + p_up * (ev_up % p)) % p
            wager = (wager + p_up * (wager_up % p)) % p
        return ev, wager, splits

    def split(self, x: int, up: int, p: int, inv: np.ndarray, il: list[int], half: int, base: np.ndarray) -> tuple[int, int]:
        """Split x-x against `up`, modulo p: (the box's expectation, its expected wager) per unit of the first bet,
        given the up card and the pair (split_value over the levels j = pair cards fixed beyond the two)."""
        c, ch, shoe = self.comps, self.chart, self.shoe
        cap = ch.cap[x]
        aces_one = x == 1 and ch.one_card_aces
        big_x = int(shoe[x]) - 2 - (up == x)
        n0 = int(shoe.sum()) - 3
        one = c.index[self.key([x])]
        g, evx, evn, ux, un = [], [], [], [], []
        gj = 1
        for j in range(max_forced(cap) + 1):
            g.append(gj)
            if j > big_x:         # j pair cards cannot be fixed: g(j) = 0, the level is never read
                evx.append(0), evn.append(0), ux.append(0), un.append(0)
                gj = 0
                continue
            less = shoe.copy()
            less[x] -= 1 + j      # the partner and j more pair cards; the hand's own x is in its holding
            dst, src, todo = self.reuse[x, j]
            todo = todo[self.reachable(x, up)[todo]]      # only holdings a split x hand can come to need the dealer
            dist = np.zeros((len(c.ncards), 7), dtype=np.int64)
            dist[dst] = base[src]       # the shoe less the holding and 1 + j x's = the full shoe less a bigger holding
            if len(todo):
                if (p, up, x, j) not in self.cache:
                    self.cache[p, up, x, j] = _dealer_rows_mod(less, c.counts[todo], c.ncards[todo], up, self.nxt,
                                                               self.final, p, inv)
                dist[todo] = self.cache[p, up, x, j]
            stand, value, dbl = _values_mod(self.order, c.soft, c.total, c.counts, c.child, less, up, dist,
                                            ch.hs[:, :, up].astype(np.int64), p, inv)
            left = int(less.sum()) - 1 - 1        # less the hand's x and the up card
            sx = sy = ax = ay = 0
            for r in range(1, 11):
                cnt = int(less[r]) - (r == x) - (r == up)
                if cnt <= 0:
                    continue
                q = cnt * il[left] % p
                i = int(c.child[one, r])
                e, u = (int(stand[i]), 1) if aces_one else self._first(i, up, x, stand, value, dbl, p, half)
                sx, ax = sx + q * e, ax + q * u
                if r != x:
                    sy, ay = sy + q * e, ay + q * u
            evx.append(sx % p), evn.append(sy % p), ux.append(ax % p), un.append(ay % p)
            gj = gj * (big_x - j) % p * il[n0 - j] % p if n0 - j > 0 else 0
        return split_value(cap, g, evx, evn) % p, split_value(cap, g, ux, un) % p


@dataclass(frozen=True)
class ExactResult:
    ev: Fraction                                  # player's expectation per unit of the first bet
    wager: Fraction                               # expected total money wagered per unit of the first bet
    splits: dict[tuple[int, int], tuple[Fraction, Fraction]]   # (up, x) -> (EV, wager) given up and pair
    primes: int
    denominator_bound: int

    @property
    def house_edge(self) -> Fraction:
        return -self.ev

    @property
    def element_of_risk(self) -> Fraction:
        return self.house_edge / self.wager


def evaluate(comps: Any, shoe: np.ndarray, nxt: np.ndarray, final: np.ndarray, chart: Chart,
             ups: tuple[int, ...] = tuple(range(1, 11))) -> ExactResult:
    """The chart's exact expectation and wager over the shoe (or restricted to the up cards `ups`)."""
    return evaluate_many(comps, shoe, nxt, final, [chart], ups)[0]


def evaluate_many(comps: Any, shoe: np.ndarray, nxt: np.ndarray, final: np.ndarray, charts: list[Chart],
                  ups: tuple[int, ...] = tuple(range(1, 11))) -> list[ExactResult]:
    """evaluate for several charts on one shoe and dealer rule: the dealer's laws, most of the work, are shared."""
    if card_bound(shoe) >= int(shoe.sum()):
        raise ValueError("a round could exhaust this shoe: the method assumes it never does")
    d = denominator(shoe)
    offset = 8 * d                               # |EV| and the wager stay within 8 units (four doubled hands)
    primes = primes_for(16 * d)
    jobs = [Evaluator(comps, shoe, nxt, final, chart, ups) for chart in charts]
    for job in jobs[1:]:
        job.cache = jobs[0].cache
        jobs[0].expands |= job.expands
    for job in jobs[1:]:
        job.expands = jobs[0].expands
    ev_r: list[list[int]] = [[] for _ in charts]
    wg_r: list[list[int]] = [[] for _ in charts]
    sp_r: list[dict[tuple[int, int], list[tuple[int, int]]]] = [{} for _ in charts]
    for p in primes:
        for n, job in enumerate(jobs):
            ev, wager, splits = job.run(p)
            shift = offset % p
            ev_r[n].append((ev * (d % p) + shift) % p)
            wg_r[n].append(wager * (d % p) % p)
            for key, (e, u) in splits.items():
                sp_r[n].setdefault(key, []).append(((e * (d % p) + shift) % p, u * (d % p) % p))
        for key in [k for k in jobs[0].cache if k[0] != "reach"]:
            del jobs[0].cache[key]

    def back(res: list[int], shift: int) -> Fraction:
        *use, check = primes
        x = crt(res[:-1], use)
        if x > 16 * d or x % check != res[-1]:
            raise ArithmeticError("residues do not determine the expectation")
        return Fraction(x - shift, d)

    out = []
    for n in range(len(charts)):
        splits_out = {k: (back([e for e, _ in v], offset), back([u for _, u in v], 0)) for k, v in sp_r[n].items()}
        out.append(ExactResult(back(ev_r[n], offset), back(wg_r[n], 0), splits_out, len(primes), d))
    return out


def chart_of(rules: Any, sol: Any) -> Chart:
    """The evaluator's view of a derived chart (tapete.analysis.blackjack.Solution) under `rules`."""
    return Chart(sol.hs, sol.first, sol.pair, sol.can_double, Fraction(rules.blackjack_pays), bool(rules.surrender),
                 {x: bj._cap(rules, x, sol.table.resplit_aces) for x in range(1, 11)}, bool(rules.split_aces_one_card))


def exact_solution(rules: Any, sol: Any = None, ups: tuple[int, ...] = tuple(range(1, 11))) -> ExactResult:
    """The exact expectation of the chart tapete derives for `rules` (or of `sol`'s chart)."""
    sol = sol or bj.solve(rules)
    shoe = bj.full_shoe(rules)
    nxt, final = bj.dealer_tables(rules)
    return evaluate(bj._comps(), shoe, nxt, final, chart_of(rules, sol), ups)
