"""Andalucía's two Monte games by simulation, compiled (`tapete simulate casino-monte | monte-banca`).

*Casino Monte* (003:5798-6020): each round is one box's card and the croupier's from a full six-deck shoe, and
after a tie the burn and the rematch pair (003:5972-5995). *Monte o banca* (003:6022-6269): the clean layout
that `tapete edge` measures (four values, none doubled or burned — 1o 2o 3o 4o), the other 76 cards of the two
Spanish decks shuffled, cards revealed until a layout value comes (Primeras), then until the other row's
(Segundas).

The kernels hold no rule of their own: they deal cards and count the classes the bets cannot tell apart (who
is higher; which position is matched first, by which suit, on the first card or not). What each class returns
is asked of the reducer itself — `monte.casino_run` and `monte.banca_settle_with`, the same calls the exact
enumeration makes — so a simulated RTP and the exact edge rest on the same money code. Each kernel seeds its
compiled generator from the chunk's NumPy stream (the result depends on seed and chunk only), and keeps the
first rounds' cards (`traced`) so the tests replay them through the reducer.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from tapete.analysis.monte import banca_settle_with, casino_run
from tapete.core.cards import FRENCH_RANKS, FRENCH_SUITS, SPANISH_NUMBERS, SPANISH_SUITS
from tapete.core.errors import TapeteError
from tapete.engine.events import Bet

try:
    from numba import njit
except ImportError:  # pragma: no cover
    def njit(*args: Any, **kwargs: Any) -> Any:
        if args and callable(args[0]):
            return args[0]
        return lambda f: f


# ------------------------------------------------------------------------------------------------ Casino Monte

@njit(cache=True)
def _casino_rounds(n: int, seed: int, rank: np.ndarray, counts: np.ndarray, trace: np.ndarray) -> None:
    """counts[first deal, rematch]: 0 the box lower, 1 equal, 2 higher; the rematch column 1 when there was none.
    Cards per round (a full shoe each round): box, croupier, burn, box, croupier (003:5933-5938; 003:5972-5989)."""
    np.random.seed(seed)
    deck = np.arange(rank.size)
    cards = np.zeros(5, dtype=np.int64)
    for r in range(n):
        left = deck.size
        for k in range(5):
            j = int(np.random.random() * left)
            left -= 1
            c = deck[j]
            deck[j] = deck[left]
            deck[left] = c
            cards[k] = c
        d1 = rank[cards[0]] - rank[cards[1]]
        first = 2 if d1 > 0 else (1 if d1 == 0 else 0)
        second = 1
        if first == 1:
            d2 = rank[cards[3]] - rank[cards[4]]
            second = 2 if d2 > 0 else (1 if d2 == 0 else 0)
        counts[first, second] += 1
        if r < trace.shape[0]:
            for k in range(5):
                trace[r, k] = cards[k]


class CasinoMonteKernel:
    """main@rematch and main@surrender (what a tie leads to) and the Tie bet, one box against the croupier."""

    OPTIONS = {"main": ("rematch", "surrender"), "tie": (None,)}
    strategies = {"main": ("rematch", "surrender")}

    def __init__(self, game: Any, jurisdiction: str) -> None:
        from tapete.games.monte import monte_rank

        self.game = game
        self.jurisdiction = jurisdiction
        self.rules = game.rules_for(jurisdiction)
        self.cards = [r + s for _ in range(self.rules.decks) for s in FRENCH_SUITS for r in FRENCH_RANKS]
        self.rank = np.array([monte_rank(c) for c in self.cards], dtype=np.int64)
        self._memo: dict[tuple[str, str | None, int, int], Fraction] = {}

    def _check(self, specs: list[Any]) -> None:
        for spec in specs:
            if spec.option not in self.OPTIONS.get(spec.kind, ()):
                raise TapeteError("unknown-bet-kind", "casino-monte simulates main@rematch, main@surrender and tie, "
                                  f"not {spec.label()}")

    def play(self, rounds: int, seed: int, traced: int = 0) -> tuple[np.ndarray, np.ndarray]:
        counts = np.zeros((3, 3), dtype=np.int64)
        trace = np.zeros((traced, 5), dtype=np.int64)
        _casino_rounds(rounds, seed, self.rank, counts, trace)
        return counts, trace

    def returned(self, kind: str, option: str | None, first: int, second: int) -> Fraction:
        """1 + net per unit of the bet, by the reducer on ranks with that order (`monte.casino_run`)."""
        key = (kind, option, first, second)
        if key not in self._memo:
            pair = {0: (0, 1), 1: (0, 0), 2: (1, 0)}           # ranks lower, equal, higher
            p, c = pair[first]
            p2, c2 = pair[second] if first == 1 else (0, 0)
            ranks = [p + 3, c + 3, 12, p2 + 6, c2 + 6, 9, 9]   # the burn and the rest other ranks
            main = Bet("m", "p", "main", 100, None, {"box": 1})
            tie = Bet("t", "p", "tie", 100, None, {"box": 1})
            r = casino_run(self.game, self.jurisdiction, ranks, [main, tie], option or "surrender")["t" if kind == "tie" else "m"]
            self._memo[key] = 1 + (r.returned - r.staked) / 100
        return self._memo[key]

    def histogram(self, kind: str, option: str | None, counts: np.ndarray) -> dict[Fraction, int]:
        hist: dict[Fraction, int] = {}
        for first, second in zip(*np.nonzero(counts), strict=True):
            ret = self.returned(kind, option, int(first), int(second))
            hist[ret] = hist.get(ret, 0) + int(counts[first, second])
        return hist

    def run(self, specs: list[Any], rounds: int, gen: np.random.Generator) -> list[dict[Fraction, int]]:
        self._check(specs)
        counts, _ = self.play(rounds, int(gen.integers(0, 2**31 - 1)))
        return [self.histogram(s.kind, s.option, counts) for s in specs]


# ------------------------------------------------------------------------------------------------ Monte o banca

LAYOUT = ("1o", "2o", "3o", "4o")        # the clean layout of `monte.monte_banca_edges`


@njit(cache=True)
def _banca_rounds(n: int, seed: int, value: np.ndarray, suit: np.ndarray, counts: np.ndarray, trace: np.ndarray,
                  used: np.ndarray) -> None:
    """counts[first card matched (Primeras), position, suit, first card matched (Segundas), position, suit]: the
    positions 1-4 hold values 1-4 (index 0-3), suits index oros, copas, espadas, bastos. Primeras reveals until a
    layout value comes (003:6160-6163); Segundas until the other row's value (003:6165-6170)."""
    np.random.seed(seed)
    deck = np.arange(value.size)
    for r in range(n):
        left = deck.size
        row = 0
        lo, hi = 1, 4
        f1 = p1 = s1 = 0
        for phase in range(2):
            k = 0
            while True:
                j = int(np.random.random() * left)
                left -= 1
                c = deck[j]
                deck[j] = deck[left]
                deck[left] = c
                if r < trace.shape[0] and used[r] < trace.shape[1]:
                    trace[r, used[r]] = c
                    used[r] += 1
                v = value[c]
                if lo <= v <= hi and (phase == 0 or v != row and v != row + 1):
                    break
                k += 1
            if phase == 0:
                f1, p1, s1 = (1 if k == 0 else 0), value[c] - 1, suit[c]
                row = 1 if p1 < 2 else 3            # the row of the matched card leaves play (its facing card loses)
            else:
                counts[f1, p1, s1, 1 if k == 0 else 0, value[c] - 1, suit[c]] += 1


