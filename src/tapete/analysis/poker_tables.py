"""The five-card tables every banked-poker analysis shares: all k-card sets, colex indices, the strength of every
five-card hand by the evaluator's batch API, and their categories. Below both `banked_poker` and
`sin_descarte_exact`, so that their imports go one way."""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import chain, combinations

import numpy as np

from tapete.games.poker import evaluator as ev

BINOM = np.array([[math.comb(n, k) for k in range(6)] for n in range(54)], dtype=np.int64)
# category index used by the kernels: 0 high card .. 9 royal flush
CATS = ("high-card", "pair", "two-pair", "three-of-a-kind", "straight", "flush", "full-house", "four-of-a-kind",
        "straight-flush", "royal-flush")
_CODE_TO_CAT = np.full(16, -1, dtype=np.int64)
for _code, _cat in ((ev.HIGH_CARD, 0), (ev.PAIR, 1), (ev.TWO_PAIR, 2), (ev.THREE_OF_A_KIND, 3), (ev.STRAIGHT, 4),
                    (ev.FLUSH, 5), (ev.FULL_HOUSE, 6), (ev.FOUR_OF_A_KIND, 7), (ev.STRAIGHT_FLUSH, 8)):
    _CODE_TO_CAT[_code] = _cat
NO_WHEEL = ev.Rules("no-wheel", ace_low=False)
RULES = {"standard": ev.STANDARD, "no-wheel": NO_WHEEL, "pai-gow": ev.PAI_GOW}


@lru_cache(maxsize=4)
def all_combos(k: int, n: int = 52) -> np.ndarray:
    """Every k-card set of cards 0..n-1, ascending within each row, as a uint8 array."""
    count = math.comb(n, k)
    flat = np.fromiter(chain.from_iterable(combinations(range(n), k)), dtype=np.uint8, count=count * k)
    return flat.reshape(count, k)


def colex(rows: np.ndarray) -> np.ndarray:
    """The colexicographic index of each ascending row: sum of C(card_i, i + 1)."""
    rows = rows.astype(np.int64)
    return sum(BINOM[rows[:, i], i + 1] for i in range(rows.shape[1]))


@lru_cache(maxsize=4)
def five_table(rules: str = "standard") -> np.ndarray:
    """The strength of every five-card hand of 52 cards, indexed by colex index (evaluator.rank5_batch)."""
    combos = all_combos(5)
    table = np.empty(len(combos), dtype=np.int32)
    table[colex(combos)] = ev.rank5_batch(combos, RULES[rules])
    return table


def category_index(strengths: np.ndarray) -> np.ndarray:
    """0 high card .. 9 royal flush for an array of five-card strengths."""
    cat = _CODE_TO_CAT[strengths >> ev.CODE_SHIFT]
    royal = (cat == 8) & (((strengths >> 16) & 0xF) == ev.ACE + 1)
    return np.where(royal, 9, cat)


@lru_cache(maxsize=2)
def five_card_counts(rules: str = "standard") -> dict[str, int]:
    """How many of the 2,598,960 five-card hands fall in each category."""
    counts = np.bincount(category_index(five_table(rules)), minlength=10)
    return {CATS[i]: int(counts[i]) for i in range(10)}
