"""House edges of the house-banked poker games, from the engine's own rules and the shared evaluator.

* **Trijoker** — exact. Every 3-card hand, first common card and second common card (22,100 x 49 x 48 =
  51,979,200 equally likely deals) is ranked by a lookup table of all 2,598,960 five-card hands that the
  evaluator's batch API fills; the optimal withdrawals (bet 2 after the first common card, bet 1 before it) are
  taken on exact integer sums, so the edge is an exact fraction.
* **Tripóquer** — exact. The ante with its Bet under the optimal call rule, by every player hand against every
  croupier hand from the other 49 cards (22,100 x 18,424); the Fortuna by its 22,100 hands; the linked carousel
  by the 2,598,960 five-card hands.
* **Póquer sin descarte** — the seguro and the carousel are exact (they depend on the player's five cards only).
  The ante and call are *simulated* (an optimal-strategy computation over every hand, up-card and croupier hand
  is beyond minutes): `SD_STRATEGY` below, at least 10^8 rounds in `benchmarks/bench_banked_poker.py`, the
  result stored in `banked_poker_figures.py` with its sample size, seed and 99% interval.
* **Pai Gow** — *simulated*: both hands set by the house way (`pai_gow.make_house_way`, compiled here with Numba
  over lookup tables), 10^8 rounds likewise.

Everything runs on Numba kernels over tables; nothing here ranks a hand by itself (the tables come from
`evaluator.rank5_batch`, `rank5` and `rank2`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from tapete.analysis.exact import EdgeResult, Stakes
from tapete.analysis.poker_tables import (  # noqa: F401 - the tables, where the tests and scripts find them
    BINOM,
    CATS,
    NO_WHEEL,
    RULES,
    all_combos,
    category_index,
    colex,
    five_card_counts,
    five_table,
)
from tapete.games.poker import evaluator as ev

Z99 = 2.5758293035489004
def _njit(fn: Callable[..., Any]) -> Callable[..., Any]:
    try:
        import numba
    except ImportError:  # pragma: no cover - numba is a dependency
        return fn
    return numba.njit(cache=True, nogil=True)(fn)


# ------------------------------------------------------------------------------------------------ tables


@lru_cache(maxsize=2)
def paigow_tables(rules: str = "pai-gow") -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(five-card table, joker table, two-card table, binomials) for the Pai Gow kernels.

    The joker table holds the strength of four real cards plus the joker, by the colex index of the four; the
    evaluator's joker rule depends only on their ranks and on whether all four share a suit, so each of those
    few thousand classes is ranked once by the scalar `rank5`. The two-card table is `rank2` of every pair."""
    r = RULES[rules]
    five = five_table(rules)
    four = all_combos(4)
    ranks, suits = four >> 2, four & 3
    suited = (suits == suits[:, :1]).all(axis=1)
    key = (((ranks[:, 0].astype(np.int64) * 13 + ranks[:, 1]) * 13 + ranks[:, 2]) * 13 + ranks[:, 3]) * 2 + suited
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    values = np.array([ev.rank5([*map(int, four[i]), ev.JOKER_1], r) for i in first], dtype=np.int32)
    joker = np.empty(len(four), dtype=np.int32)
    joker[colex(four)] = values[inverse]
    two = np.full((53, 53), -1, dtype=np.int32)
    for a in range(53):
        for b in range(a + 1, 53):
            two[a, b] = two[b, a] = ev.rank2([a, b], r)
    return five, joker, two, BINOM


# ------------------------------------------------------------------------------------------------ kernels


def _sort5(a, b, c, d, e):  # type: ignore[no-untyped-def]
    """Five values in increasing order (a small sorting network)."""
    if a > b:
        a, b = b, a
    if d > e:
        d, e = e, d
    if a > c:
        a, c = c, a
    if b > c:
        b, c = c, b
    if a > d:
        a, d = d, a
    if c > d:
        c, d = d, c
    if b > e:
        b, e = e, b
    if b > c:
        b, c = c, b
    if d > e:
        d, e = e, d
    return a, b, c, d, e


_sort5_nb = _njit(_sort5)


def _colex5(a: int, b: int, c: int, d: int, e: int, binom: np.ndarray) -> int:
    """Colex index of five distinct cards in any order (sorted first)."""
    a, b, c, d, e = _sort5_nb(a, b, c, d, e)
    return binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[d, 4] + binom[e, 5]


_colex5_nb = _njit(_colex5)


def _trijoker_source(net5, binom, colex5):  # type: ignore[no-untyped-def]
    """Sums over every deal of: bet 3 (always), bet 2 kept when its expectation is positive, bet 1 likewise; and
    how many deals keep bet 1 (k1) and bet 2 (k2)."""
    t1 = t2 = t3 = k1 = k2 = 0
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                s = 0
                for x in range(52):
                    if x in (a, b, c):
                        continue
                    e2 = 0
                    for y in range(52):
                        if y in (a, b, c, x):
                            continue
                        e2 += net5[colex5(a, b, c, x, y, binom)]
                    s += e2
                    if e2 > 0:
                        t2 += e2
                        k2 += 48
                t3 += s
                if s > 0:
                    t1 += s
                    k1 += 49 * 48
    return t1, t2, t3, k1, k2


def _make_trijoker_kernel() -> Callable[..., Any]:
    fn = _trijoker_source
    try:
        import numba
    except ImportError:  # pragma: no cover
        return lambda net5, binom: fn(net5, binom, _colex5)
    nb = numba.njit(cache=True, nogil=True)(fn)
    return lambda net5, binom: nb(net5, binom, _colex5_nb)


