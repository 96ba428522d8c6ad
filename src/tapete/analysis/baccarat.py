"""Exact baccarat mathematics: a composition-exact enumeration of a fresh shoe, in integers.

The probability of a sequence of cards drawn without replacement depends only on the multiset of their values,
so the enumeration walks unordered two-card hands (55 per hand) with their multiplicity, then the third cards,
and keeps every weight as an integer over the common denominator n(n-1)...(n-k+1). Who draws comes from the games'
own tableau functions (games/baccarat/tableau.py and the games' decision functions), never from a second copy of
the drawing rules; what a bet returns comes from the games' own settlement functions.

For each bank decision point — the bank's two-card total against the punto's third card or his stand, the cells
of the tables — both branches (stand and draw) are kept apart, so one enumeration gives the distribution of final
hands under any bank policy, and the bank's best response cell by cell.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from tapete.analysis.exact import EdgeResult
from tapete.games.baccarat import tableau


# A fresh shoe by baccarat value: 10, J, Q, K count 0 (16 a deck), every other value 4 a deck.
def shoe_counts(decks: int = 6) -> tuple[int, ...]:
    return (16 * decks,) + (4 * decks,) * 9


Key = tuple[int, int, int, int]          # (punto total, punto cards, bank total, bank cards)


def _index(pt: int, pn: int, bt: int, bn: int) -> int:
    return ((pt * 2 + pn - 2) * 10 + bt) * 2 + bn - 2


KEYS: list[Key] = [(pt, pn, bt, bn) for pt in range(10) for pn in (2, 3) for bt in range(10) for bn in (2, 3)]


@dataclass(frozen=True)
class CoupEnumeration:
    """Integer weights over `denominator` (six cards deep): `fixed` for coups no bank decision reaches (a
    natural), and per table cell (bank total, column) the final hands if the bank stands / draws there."""

    denominator: int
    fixed: tuple[int, ...]
    cells: dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...]]]

    def distribution(self, bank_draws: Callable[[int, int], bool]) -> dict[Key, Fraction]:
        """The final hands' exact distribution when the bank draws at a cell iff `bank_draws(total, column)`."""
        weights = list(self.fixed)
        for (b, c), (stand, draw) in self.cells.items():
            branch = draw if bank_draws(b, c) else stand
            for i, w in enumerate(branch):
                weights[i] += w
        return {KEYS[i]: Fraction(w, self.denominator) for i, w in enumerate(weights) if w}

    def cell_values(self, payoff: Callable[[Key], Fraction]) -> dict[tuple[int, int], tuple[Fraction, Fraction]]:
        """Per cell, the expected payoff contributed if the bank stands there and if it draws there."""
        out = {}
        for cell, (stand, draw) in self.cells.items():
            out[cell] = tuple(Fraction(sum(w * payoff(KEYS[i]) for i, w in enumerate(branch) if w), self.denominator)
                              for branch in (stand, draw))
        return out  # type: ignore[return-value]


@cache
def enumerate_coups(player_draws: tuple[bool, ...], decks: int = 6,
                    counts_by_value: tuple[int, ...] | None = None) -> CoupEnumeration:
    """Every coup of a fresh `decks`-deck shoe (or of `counts_by_value`): P, B, P, B, the punto's third card by
    `player_draws[total]`, then both branches at the bank's decision. Naturals end the coup (001:642)."""
    counts = list(counts_by_value or shoe_counts(decks))
    n = sum(counts)
    f4, f5 = (n - 4) * (n - 5), n - 5          # scale 4- and 5-card leaves to the 6-card denominator
    size = len(KEYS)
    fixed = [0] * size
    cells: dict[tuple[int, int], tuple[list[int], list[int]]] = {
        (b, c): ([0] * size, [0] * size) for b in range(8) for c in range(tableau.COLUMNS)}
    for a in range(10):
        wa = counts[a]
        if not wa:
            continue
        counts[a] -= 1
        for b in range(a, 10):
            wb = counts[b]
            if not wb:
                continue
            counts[b] -= 1
            pt = (a + b) % 10
            wp = wa * wb * (1 if a == b else 2)
            for c in range(10):
                wc = counts[c]
                if not wc:
                    continue
                counts[c] -= 1
                for d in range(c, 10):
                    wd = counts[d]
                    if not wd:
                        continue
                    counts[d] -= 1
                    bt = (c + d) % 10
                    w = wp * wc * wd * (1 if c == d else 2)
                    if pt >= 8 or bt >= 8:
                        fixed[_index(pt, 2, bt, 2)] += w * f4
                    elif player_draws[pt]:
                        for e in range(10):
                            we = counts[e]
                            if not we:
                                continue
                            counts[e] -= 1
                            p3 = (pt + e) % 10
                            stand, draw = cells[(bt, e)]
                            wwe = w * we
                            stand[_index(p3, 3, bt, 2)] += wwe * f5
                            for f in range(10):
                                if counts[f]:
                                    draw[_index(p3, 3, (bt + f) % 10, 3)] += wwe * counts[f]
                            counts[e] += 1
                    else:
                        stand, draw = cells[(bt, tableau.STAND)]
                        stand[_index(pt, 2, bt, 2)] += w * f4
                        for f in range(10):
                            if counts[f]:
                                draw[_index(pt, 2, (bt + f) % 10, 3)] += w * counts[f] * f5
                    counts[d] += 1
                counts[c] += 1
            counts[b] += 1
        counts[a] += 1
    denominator = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    used = {k: (tuple(s), tuple(d)) for k, (s, d) in cells.items() if any(s) or any(d)}
    return CoupEnumeration(denominator, tuple(fixed), used)


