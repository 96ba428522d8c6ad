"""Black Jack's compiled simulation: the derived chart (tapete.analysis.blackjack.solve) played on random shoes,
for `tapete simulate blackjack`, the PAR sheet's check and the replay tests. Split from blackjack.py (issue 21
point 6); blackjack.py re-exports these names."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from tapete.analysis.blackjack import dealer_tables, full_shoe, solve
from tapete.analysis.modular import njit
from tapete.games.blackjack.game import BlackjackGame
from tapete.games.blackjack.hand import is_soft, player_total
from tapete.games.blackjack.rules import BLACKJACK_RULES, BlackjackRules

SPLIT_HANDS = 4


def _solved(jurisdiction: str) -> tuple[Any, Any, Any, Any, np.ndarray]:
    """(rules, solution, nxt, final, shoe) of a jurisdiction."""
    rules = BLACKJACK_RULES[jurisdiction]
    nxt, final = dealer_tables(rules)
    return rules, solve(rules), nxt, final, full_shoe(rules)


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

    rules, sol, nxt, final, shoe = _solved(jurisdiction)
    ptot, psoft = _player_tables()
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
    rules, sol, nxt, final, shoe = _solved(jurisdiction)
    ptot, psoft = _player_tables()
    trace = np.zeros((traced, 40), dtype=np.int64)
    outcome = np.zeros(traced)
    hist = np.zeros(HIST_SIZE, dtype=np.int64)
    sevens = np.zeros(16, dtype=np.int64)
    _simulate(hands, seed, shoe, sol.first, sol.hs, sol.pair, sol.can_double, nxt, final, ptot, psoft,
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