@lru_cache(maxsize=4)
def trijoker_exact(ace_low: bool = True, pays: tuple[tuple[str, int], ...] | None = None,
                   min_pair: int | None = None) -> dict[str, Any]:
    """The exact expected result per unit of each of the three bets, under the optimal withdrawals.

    `pays` and `min_pair` (a rank + 1, jacks = 10) replace the Trijoker paytable: the tests check the method on
    the industry's Let It Ride table (pair of tens, royal 1,000), whose edge is published."""
    from tapete.games.poker.trijoker import JACKS, TRIJOKER_PAYS

    table = dict(pays) if pays is not None else {k: int(v) for k, v in TRIJOKER_PAYS.items()}
    strengths = five_table("standard" if ace_low else "no-wheel")
    cats = category_index(strengths)
    pay = np.array([float(table.get(c, -1)) for c in CATS])
    net5 = pay[cats].astype(np.int64)
    small_pair = (cats == 1) & (((strengths >> 16) & 0xF) < (min_pair or JACKS))
    net5[small_pair] = -1
    t1, t2, t3, k1, k2 = _make_trijoker_kernel()(net5, BINOM)
    deals = 22100 * 49 * 48
    total = Fraction(int(t1) + int(t2) + int(t3), deals)
    return {"edge": -total, "bet1": Fraction(int(t1), deals), "bet2": Fraction(int(t2), deals),
            "bet3": Fraction(int(t3), deals), "deals": deals,
            "kept1": Fraction(int(k1), deals), "kept2": Fraction(int(k2), deals)}


def _tripoker_source(s3, masks, qual, bonus, calls):  # type: ignore[no-untyped-def]
    """For each player hand: counts against every disjoint croupier hand; the better of calling and folding."""
    n = s3.shape[0]
    total = 0
    for p in range(n):
        mp = masks[p]
        sp = s3[p]
        nq = w = t = lo = 0
        for d in range(n):
            if masks[d] & mp:
                continue
            if not qual[d]:
                nq += 1
            elif sp > s3[d]:
                w += 1
            elif sp == s3[d]:
                t += 1
            else:
                lo += 1
        hands = nq + w + t + lo
        call = nq + 2 * w - 2 * lo + bonus[p] * hands
        if call >= -hands:
            calls[p] = 1
            total += call
        else:
            calls[p] = 0
            total -= hands
    return total


@lru_cache(maxsize=4)
def tripoker_exact(order: str = "sf-3k-st-fl", extra: tuple[tuple[str, int], ...] | None = None,
                   fortune_pays: tuple[tuple[str, int], ...] | None = None) -> dict[str, Any]:
    """Exact ante + Bet result under the optimal call rule, and the Fortuna, per unit staked on each.

    `extra` and `fortune_pays` replace the Extra-Ante and Fortuna tables (the tests check the method on the
    industry's Three Card Poker tables, whose edges are published)."""
    from tapete.games.poker.tripoker import EXTRA_ANTE, FORTUNE_PAYS, qualifies3

    EXTRA_ANTE = dict(extra) if extra is not None else EXTRA_ANTE  # noqa: N806
    FORTUNE_PAYS = dict(fortune_pays) if fortune_pays is not None else FORTUNE_PAYS  # noqa: N806

    combos = all_combos(3)
    texts = [[ev.card_text(int(c)) for c in row] for row in combos]
    s3 = np.array([ev.rank3(t, five_card_order=order == "poker") for t in texts], dtype=np.int64)
    names = [ev.category(int(s)) for s in s3]
    masks = np.zeros(len(combos), dtype=np.uint64)
    for k in range(3):
        masks |= np.left_shift(np.uint64(1), combos[:, k].astype(np.uint64))
    qual = np.array([qualifies3(int(s)) for s in s3], dtype=np.bool_)
    bonus = np.array([int(EXTRA_ANTE.get(c, 0)) for c in names], dtype=np.int64)
    calls = np.zeros(len(combos), dtype=np.int64)
    kernel = _njit(_tripoker_source)
    total = int(kernel(s3, masks, qual, bonus, calls))
    per = 22100 * 18424
    ante = Fraction(total, per)
    fortune = sum((Fraction(FORTUNE_PAYS.get(c, -1)) for c in names), Fraction(0)) / len(names)
    called = [int(s) for s, k in zip(s3, calls, strict=True) if k]
    return {"ante": -ante, "fortune": -fortune, "weakest_call": ev.describe(min(called)),
            "calls": int(calls.sum()), "call_table": calls}


def jackpot_rtp(shares: dict[str, Fraction], fixed: dict[str, Fraction], floor: int = 5000) -> Fraction:
    """Return per unit of a carousel stake, one winner, the meter at `floor` x the stake (5,000: 003:3240-3242)."""
    counts = five_card_counts()
    total = sum(counts.values())
    rtp = Fraction(0)
    for cat, n in counts.items():
        prize = shares[cat] * floor if cat in shares else fixed.get(cat)
        if prize is not None:
            rtp += Fraction(n, total) * (1 + prize)
    return rtp


def insurance_rtp() -> Fraction:
    from tapete.games.poker.sin_descarte import SEGURO_PAYS

    counts = five_card_counts()
    total = sum(counts.values())
    return sum((Fraction(n, total) * (1 + SEGURO_PAYS[c]) for c, n in counts.items() if c in SEGURO_PAYS), Fraction(0))


# ------------------------------------------------------------------------------------------------ simulation

SD_STRATEGY = ("call (voy) with a pair or better; fold below ace-king high; with ace-king high call when the "
               "up-card (2 to Q) matches one of the player's cards, or the up-card is an A or K and the player "
               "holds a Q or a J, or the up-card matches none, the player holds a Q and the up-card ranks below "
               "his fourth card (after the Wizard of Odds' simple Caribbean Stud strategy); no card bought")