def expectation(dist: dict[Key, Fraction], payoff: Callable[[Key], Fraction]) -> Fraction:
    return sum((p * payoff(k) for k, p in dist.items()), Fraction(0))


# -- punto y banca ------------------------------------------------------------------------------------------------
def punto_banca_distribution(decks: int = 6) -> dict[Key, Fraction]:
    """The final hands of a fresh shoe under the punto y banca tableau (T-PB, no options)."""
    player = tuple(tableau.punto_banca_player_draws(t) for t in range(8)) + (False, False)
    return enumerate_coups(player, decks).distribution(tableau.punto_banca_bank_draws)


def punto_banca_edges(game: Any, jurisdiction: str) -> list[EdgeResult]:
    """House edge per unit staked of every punto y banca bet, from the game's own `bet_return`."""
    from tapete.games.baccarat.punto_banca import bet_return

    rules = game.rules_for(jurisdiction)
    dist = punto_banca_distribution(rules.decks)
    out = []
    for kind in rules.kinds:
        rtp = expectation(dist, lambda k, kind=kind: bet_return(rules, kind, Fraction(1), k[0], k[2])[0])
        out.append(EdgeResult(kind, None, None, 1 - rtp))
    return out


# -- chemin de fer -------------------------------------------------------------------------------------------------
def chemin_punto_draws(draw_on_five: bool) -> tuple[bool, ...]:
    """The punto's draws: 0-4 must, 5 as chosen, 6-7 stand (tableau.chemin_punto_rule)."""
    rule = [tableau.chemin_punto_rule(t) for t in range(8)]
    return tuple(r == tableau.Choice.DRAW or (r == tableau.Choice.FREE and draw_on_five) for r in rule) + (False, False)


def outcome(key: Key) -> int:
    """+1 the punto wins, -1 the bank wins, 0 a tie (jugada nula, 001:795)."""
    return (key[0] > key[2]) - (key[0] < key[2])


@dataclass(frozen=True)
class CheminAnalysis:
    """The chemin de fer figures: edges under the default decisions and the best responses."""

    results: list[EdgeResult]
    bank_cells: dict[tuple[int, int], tuple[Fraction, Fraction, str, str]]  # cell -> (EV stand, EV draw, default, best)


