"""Punto y banca by simulation: whole shoes shuffled, burned and played to the stop card, in a Numba kernel.

The kernel holds no drawing rule of its own: it reads the punto's and the bank's draw tables built by
`tableau.punto_banca_draw_tables()` from the same functions the engine deals with, and the shuffle draws its
randomness from the NumPy stream of the chunk (`simulation_stream(seed, chunk)`: 32-bit words, bounded by
Lemire's method with rejection, so the Fisher-Yates shuffle is unbiased). It counts coups by final (punto total,
bank total); what each bet returns is then the game's own `bet_return`, so a simulated RTP and the exact edge rest
on the same money code. `shoe_sample` replays a few shoes with every coup recorded, for checking against the
engine's `settle`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from numba import njit

from tapete.core.rng import simulation_stream
from tapete.games.baccarat import tableau

DECKS = 6
CARDS = 52 * DECKS
BELOW_STOP = 7                 # 001:671
VALUES = np.array([min(r, 10) % 10 for _ in range(4 * DECKS) for r in range(1, 14)], dtype=np.int8)  # 10, J, Q, K: 0
WORDS_PER_SHOE = CARDS + 16         # 311 draws a shuffle, and a margin for Lemire's rare rejections
BLOCK = 4096                        # shoes of random words drawn at a time
CARD_NAMES = [[r + s for r in ranks for s in "SHDC"] for ranks in ("TJQK", *"A23456789")]


@njit(cache=True)
def _bounded(words: Any, cursor: Any, n: int) -> int:
    """A uniform integer in [0, n) from the 32-bit `words` (Lemire: one multiply, and a division only in the
    rare case that may need a rejection)."""
    i = cursor[0]
    m = np.uint64(words[i]) * np.uint64(n)
    i += 1
    low = m & np.uint64(0xFFFFFFFF)
    if low < np.uint64(n):
        threshold = np.uint64(((1 << 32) - n) % n)
        while low < threshold:
            m = np.uint64(words[i]) * np.uint64(n)
            i += 1
            low = m & np.uint64(0xFFFFFFFF)
    cursor[0] = i
    return int(m >> np.uint64(32))


@njit(cache=True)
def _shuffle(deck: Any, words: Any, cursor: Any) -> None:
    for i in range(deck.size - 1, 0, -1):
        j = _bounded(words, cursor, i + 1)
        deck[i], deck[j] = deck[j], deck[i]


@njit(cache=True)
def _play_shoe(deck: Any, burn_extra: int, player_draw: Any, bank_draw: Any, counts: Any, limit: int,
               record: Any, recorded: int) -> int:
    """Burn (the first card's value, tens and faces 10 here, plus that card itself when `burn_extra` is 1), then
    coups until the stop card has come out (001:671-673). Counts final (punto, bank) totals; returns coups played."""
    first = deck[0]
    pos = (first if first else 10) + burn_extra
    cut = deck.size - BELOW_STOP            # index of the first card behind the stop card
    coups = 0
    while pos <= cut and coups < limit:
        start = pos
        p = (deck[pos] + deck[pos + 2]) % 10
        b = (deck[pos + 1] + deck[pos + 3]) % 10
        pos += 4
        if p < 8 and b < 8:
            third = 10
            if player_draw[p]:
                third = deck[pos]
                pos += 1
                p = (p + third) % 10
            if bank_draw[b, third]:
                b = (b + deck[pos]) % 10
                pos += 1
        counts[p * 10 + b] += 1
        if recorded + coups < record.shape[0]:
            r = recorded + coups
            record[r, 0] = start
            record[r, 1] = pos - start
            record[r, 2] = p
            record[r, 3] = b
        coups += 1
    return coups


@njit(cache=True)
def _run(n_coups: int, words: Any, deck: Any, burn_extra: int, player_draw: Any, bank_draw: Any, counts: Any,
         record: Any, decks_out: Any, done: Any) -> None:
    """Shuffle and play shoes while random words last, until `n_coups` coups (the last shoe cut short).
    `done` carries [coups played, shoes used] from one block of words to the next."""
    cursor = np.zeros(1, dtype=np.int64)
    while done[0] < n_coups and cursor[0] + WORDS_PER_SHOE <= words.size:
        _shuffle(deck, words, cursor)
        if done[1] < decks_out.shape[0]:
            decks_out[done[1], :] = deck
        done[0] += _play_shoe(deck, burn_extra, player_draw, bank_draw, counts, n_coups - done[0], record, done[0])
        done[1] += 1


def _tables() -> tuple[np.ndarray, np.ndarray]:
    player, bank = tableau.punto_banca_draw_tables()
    return np.array(player, dtype=np.bool_), np.array(bank, dtype=np.bool_)


def _play(coups: int, gen: np.random.Generator, burn_extra: int, record: np.ndarray, decks: np.ndarray
          ) -> tuple[np.ndarray, int]:
    """Blocks of random words from the chunk's stream until `coups` coups are played."""
    player, bank = _tables()
    counts = np.zeros(100, dtype=np.int64)
    deck = VALUES.copy()
    done = np.zeros(2, dtype=np.int64)
    while done[0] < coups:
        shoes = min(BLOCK, (coups - int(done[0])) // 48 + 1)   # a shoe holds at least 49 coups (294 cards / 6)
        words = gen.integers(0, 1 << 32, size=shoes * WORDS_PER_SHOE, dtype=np.uint32)
        _run(coups, words, deck, burn_extra, player, bank, counts, record, decks, done)
    return counts, int(done[1])


def simulate_counts(coups: int, gen: np.random.Generator, burn_extra: int = 1) -> tuple[np.ndarray, int]:
    """Counts of final (punto total, bank total) over `coups` simulated coups (10 x 10), and the shoes used."""
    counts, shoes = _play(coups, gen, burn_extra, np.zeros((0, 4), dtype=np.int64), np.zeros((0, CARDS), dtype=np.int8))
    return counts.reshape(10, 10), shoes


@dataclass(frozen=True)
class SampleShoe:
    """One simulated shoe as the engine can replay it: its cards after the burn and the coups the kernel saw."""

    cards: list[str]               # the shoe after the opening burn (a round document's `shoe`)
    burned: int
    coups: list[tuple[int, int, int, int]]   # (first card, cards used, punto total, bank total), from the burn on


def shoe_sample(seed: int, coups: int, burn_extra: int = 1) -> list[SampleShoe]:
    """Replayable shoes for `coups` coups of chunk 0 of `seed`, every coup recorded."""
    record = np.zeros((coups, 4), dtype=np.int64)
    decks = np.zeros((coups // 48 + 2, CARDS), dtype=np.int8)
    _, shoes = _play(coups, simulation_stream(seed, 0), burn_extra, record, decks)
    out = []
    row = 0
    for s in range(shoes):
        values = decks[s]
        burned = (int(values[0]) or 10) + burn_extra
        seen: dict[int, int] = {}
        texts = []
        for v in values:                     # any of the cards of that value will do, within six of each
            k = seen.get(int(v), 0)
            seen[int(v)] = k + 1
            texts.append(CARD_NAMES[int(v)][k % len(CARD_NAMES[int(v)])])
        mine = []
        while row < coups and (not mine or record[row, 0] > mine[-1][0]):
            mine.append(tuple(int(x) - (burned if i == 0 else 0) for i, x in enumerate(record[row])))
            row += 1
        out.append(SampleShoe(texts[burned:], int(burned), mine))   # type: ignore[arg-type]
    return out


class PuntoBancaKernel:
    """`tapete simulate punto-banca`: histograms of each bet's return per unit, from the shoe kernel."""

    def __init__(self, game: Any, jurisdiction: str) -> None:
        self.game = game
        self.rules = game.rules_for(jurisdiction)

    def run(self, specs: list[Any], rounds: int, gen: np.random.Generator) -> list[dict[Fraction, int]]:
        from tapete.games.baccarat.punto_banca import bet_return

        counts, _ = simulate_counts(rounds, gen)
        out = []
        for spec in specs:
            hist: dict[Fraction, int] = {}
            for p in range(10):
                for b in range(10):
                    if counts[p, b]:
                        ret = bet_return(self.rules, spec.kind, Fraction(1), p, b)[0]
                        hist[ret] = hist.get(ret, 0) + int(counts[p, b])
            out.append(hist)
        return out


def python_coups(coups: int, seed: int) -> int:
    """The straightforward pure-Python loop the benchmark compares with: shuffle, burn, deal, tally."""
    import random

    rng = random.Random(seed)
    deck = [r for _ in range(4 * DECKS) for r in range(1, 14)]
    tally = [0] * 100
    played = 0
    while played < coups:
        rng.shuffle(deck)
        pos = min(deck[0], 10) + 1
        while pos <= CARDS - BELOW_STOP and played < coups:
            hand = [v if v < 10 else 0 for v in deck[pos:pos + 4]]
            p, b = (hand[0] + hand[2]) % 10, (hand[1] + hand[3]) % 10
            pos += 4
            if p < 8 and b < 8:
                third = None
                if tableau.punto_banca_player_draws(p):
                    third = deck[pos] if deck[pos] < 10 else 0
                    pos += 1
                    p = (p + third) % 10
                if tableau.punto_banca_bank_draws(b, third):
                    b = (b + (deck[pos] if deck[pos] < 10 else 0)) % 10
                    pos += 1
            tally[p * 10 + b] += 1
            played += 1
    return played