def _sd_source(u, t5, binom, colex5, counts, pcats):  # type: ignore[no-untyped-def]
    """Play rounds of sin descarte from the random draws `u` (row r, column k: an index below 52 - k).

    counts: 0 fold, 1 call and the bank does not play, 2 tie, 3 lost, 4 + category: won (0 high card .. 9 royal).
    pcats: the player's category, every round (for the seguro and the carousel)."""
    deck = np.arange(52)
    code_to_cat = np.array([0, 1, 2, -1, 3, 4, 5, 6, -1, 7, 8, -1, -1, -1, -1, -1])
    for r in range(u.shape[0]):
        for k in range(10):
            j = k + u[r, k]
            tmp = deck[k]
            deck[k] = deck[j]
            deck[j] = tmp
        ps = t5[colex5(deck[0], deck[1], deck[2], deck[3], deck[4], binom)]
        ds = t5[colex5(deck[5], deck[6], deck[7], deck[8], deck[9], binom)]
        pc = code_to_cat[ps >> 20]
        if pc == 8 and ((ps >> 16) & 15) == 13:
            pc = 9
        pcats[pc] += 1
        call = pc >= 1
        if pc == 0 and ((ps >> 16) & 15) == 13 and ((ps >> 12) & 15) == 12:
            up = deck[9] >> 2
            r2, r3, r4 = ((ps >> 8) & 15) - 1, ((ps >> 4) & 15) - 1, (ps & 15) - 1
            match = up in (r2, r3, r4)
            has_q = r2 == 10 or r3 == 10 or r4 == 10
            has_j = r2 == 9 or r3 == 9 or r4 == 9
            if up <= 10 and match or up >= 11 and (has_q or has_j) or not match and up <= 10 and has_q and up < r3:
                call = True
        if not call:
            counts[0] += 1
            continue
        dc = ds >> 20
        plays = dc >= 1 or (((ds >> 16) & 15) == 13 and ((ds >> 12) & 15) == 12)
        if not plays:
            counts[1] += 1
        elif ps > ds:
            counts[4 + pc] += 1
        elif ps == ds:
            counts[2] += 1
        else:
            counts[3] += 1


@lru_cache(maxsize=1)
def _sd_kernel() -> Callable[..., Any]:
    fn = _njit(_sd_source)
    return lambda u, t5, counts, pcats: fn(u, t5, BINOM, _colex5_nb, counts, pcats)


def _draws(gen: np.random.Generator, n: int, cards: int, deck: int) -> np.ndarray:
    """n rows of the partial Fisher-Yates draws for `cards` cards of a `deck`-card deck (exact, unbiased)."""
    return gen.integers(0, np.arange(deck, deck - cards, -1), size=(n, cards), dtype=np.int64)


def simulate_sin_descarte(rounds: int, gen: np.random.Generator, block: int = 1 << 20) -> tuple[np.ndarray, np.ndarray]:
    """(outcome counts, player category counts) over `rounds` simulated rounds (see `_sd_source`)."""
    t5 = five_table("standard")
    counts = np.zeros(14, dtype=np.int64)
    pcats = np.zeros(10, dtype=np.int64)
    kernel = _sd_kernel()
    done = 0
    while done < rounds:
        n = min(block, rounds - done)
        kernel(_draws(gen, n, 10, 52), t5, counts, pcats)
        done += n
    return counts, pcats


def sd_ante_returns() -> list[Fraction]:
    """Return per unit of ante (1 + net / ante) of each outcome class of `_sd_source`."""
    from tapete.games.poker.sin_descarte import CALL_PAYS

    wins = [Fraction(2) + 2 * CALL_PAYS[c] for c in CATS]
    return [Fraction(0), Fraction(2), Fraction(1), Fraction(-2), *wins]


def _pg_source(u, tables, counts, house_way, high_of, s2):  # type: ignore[no-untyped-def]
    """Play rounds of Pai Gow: seven cards to the player, seven to the bank, both set by the house way.
    counts: 0 won, 1 push, 2 lost (the player's bet against the croupier's bank)."""
    deck = np.arange(53)
    pc = np.empty(7, np.int64)
    bc = np.empty(7, np.int64)
    for r in range(u.shape[0]):
        for k in range(14):
            j = k + u[r, k]
            tmp = deck[k]
            deck[k] = deck[j]
            deck[j] = tmp
        for k in range(7):
            pc[k] = deck[k]
            bc[k] = deck[7 + k]
        i, j = house_way(pc, tables)
        ph, pl = high_of(pc, i, j, tables), s2(pc[i], pc[j], tables)
        i, j = house_way(bc, tables)
        bh, bl = high_of(bc, i, j, tables), s2(bc[i], bc[j], tables)
        higher = (1 if ph > bh else 0) + (1 if pl > bl else 0)
        counts[2 - higher] += 1


def _s5_source(x0, x1, x2, x3, x4, t):  # type: ignore[no-untyped-def]
    """Five cards' strength from the tables: the joker (52, the largest card) sends the other four to the joker
    table."""
    five, joker, _, binom = t
    a, b, c, d, e = _sort5_nb(x0, x1, x2, x3, x4)
    if e == 52:
        return joker[binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[d, 4]]
    return five[binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[d, 4] + binom[e, 5]]


def _high_of_source(c, i, j, t):  # type: ignore[no-untyped-def]
    """The table strength of the five cards of `c` other than positions i and j."""
    v = np.empty(5, np.int64)
    m = 0
    for k in range(7):
        if k != i and k != j:
            v[m] = c[k]
            m += 1
    return _s5_nb(v[0], v[1], v[2], v[3], v[4], t)