def chemin_analysis(game: Any, jurisdiction: str) -> CheminAnalysis:
    """Punto and bank edges under the documented defaults (the punto stands on 5 as the croupier advises,
    001:813; the bank follows T-CF drawing in its O cells), each deviation in an optional cell, and the bank's
    best response cell by cell to the punto's default — the bank's payoff net of the 5% cagnotte."""
    from tapete.games.baccarat.chemin_de_fer import bank_default_draws

    rules = game.rules_for(jurisdiction)
    rate = rules.cagnotte
    results: list[EdgeResult] = []

    def punto_edge(dist: dict[Key, Fraction]) -> Fraction:
        return -expectation(dist, lambda k: Fraction(outcome(k)))

    def bank_payoff(k: Key) -> Fraction:
        o = outcome(k)
        return Fraction(-1) if o > 0 else (1 - rate) if o < 0 else Fraction(0)

    default = enumerate_coups(chemin_punto_draws(False), rules.decks)
    drawing = enumerate_coups(chemin_punto_draws(True), rules.decks)
    results.append(EdgeResult("player", None, None, punto_edge(default.distribution(bank_default_draws))))
    results.append(EdgeResult("player", None, "draw-on-5", punto_edge(drawing.distribution(bank_default_draws))))
    results.append(EdgeResult("bank", None, None, -expectation(default.distribution(bank_default_draws), bank_payoff)))
    for b, c in ((3, 9), (5, 4)):          # the two O cells of T-CF (001:822-824, 001:1056)
        def policy(t: int, col: int, b: int = b, c: int = c) -> bool:
            return False if (t, col) == (b, c) else bank_default_draws(t, col)
        results.append(EdgeResult("bank", None, f"stand-{b}-v-{c}", -expectation(default.distribution(policy), bank_payoff)))
    values = default.cell_values(bank_payoff)
    cells: dict[tuple[int, int], tuple[Fraction, Fraction, str, str]] = {}
    best_total = expectation({KEYS[i]: Fraction(w, default.denominator) for i, w in enumerate(default.fixed) if w},
                             bank_payoff)
    for (b, c), (stand, draw) in sorted(values.items()):
        free = b != 0                        # the banker must draw on 0 (001:811); free on 1-7
        best = "draw" if (draw >= stand or not free) else "stand"
        best_total += draw if best == "draw" else stand
        cells[(b, c)] = (stand, draw, "draw" if bank_default_draws(b, c) else "stand", best)
    results.append(EdgeResult("bank", None, "best-response", -best_total))
    return CheminAnalysis(results, cells)


def chemin_de_fer_edges(game: Any, jurisdiction: str) -> list[EdgeResult]:
    return chemin_analysis(game, jurisdiction).results