class MonteBancaKernel:
    """Every bet on position 1 (Cartas: 1 against 2) in Primeras, and on the first position of the row left in
    play in Segundas (by the layout's symmetry the same law as position 1, which the exact edge conditions on)."""

    PRIMERAS = ("first-card", "next-suit", "previous-suit", "opposite-suit", "any-suit", "versus")
    SEGUNDAS = ("first-card", "next-suit", "previous-suit", "opposite-suit", "versus")

    def __init__(self, game: Any, jurisdiction: str) -> None:
        game.rules_for(jurisdiction)
        self.game = game
        self.jurisdiction = jurisdiction
        pack = [f"{v}{s}" for _ in range(2) for v in SPANISH_NUMBERS for s in SPANISH_SUITS]   # 003:6034-6040
        for card in LAYOUT:
            pack.remove(card)
        self.cards = pack
        self.value = np.array([int(c[:-1]) for c in pack], dtype=np.int64)
        self.suit = np.array([SPANISH_SUITS.index(c[-1]) for c in pack], dtype=np.int64)
        self._memo: dict[tuple[Any, ...], Fraction] = {}

    def _check(self, specs: list[Any]) -> None:
        for spec in specs:
            kinds = {"primeras": self.PRIMERAS, "segundas": self.SEGUNDAS}.get(spec.option or "", ())
            if spec.kind not in kinds:
                raise TapeteError("unknown-bet-kind", "monte-banca simulates the bets @primeras "
                                  f"({', '.join(self.PRIMERAS)}) and @segundas ({', '.join(self.SEGUNDAS)}), "
                                  f"not {spec.label()}")

    def play(self, rounds: int, seed: int, traced: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        counts = np.zeros((2, 4, 4, 2, 4, 4), dtype=np.int64)
        trace = np.zeros((traced, 80), dtype=np.int64)
        used = np.zeros(traced, dtype=np.int64)
        _banca_rounds(rounds, seed, self.value, self.suit, counts, trace, used)
        return counts, trace, used

    def returned(self, kind: str, phase: str, cell: tuple[int, ...]) -> Fraction:
        """1 + net per unit on position 1 for the revealed class, by the reducer (`monte.banca_settle_with`)."""
        f1, p1, s1, f2, p2, s2 = cell
        if phase == "segundas" and p1 < 2:     # the row 1-2 is in play: swap the rows so position 1 is bet on
            p1, p2 = (p1 + 2) % 4, (p2 + 2) % 4
        key = (kind, phase, f1, p1, s1, f2, p2, s2)
        if key not in self._memo:
            prim = ("5o",) * (1 - f1) + (f"{p1 + 1}{SPANISH_SUITS[s1]}",)    # 5, 6: values off the layout
            seg = ("6o",) * (1 - f2) + (f"{p2 + 1}{SPANISH_SUITS[s2]}",)
            back = banca_settle_with(self.game, self.jurisdiction, kind, phase, prim, seg)
            self._memo[key] = back / 100
        return self._memo[key]

    def histogram(self, kind: str, phase: str, counts: np.ndarray) -> dict[Fraction, int]:
        hist: dict[Fraction, int] = {}
        for cell in zip(*np.nonzero(counts), strict=True):
            ret = self.returned(kind, phase, tuple(int(x) for x in cell))
            hist[ret] = hist.get(ret, 0) + int(counts[cell])
        return hist

    def run(self, specs: list[Any], rounds: int, gen: np.random.Generator) -> list[dict[Fraction, int]]:
        self._check(specs)
        counts, _, _ = self.play(rounds, int(gen.integers(0, 2**31 - 1)))
        return [self.histogram(s.kind, s.option, counts) for s in specs]