def _s2_source(x, y, t):  # type: ignore[no-untyped-def]
    return t[2][x, y]


_s5_nb = _njit(_s5_source)


@lru_cache(maxsize=1)
def paigow_kernels() -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]]:
    """(house way, simulation, s5) compiled with Numba over the lookup tables."""
    import numba

    from tapete.games.poker.pai_gow import make_house_way

    s5 = _s5_nb
    s2 = numba.njit(nogil=True)(_s2_source)
    way = make_house_way(s5, s2, numba.njit(nogil=True))
    high_of = numba.njit(nogil=True)(_high_of_source)
    sim = numba.njit(nogil=True)(_pg_source)
    return way, (lambda u, tables, counts: sim(u, tables, counts, way, high_of, s2)), s5


def simulate_pai_gow(rounds: int, gen: np.random.Generator, block: int = 1 << 18) -> np.ndarray:
    """Counts of (won, push, lost) for a player's bet against the croupier's bank, both by the house way."""
    tables = paigow_tables()
    _, sim, _ = paigow_kernels()
    counts = np.zeros(3, dtype=np.int64)
    done = 0
    while done < rounds:
        n = min(block, rounds - done)
        sim(_draws(gen, n, 14, 53), tables, counts)
        done += n
    return counts


# ------------------------------------------------------------------------------------------------ statistics


def mean_and_interval(hist: dict[Fraction, int]) -> tuple[float, float, int]:
    """Mean of a histogram of per-unit returns, its 99% half-interval, and the sample size."""
    n = sum(hist.values())
    mean = sum(float(k) * v for k, v in hist.items()) / n
    second = sum(float(k) ** 2 * v for k, v in hist.items()) / n
    return mean, Z99 * math.sqrt(max(second - mean * mean, 0.0) / n), n


def sd_histogram(counts: Any) -> dict[Fraction, int]:
    hist: dict[Fraction, int] = {}
    for ret, k in zip(sd_ante_returns(), counts, strict=True):
        if k:
            hist[ret] = hist.get(ret, 0) + int(k)
    return hist


def pg_histogram(counts: Any, commission: Fraction, side: str = "main") -> dict[Fraction, int]:
    """Per-unit returns: for `main` the player's bet; for `bank` a player bank facing one such bet."""
    won, push, lost = (int(x) for x in counts)
    if side == "main":
        return {2 - commission: won, Fraction(1): push, Fraction(0): lost}
    return {Fraction(0): won, Fraction(1): push, 2 - commission: lost}


def _simulated(kind: str, option: str, hist: dict[Fraction, int], seed: int | str, what: str) -> EdgeResult:
    mean, half, n = mean_and_interval(hist)
    edge = 1 - sum((Fraction(k) * v for k, v in hist.items()), Fraction(0)) / n     # the sample's edge, exactly
    note = (f"simulated: {n:,} rounds, seed {seed}; house edge {100 * (1 - mean):.4f}% with 99% interval "
            f"[{100 * (1 - mean - half):.4f}%, {100 * (1 - mean + half):.4f}%]; {what}")
    return EdgeResult(kind, None, option, edge, "simulated", note, interval=(1 - mean - half, 1 - mean + half), rounds=n)


def _figure(game: str) -> dict[str, Any] | None:
    from tapete.analysis import banked_poker_figures

    return banked_poker_figures.FIGURES.get(game)


# ------------------------------------------------------------------------------------------------ edges


def sin_descarte_edges(jurisdiction: str, quick_rounds: int = 1_000_000, share: Fraction | None = None,
                       seed: Fraction | None = None) -> list[EdgeResult]:
    from tapete.analysis.jackpots import carousel_line
    from tapete.analysis.sin_descarte_exact import ante_note, ante_result
    from tapete.games.poker.sin_descarte import SIN_DESCARTE_RULES

    rules = SIN_DESCARTE_RULES[jurisdiction]
    ante = ante_result(rules.call_pays)
    called = Stakes(Fraction(1), 1 + 2 * ante.call_rate,
                    f"the call (voy) adds twice the ante ({rules.sources['call_multiple']}), made on "
                    f"{float(ante.call_rate):.4%} of deals by the optimal strategy")
    out = [EdgeResult("ante", None, "strategy", ante.edge, "exact", ante_note(ante), stakes=called)]
    out.append(EdgeResult("insurance", None, None, 1 - insurance_rtp(), "exact",
                          "every five-card hand (the player calls with any full house or better, so a fold never "
                          "touches the seguro)"))
    jack = 1 - jackpot_rtp(dict(rules.jackpot_shares), dict(rules.jackpot_fixed))
    out.append(EdgeResult("jackpot", None, None, jack, "model",
                          "one hand with the meter at 5,000 x the stake (a snapshot, what `tapete simulate` plays): "
                          "every five-card hand, one winner, no card bought, the meter's growth not counted; the "
                          "long-run line is `long-run`"))
    line = carousel_line("poker-sin-descarte", jurisdiction, "long-run", share, seed)
    if line is not None:
        out.append(line)
    return out


def trijoker_stakes(res: dict[str, Any]) -> Stakes:
    """A box stakes three equal bets and may withdraw bets 1 and 2 (000:1695, 003:3490-3507); bet 3 always plays."""
    return Stakes(Fraction(3), 1 + res["kept1"] + res["kept2"],
                  f"three equal bets staked; bet 1 kept on {float(res['kept1']):.4%} of deals, bet 2 on "
                  f"{float(res['kept2']):.4%}, bet 3 always plays (000:1695, 003:3490-3507)")