def falling(n: int, k: int) -> int:
    """n (n-1) ... (n-k+1): the number of ordered draws of k cards from n."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


# -- baccara a dos paños ----------------------------------------------------------------------------------------
# Two sides and a bank: nine cards at most, so the enumeration runs in a compiled kernel over integer weights.
# A leaf weight is below 2^61; sums are carried into (high, low) pairs so nothing overflows, and Python turns
# them back into exact integers. The kernel reads tables built from the game's own functions (`bank_decision`,
# `compare`, `chemin_punto_rule`): it holds no drawing rule of its own.
CARRY_BITS = 61


def _acc(arr: Any, pos: int, w: int) -> None:
    lo = arr[pos, 0] + w
    arr[pos, 1] += lo >> 61
    arr[pos, 0] = lo & ((1 << 61) - 1)


def _two_tables_enumerate(counts: Any, draw1: Any, draw2: Any, cmp: Any, fixed: Any, cells: Any) -> None:
    """Every coup of a fresh shoe: sides 1 and 2 and the bank get two cards each (weights by unordered pairs),
    the sides draw by `draw1`/`draw2` (non-naturals), and at every bank decision both branches are kept:
    cells[((((b * 12 + c1) * 12 + c2) * 2 + branch) * 4 + depth - 6) * 9 + class]. fixed: coups with no
    bank decision (a bank natural, or both sides abated)."""
    for a1 in range(10):
        w0 = counts[a1]
        if w0 == 0:
            continue
        counts[a1] -= 1
        for b1 in range(a1, 10):
            if counts[b1] == 0:
                continue
            w1 = w0 * counts[b1] * (1 if a1 == b1 else 2)
            counts[b1] -= 1
            t1 = (a1 + b1) % 10
            for a2 in range(10):
                if counts[a2] == 0:
                    continue
                w2a = w1 * counts[a2]
                counts[a2] -= 1
                for b2 in range(a2, 10):
                    if counts[b2] == 0:
                        continue
                    w2 = w2a * counts[b2] * (1 if a2 == b2 else 2)
                    counts[b2] -= 1
                    t2 = (a2 + b2) % 10
                    for a3 in range(10):
                        if counts[a3] == 0:
                            continue
                        w3a = w2 * counts[a3]
                        counts[a3] -= 1
                        for b3 in range(a3, 10):
                            if counts[b3] == 0:
                                continue
                            w = w3a * counts[b3] * (1 if a3 == b3 else 2)
                            counts[b3] -= 1
                            _two_tables_thirds(counts, draw1, draw2, cmp, fixed, cells, w, t1, t2, (a3 + b3) % 10)
                            counts[b3] += 1
                        counts[a3] += 1
                    counts[b2] += 1
                counts[a2] += 1
            counts[b1] += 1
        counts[a1] += 1


def _two_tables_thirds(counts: Any, draw1: Any, draw2: Any, cmp: Any, fixed: Any, cells: Any, w: int,
                       t1: int, t2: int, tb: int) -> None:
    nat1, nat2 = t1 >= 8, t2 >= 8
    if tb >= 8:                      # the bank abats before any third card
        _acc(fixed, (cmp[t1, 0, tb, 0] + 1) * 3 + cmp[t2, 0, tb, 0] + 1, w)
        return
    if nat1 and nat2:
        _acc(fixed, (cmp[t1, 0, tb, 0] + 1) * 3 + cmp[t2, 0, tb, 0] + 1, w)
        return
    d1 = (not nat1) and draw1[t1]
    d2 = (not nat2) and draw2[t2]
    for i1 in range(10 if d1 else 1):
        w1 = w
        f1, n1, c1 = t1, 0, (11 if nat1 else 10)
        if d1:
            if counts[i1] == 0:
                continue
            w1 = w * counts[i1]
            counts[i1] -= 1
            f1, n1, c1 = (t1 + i1) % 10, 1, i1
        for i2 in range(10 if d2 else 1):
            w2 = w1
            f2, n2, c2 = t2, 0, (11 if nat2 else 10)
            if d2:
                if counts[i2] == 0:
                    continue
                w2 = w1 * counts[i2]
                counts[i2] -= 1
                f2, n2, c2 = (t2 + i2) % 10, 1, i2
            depth = n1 + n2
            base = ((tb * 12 + c1) * 12 + c2) * 2
            _acc(cells, ((base * 4) + depth) * 9 + (cmp[f1, n1, tb, 0] + 1) * 3 + cmp[f2, n2, tb, 0] + 1, w2)
            for f in range(10):
                if counts[f]:
                    fb = (tb + f) % 10
                    _acc(cells, (((base + 1) * 4) + depth + 1) * 9 + (cmp[f1, n1, fb, 1] + 1) * 3 + cmp[f2, n2, fb, 1] + 1,
                         w2 * counts[f])
            if d2:
                counts[i2] += 1
        if d1:
            counts[i1] += 1


_KERNELS: dict[str, Any] = {}


def _compiled() -> Any:
    """The kernel compiled with Numba (cached on disk); plain Python when Numba is missing (minutes, not seconds)."""
    if "enumerate" not in _KERNELS:
        try:
            from numba import njit
        except ImportError:  # pragma: no cover - numba is a dependency of the analysis
            _KERNELS["enumerate"] = _two_tables_enumerate
        else:
            acc = njit(cache=True)(_acc)
            globals()["_acc"] = acc
            thirds = njit(cache=True)(_two_tables_thirds)
            globals()["_two_tables_thirds"] = thirds
            _KERNELS["enumerate"] = njit(cache=True)(_two_tables_enumerate)
    return _KERNELS["enumerate"]


def _hand(total: int, cards: int) -> Any:
    from tapete.games.baccarat.common import Hand

    return Hand(["T"] * (cards - 1) + [str(total) if total else "T"])


@cache
def two_tables_enumeration(draw1: tuple[bool, ...], draw2: tuple[bool, ...], two_card_nine: str = "wins",
                           decks: int = 6, counts_by_value: tuple[int, ...] | None = None
                           ) -> tuple[int, list[int], dict[tuple[int, int, int, int], list[int]]]:
    """(denominator, fixed class weights, {(bank, col1, col2, branch): class weights}) over a fresh shoe."""
    import numpy as np

    from tapete.games.baccarat.two_tables import compare

    kernel = _compiled()
    cmp = np.zeros((10, 2, 10, 2), dtype=np.int64)
    for st in range(10):
        for sn in (2, 3):
            for bt in range(10):
                for bn in (2, 3):
                    cmp[st, sn - 2, bt, bn - 2] = compare(_hand(st, sn), _hand(bt, bn), two_card_nine)
    counts = np.array(counts_by_value or shoe_counts(decks), dtype=np.int64)
    fixed = np.zeros((9, 2), dtype=np.int64)
    cells = np.zeros((8 * 12 * 12 * 2 * 4 * 9, 2), dtype=np.int64)
    kernel(counts, np.array(draw1, dtype=np.bool_), np.array(draw2, dtype=np.bool_), cmp, fixed, cells)
    n = int(counts.sum())
    scale = [falling(n - d, 9 - d) for d in range(6, 10)]
    fixed_w = [(int(hi) << CARRY_BITS | int(lo)) * scale[0] for lo, hi in fixed]
    out: dict[tuple[int, int, int, int], list[int]] = {}
    values = cells.reshape(8, 12, 12, 2, 4, 9, 2)
    for b, c1, c2, branch in zip(*np.nonzero(values.any(axis=(4, 5, 6))), strict=True):
        block = values[b, c1, c2, branch]
        out[(int(b), int(c1), int(c2), int(branch))] = [
            sum((int(block[d, k, 1]) << CARRY_BITS | int(block[d, k, 0])) * scale[d] for d in range(4)) for k in range(9)]
    return falling(n, 9), fixed_w, out


def side_draws(draw_on_five: bool) -> tuple[bool, ...]:
    return chemin_punto_draws(draw_on_five)


@dataclass(frozen=True)
class TwoTablesAnalysis:
    results: list[EdgeResult]
    classes: dict[tuple[int, int], Fraction]     # (side 1 result, side 2 result) -> probability, default play


def _classes(den: int, weights: list[int]) -> dict[tuple[int, int], Fraction]:
    return {(k // 3 - 1, k % 3 - 1): Fraction(w, den) for k, w in enumerate(weights)}


def _policy_weights(fixed: list[int], cells: dict[tuple[int, int, int, int], list[int]],
                    choose: Callable[[int, int, int], bool]) -> list[int]:
    total = list(fixed)
    for (b, c1, c2, branch), ws in cells.items():
        if branch == int(choose(b, c1, c2)):
            for k, w in enumerate(ws):
                total[k] += w
    return total


def two_tables_analysis(game: Any, jurisdiction: str) -> TwoTablesAnalysis:
    """Side, a caballo and bank edges under the documented defaults (sides stand on 5, the bank's default of
    docs/vocabulary.md §3), each side drawing on 5, both cagnotte rates, and the bank's best response in every cell
    where it is free."""
    from tapete.games.baccarat.two_tables import bank_decision

    rules = game.rules_for(jurisdiction)
    stand5, draw5 = side_draws(False), side_draws(True)

    def default(b: int, c1: int, c2: int) -> bool:
        return bank_decision(b, c1, c2)[1]

    def dist(d1: tuple[bool, ...], d2: tuple[bool, ...], choose: Callable[[int, int, int], bool] = default
             ) -> dict[tuple[int, int], Fraction]:
        den, fixed, cells = two_tables_enumeration(d1, d2, "wins", rules.decks)
        return _classes(den, _policy_weights(fixed, cells, choose))

    def side_edge(d: dict[tuple[int, int], Fraction], side: int) -> Fraction:
        return -sum((p * k[side] for k, p in d.items()), Fraction(0))

    def bank_ev(r: tuple[int, int], rate: Fraction) -> Fraction:
        net = Fraction(-(r[0] + r[1]))
        return net * (1 - rate) if net > 0 else net

    def bank_edge(d: dict[tuple[int, int], Fraction], rate: Fraction) -> Fraction:
        return -sum((p * bank_ev(k, rate) for k, p in d.items()), Fraction(0)) / 2

    base = dist(stand5, stand5)
    results = [
        EdgeResult("player", (1,), None, side_edge(base, 0)),
        EdgeResult("player", (1,), "draw-on-5", side_edge(dist(draw5, stand5), 0)),
        EdgeResult("player", (2,), None, side_edge(base, 1)),
        EdgeResult("player", (2,), "draw-on-5", side_edge(dist(stand5, draw5), 1)),
        EdgeResult("player", (1, 2), None, (side_edge(base, 0) + side_edge(base, 1)) / 2),
        EdgeResult("bank", None, None, bank_edge(base, rules.cagnotte_limited)),
        EdgeResult("bank", None, "banca-libre", bank_edge(base, rules.cagnotte_free)),
    ]
    den, fixed, cells = two_tables_enumeration(stand5, stand5, "wins", rules.decks)
    best: dict[tuple[int, int, int], bool] = {}
    for (b, c1, c2, _branch) in cells:
        forced, dflt = bank_decision(b, c1, c2)
        if forced is not None:
            best[(b, c1, c2)] = forced
            continue
        values = [sum(Fraction(w) * bank_ev((k // 3 - 1, k % 3 - 1), rules.cagnotte_limited)
                      for k, w in enumerate(cells.get((b, c1, c2, br), [0] * 9))) for br in (0, 1)]
        best[(b, c1, c2)] = values[1] > values[0] or (values[1] == values[0] and dflt)
    best_dist = _classes(den, _policy_weights(fixed, cells, lambda b, c1, c2: best[(b, c1, c2)]))
    results.append(EdgeResult("bank", None, "best-response", bank_edge(best_dist, rules.cagnotte_limited)))
    return TwoTablesAnalysis(results, base)


def two_tables_edges(game: Any, jurisdiction: str) -> list[EdgeResult]:
    return two_tables_analysis(game, jurisdiction).results