def trijoker_edges(jurisdiction: str) -> list[EdgeResult]:
    res = trijoker_exact(True)
    out = [EdgeResult("main", None, "optimal", res["edge"], "exact",
                      f"every deal ({res['deals']:,}); bets 1 and 2 withdrawn unless their expectation is positive; "
                      "house_edge per unit of each of the three bets (the amount)", stakes=trijoker_stakes(res))]
    if jurisdiction == "ES-AN":
        lit = trijoker_exact(False)
        out.append(EdgeResult("main", None, "optimal, ace-low-straight false", lit["edge"], "exact",
                              "the literal reading of 003:3317-3318 (no A-2-3-4-5 straight)", stakes=trijoker_stakes(lit)))
    return out


def tripoker_edges(jurisdiction: str, share: Fraction | None = None, seed: Fraction | None = None) -> list[EdgeResult]:
    from tapete.analysis.jackpots import carousel_line
    from tapete.games.poker.sin_descarte import JACKPOT_FIXED_AN, JACKPOT_SHARES_IB

    res = tripoker_exact()
    called = Stakes(Fraction(1), 1 + Fraction(res["calls"], 22100),
                    f"the Bet equals the ante (003:3656-3657; 003:3682-3687), made with {res['calls']:,} of the 22,100 hands "
                    "by the optimal call rule")
    out = [
        EdgeResult("ante", None, "optimal", res["ante"], "exact",
                   f"every player hand against every croupier hand (22,100 x 18,424); call with "
                   f"{res['weakest_call']} or better; Extra-Ante included; per unit of ante", stakes=called),
        EdgeResult("fortune", None, None, res["fortune"], "exact", "every three-card hand"),
        EdgeResult("jackpot", None, "linked-carousel", 1 - jackpot_rtp(dict(JACKPOT_SHARES_IB), dict(JACKPOT_FIXED_AN)),
                   "model", "one hand with the meter at 5,000 x the stake (a snapshot, what `tapete simulate` plays): "
                   "three own + two common cards = five random cards; one winner, a box that does not fold, the "
                   "meter's growth not counted; the long-run line is `long-run`"),
    ]
    line = carousel_line("tripoker", jurisdiction, "long-run", share, seed)
    if line is not None:
        out.append(line)
    return out


def pai_gow_edges(jurisdiction: str, commission: Fraction = Fraction(5, 100), quick_rounds: int = 200_000) -> list[EdgeResult]:
    fig = _figure("pai-gow")
    if fig is not None:
        counts, seed = fig["counts"], fig["seed"]
        stored = "the stored figure of benchmarks/bench_banked_poker.py (precomputed, so that this answers in seconds)"
    else:
        from tapete.core.rng import simulation_stream

        seed = 20240601
        counts = simulate_pai_gow(quick_rounds, simulation_stream(seed, 0))
        stored = "a quick run (no stored figure yet)"
    pct = f"{float(commission) * 100:g}%"
    won, push, lost = (int(x) for x in counts)
    resolved = (lost - won * (1 - commission)) / (won + lost)
    flat = Stakes(Fraction(1), Fraction(1), "the commission is deducted from the win (003:3770-3773; 003:3944-3949), "
                  "not staked: the money wagered is the bet")
    return [
        dataclasses.replace(_simulated("main", "house-way", pg_histogram(counts, commission), seed,
                                       f"{stored}; both hands set by the house way, commission {pct}; per resolved "
                                       f"hand (pushes, {push / sum(counts):.4%} of this run, left out) "
                                       f"{float(resolved):.4%}, the same run"), stakes=flat),
        dataclasses.replace(_simulated("bank", "house-way", pg_histogram(counts, commission, "bank"), seed,
                                       f"{stored}; a player bank against one hand set by the house way, per unit of "
                                       f"that hand's bet, commission {pct} on the bank's net win"), stakes=flat),
    ]


def pai_gow_resolved(game: Any, jurisdiction: str, line: EdgeResult) -> tuple[float, str] | None:
    """The PAR sheet's house edge per resolved hand (pushes left out), from the very run of `tapete edge`'s figure:
    its won and lost hands, with its own 99% interval (one run, one interval)."""
    fig = _figure("pai-gow")
    if fig is None or line.kind not in ("main", "bank"):
        return None
    won, push, lost = (int(x) for x in fig["counts"])
    if line.kind == "bank":
        won, lost = lost, won
    net_win = 1 - float(game.rules_for(jurisdiction).commission_max)    # a won hand's net, the commission off
    n = won + lost
    mean = (lost - won * net_win) / n             # the house's result per resolved hand
    second = (lost + won * net_win**2) / n
    half = Z99 * math.sqrt(max(second - mean * mean, 0.0) / n)
    return mean, (f"simulated: the same run as the figure ({won + push + lost:,} hands, seed {fig['seed']}), its "
                  f"{n:,} resolved hands; 99% interval [{100 * (mean - half):.4f}%, {100 * (mean + half):.4f}%]")


# ------------------------------------------------------------------------------------------------ `tapete simulate`


class SinDescarteKernel:
    """`tapete simulate poker-sin-descarte`: ante (with the strategy), seguro and carousel per unit staked."""

    strategies = {"ante": ("strategy",)}

    def __init__(self, game: Any, jurisdiction: str) -> None:
        from tapete.games.poker.sin_descarte import SEGURO_PAYS, SIN_DESCARTE_RULES

        self.rules = SIN_DESCARTE_RULES[jurisdiction]
        self.seguro = SEGURO_PAYS

    def run(self, specs: list[Any], rounds: int, gen: np.random.Generator) -> list[dict[Fraction, int]]:
        counts, pcats = simulate_sin_descarte(rounds, gen)
        out = []
        for spec in specs:
            if spec.kind == "ante":
                out.append(sd_histogram(counts))
                continue
            hist: dict[Fraction, int] = {}
            for i, k in enumerate(pcats):
                cat = CATS[i]
                if spec.kind == "insurance":
                    ret = 1 + self.seguro[cat] if cat in self.seguro else Fraction(0)
                else:
                    shares, fixed = self.rules.jackpot_shares, self.rules.jackpot_fixed
                    prize = shares[cat] * 5000 if cat in shares else fixed.get(cat)
                    ret = 1 + prize if prize is not None else Fraction(0)
                hist[ret] = hist.get(ret, 0) + int(k)
            out.append(hist)
        return out


class PaiGowKernel:
    """`tapete simulate pai-gow`: the main bet and a player bank, both hands by the house way, 5% commission."""

    strategies = {"main": ("house-way",), "bank": ("house-way",)}

    def __init__(self, game: Any, jurisdiction: str) -> None:
        self.commission = Fraction(5, 100)

    def run(self, specs: list[Any], rounds: int, gen: np.random.Generator) -> list[dict[Fraction, int]]:
        counts = simulate_pai_gow(rounds, gen)
        return [pg_histogram(counts, self.commission, "bank" if s.kind == "bank" else "main") for s in specs]


# ------------------------------------------------------------------------------------------------ trijoker, tripoker kernels
#
# Both draw each round's cards as a partial Fisher-Yates from the chunk's NumPy stream (`_draws`), look hands up
# in the same tables the exact enumerations use, and count outcome classes; what a class returns is asked of the
# game's own money code (`Tripoker._ante`, FORTUNE_PAYS, `jackpot_prizes`; the trijoker paytable through the
# `net5` table `trijoker_exact` is built on). `traced` rows keep the first rounds' cards and class codes, so the
# tests replay them through the reducer and compare the settlement.


def _sort4(a, b, c, d):  # type: ignore[no-untyped-def]
    if a > b:
        a, b = b, a
    if c > d:
        c, d = d, c
    if a > c:
        a, c = c, a
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    return a, b, c, d


def _sort3(a, b, c):  # type: ignore[no-untyped-def]
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return a, b, c


_sort4_nb = _njit(_sort4)
_sort3_nb = _njit(_sort3)


def _trijoker_keep_source(net5, binom, colex5, sort4, keep1, keep2):  # type: ignore[no-untyped-def]
    """The optimal withdrawals as tables: keep2[colex of 3 cards + first common card] and keep1[colex of the 3
    cards] when the bet's expectation over the unseen cards is positive (the rule `trijoker_exact` sums)."""
    e2 = np.zeros(keep2.shape[0], np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    s = 0
                    for y in range(52):
                        if y != a and y != b and y != c and y != d:
                            s += net5[colex5(a, b, c, d, y, binom)]
                    i = binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[d, 4]
                    e2[i] = s
                    keep2[i] = s > 0
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                s = 0
                for x in range(52):
                    if x != a and x != b and x != c:
                        p, q, r, t = sort4(a, b, c, x)
                        s += e2[binom[p, 1] + binom[q, 2] + binom[r, 3] + binom[t, 4]]
                keep1[binom[a, 1] + binom[b, 2] + binom[c, 3]] = s > 0


@lru_cache(maxsize=2)
def trijoker_tables(ace_low: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(net5, keep1, keep2): each five-card hand's net per bet (its ratio, or -1), and the optimal withdrawals."""
    from tapete.games.poker.trijoker import JACKS, TRIJOKER_PAYS

    strengths = five_table("standard" if ace_low else "no-wheel")
    cats = category_index(strengths)
    pay = np.array([float(TRIJOKER_PAYS.get(c, -1)) for c in CATS])
    net5 = pay[cats].astype(np.int64)
    net5[(cats == 1) & (((strengths >> 16) & 0xF) < JACKS)] = -1      # 000:1601 — a pair pays from jacks up
    keep1 = np.zeros(22100, dtype=np.bool_)
    keep2 = np.zeros(270725, dtype=np.bool_)
    _njit(_trijoker_keep_source)(net5, BINOM, _colex5_nb, _sort4_nb, keep1, keep2)
    return net5, keep1, keep2


def _trijoker_sim_source(u, net5, keep1, keep2, binom, colex5, sort3, sort4, counts, trace, codes):  # type: ignore[no-untyped-def]
    """counts[net + 1, bets in play - 1]: the final hand's net per bet and how many of the three bets played.
    Cards: deck[0..2] the box's, deck[3] the first common card, deck[4] the second."""
    deck = np.arange(52)
    for r in range(u.shape[0]):
        for k in range(5):
            j = k + u[r, k]
            tmp = deck[k]
            deck[k] = deck[j]
            deck[j] = tmp
        a, b, c = sort3(deck[0], deck[1], deck[2])
        p, q, s, t = sort4(deck[0], deck[1], deck[2], deck[3])
        n = 1
        if keep1[binom[a, 1] + binom[b, 2] + binom[c, 3]]:
            n += 1
        if keep2[binom[p, 1] + binom[q, 2] + binom[s, 3] + binom[t, 4]]:
            n += 1
        net = net5[colex5(deck[0], deck[1], deck[2], deck[3], deck[4], binom)]
        counts[net + 1, n - 1] += 1
        if r < trace.shape[0]:
            for k in range(5):
                trace[r, k] = deck[k]
            codes[r, 0] = net + 1
            codes[r, 1] = n - 1
            codes[r, 2] = keep1[binom[a, 1] + binom[b, 2] + binom[c, 3]]
            codes[r, 3] = keep2[binom[p, 1] + binom[q, 2] + binom[s, 3] + binom[t, 4]]


class TrijokerKernel:
    """`tapete simulate trijoker`: the three bets of one box (per unit of each), withdrawals by the optimal rule."""

    STRATEGY = "optimal"
    strategies = {"main": (STRATEGY,)}

    def __init__(self, game: Any, jurisdiction: str) -> None:
        game.rules_for(jurisdiction)
        self.jurisdiction = jurisdiction

    def _check(self, specs: list[Any]) -> None:
        from tapete.core.errors import TapeteError

        for spec in specs:
            if spec.kind != "main" or spec.option not in (None, self.STRATEGY):
                raise TapeteError("unknown-bet-kind", f"trijoker simulates main@{self.STRATEGY}, not {spec.label()}")

    def play(self, rounds: int, gen: np.random.Generator, traced: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        net5, keep1, keep2 = trijoker_tables(True)
        counts = np.zeros((net5.max() + 2, 3), dtype=np.int64)
        trace = np.zeros((traced, 5), dtype=np.int64)
        codes = np.zeros((traced, 4), dtype=np.int64)
        fn = _trijoker_sim()
        done = 0
        while done < rounds:
            n = min(1 << 20, rounds - done)
            fn(_draws(gen, n, 5, 52), net5, keep1, keep2, counts, trace if done == 0 else trace[:0],
               codes if done == 0 else codes[:0])
            done += n
        return counts, trace, codes

    @staticmethod
    def returns(counts: np.ndarray) -> dict[Fraction, int]:
        """Per unit of each bet: withdrawn bets come back (net 0), every bet in play wins its ratio or is lost."""
        hist: dict[Fraction, int] = {}
        for net1, bets in zip(*np.nonzero(counts), strict=True):
            ret = 1 + Fraction(int(net1) - 1) * (int(bets) + 1)
            hist[ret] = hist.get(ret, 0) + int(counts[net1, bets])
        return hist

    def run(self, specs: list[Any], rounds: int, gen: np.random.Generator) -> list[dict[Fraction, int]]:
        self._check(specs)
        counts, _, _ = self.play(rounds, gen)
        return [self.returns(counts) for _ in specs]


@lru_cache(maxsize=1)
def _trijoker_sim() -> Callable[..., Any]:
    fn = _njit(_trijoker_sim_source)
    return lambda u, net5, k1, k2, counts, trace, codes: fn(u, net5, k1, k2, BINOM, _colex5_nb, _sort3_nb, _sort4_nb,
                                                            counts, trace, codes)


@lru_cache(maxsize=1)
def five_categories() -> np.ndarray:
    """0 high card .. 9 royal flush of every five-card hand, by colex index."""
    return category_index(five_table("standard"))


@lru_cache(maxsize=2)
def tripoker_tables(order: str = "sf-3k-st-fl") -> dict[str, Any]:
    """Three-card strengths, qualifiers, category codes and the optimal call rule of `tripoker_exact`."""
    from tapete.games.poker.tripoker import qualifies3

    combos = all_combos(3)
    texts = [[ev.card_text(int(c)) for c in row] for row in combos]
    s3 = np.array([ev.rank3(t, five_card_order=order == "poker") for t in texts], dtype=np.int64)
    names = [ev.category(int(s)) for s in s3]
    cats = sorted(set(names))
    by_colex = colex(combos)             # the enumeration runs in lexicographic order; the kernel looks up by colex

    def table(values: np.ndarray) -> np.ndarray:
        out = np.empty_like(values)
        out[by_colex] = values
        return out

    return {"s3": table(s3), "qual": table(np.array([qualifies3(int(s)) for s in s3], dtype=np.bool_)),
            "cat": table(np.array([cats.index(n) for n in names], dtype=np.int64)), "cats": cats,
            "first": {n: int(s3[names.index(n)]) for n in cats},
            "calls": table(tripoker_exact(order)["call_table"].astype(np.bool_))}


def _tripoker_sim_source(u, s3, qual, cat, calls, t5, cat5, binom, colex5, sort3, counts, fortune, jack, trace, codes):  # type: ignore[no-untyped-def]
    """counts[outcome, player category]: 0 fold, 1 call and the croupier does not qualify, 2 win, 3 tie, 4 lose.
    fortune[player category]; jack[five-card category of the box's cards and the two common cards].
    Cards (the engine's one-by-one deal): box deck[0, 2, 4], croupier deck[1, 3, 5], common deck[6, 7]."""
    deck = np.arange(52)
    for r in range(u.shape[0]):
        for k in range(8):
            j = k + u[r, k]
            tmp = deck[k]
            deck[k] = deck[j]
            deck[j] = tmp
        a, b, c = sort3(deck[0], deck[2], deck[4])
        pi = binom[a, 1] + binom[b, 2] + binom[c, 3]
        a, b, c = sort3(deck[1], deck[3], deck[5])
        di = binom[a, 1] + binom[b, 2] + binom[c, 3]
        pc = cat[pi]
        if not calls[pi]:
            o = 0
        elif not qual[di]:
            o = 1
        elif s3[pi] > s3[di]:
            o = 2
        elif s3[pi] == s3[di]:
            o = 3
        else:
            o = 4
        counts[o, pc] += 1
        fortune[pc] += 1
        j5 = cat5[colex5(deck[0], deck[2], deck[4], deck[6], deck[7], binom)]
        jack[j5] += 1
        if r < trace.shape[0]:
            for k in range(8):
                trace[r, k] = deck[k]
            codes[r, 0] = o
            codes[r, 1] = pc
            codes[r, 2] = j5


@lru_cache(maxsize=1)
def _tripoker_sim() -> Callable[..., Any]:
    fn = _njit(_tripoker_sim_source)
    return lambda u, t, t5, cat5, counts, fortune, jack, trace, codes: fn(
        u, t["s3"], t["qual"], t["cat"], t["calls"], t5, cat5, BINOM, _colex5_nb, _sort3_nb, counts, fortune, jack,
        trace, codes)


class TripokerKernel:
    """`tapete simulate tripoker`: the ante with its Bet under the optimal call rule (Extra-Ante included), the
    Fortuna, and the linked carousel (one winner, the meter at 5,000 x the stake)."""

    STRATEGY = "optimal"
    strategies = {"ante": (STRATEGY,)}
    OPTIONS = {"ante": (None, "optimal"), "fortune": (None,), "jackpot": (None, "linked-carousel")}

    def __init__(self, game: Any, jurisdiction: str) -> None:
        game.rules_for(jurisdiction)
        self.game = game

    def _check(self, specs: list[Any]) -> None:
        from tapete.core.errors import TapeteError

        for spec in specs:
            if spec.option not in self.OPTIONS.get(spec.kind, ()):
                raise TapeteError("unknown-bet-kind", "tripoker simulates ante@optimal, fortune and "
                                  f"jackpot@linked-carousel, not {spec.label()}")

    def play(self, rounds: int, gen: np.random.Generator, traced: int = 0) -> tuple[np.ndarray, ...]:
        t = tripoker_tables()
        t5 = five_table("standard")
        cat5 = five_categories()
        counts = np.zeros((5, len(t["cats"])), dtype=np.int64)
        fortune = np.zeros(len(t["cats"]), dtype=np.int64)
        jack = np.zeros(10, dtype=np.int64)
        trace = np.zeros((traced, 8), dtype=np.int64)
        codes = np.zeros((traced, 3), dtype=np.int64)
        fn = _tripoker_sim()
        done = 0
        while done < rounds:
            n = min(1 << 20, rounds - done)
            fn(_draws(gen, n, 8, 52), t, t5, cat5, counts, fortune, jack, trace if done == 0 else trace[:0],
               codes if done == 0 else codes[:0])
            done += n
        return counts, fortune, jack, trace, codes

    @staticmethod
    @lru_cache(maxsize=1)
    def ante_returns() -> dict[tuple[int, int], Fraction]:
        """Per unit of ante, 1 + net, of each (outcome, player category), from the reducer's `Tripoker._ante`."""
        from types import SimpleNamespace

        from tapete.games.poker.tripoker import Tripoker

        t = tripoker_tables()
        unit = SimpleNamespace(amount=1)
        out = {}
        for pc, name in enumerate(t["cats"]):
            ps = t["first"][name]
            out[0, pc] = 1 + Tripoker._ante(unit, "fold", ps, ps, True)[0] - 1   # type: ignore[arg-type]  # noqa: SLF001
            for o, (ds, plays) in enumerate(((ps, False), (ps - 1, True), (ps, True), (ps + 1, True)), start=1):
                out[o, pc] = 1 + Tripoker._ante(unit, "call", ps, ds, plays)[0] - 2   # type: ignore[arg-type]  # noqa: SLF001
        return out

    @staticmethod
    def fortune_return(name: str) -> Fraction:
        from tapete.games.poker.tripoker import FORTUNE_PAYS

        mult = FORTUNE_PAYS.get(name)                 # 003:3598-3603, as `Tripoker.resolve` pays it
        return 1 + mult if mult is not None else Fraction(0)

    @staticmethod
    @lru_cache(maxsize=1)
    def jackpot_returns() -> list[Fraction]:
        """Per five-card category: stake back and prize, or 0 (`jackpot_prizes`, the meter at 5,000 x)."""
        from types import SimpleNamespace

        from tapete.games.poker.banked import jackpot_prizes
        from tapete.games.poker.sin_descarte import JACKPOT_FIXED_AN, JACKPOT_FLOOR, JACKPOT_SHARES_IB

        t5 = five_table("standard")
        cats = category_index(t5)
        out = []
        for i in range(10):
            strength = int(t5[np.nonzero(cats == i)[0][0]])
            bet = SimpleNamespace(id="j", amount=1)
            prizes, _ = jackpot_prizes([(bet, strength)], Fraction(JACKPOT_FLOOR), dict(JACKPOT_SHARES_IB),  # type: ignore[list-item]
                                       dict(JACKPOT_FIXED_AN))
            out.append(1 + prizes["j"] if "j" in prizes else Fraction(0))
        return out

    def run(self, specs: list[Any], rounds: int, gen: np.random.Generator) -> list[dict[Fraction, int]]:
        self._check(specs)
        counts, fortune, jack, _, _ = self.play(rounds, gen)
        names = tripoker_tables()["cats"]
        out = []
        for spec in specs:
            hist: dict[Fraction, int] = {}
            if spec.kind == "ante":
                pairs = [(self.ante_returns()[o, pc], counts[o, pc]) for o in range(5) for pc in range(len(names))]
            elif spec.kind == "fortune":
                pairs = [(self.fortune_return(n), fortune[i]) for i, n in enumerate(names)]
            else:
                pairs = list(zip(self.jackpot_returns(), jack, strict=True))
            for ret, k in pairs:
                if k:
                    hist[ret] = hist.get(ret, 0) + int(k)
            out.append(hist)
        return out
