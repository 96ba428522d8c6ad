"""What the blackjack solver and its exact evaluation share, below both (imports go one way: blackjack_words <-
blackjack <- blackjack_exact, blackjack_sim): the words of second cards a split deals (Eric Farmer's exact
fixed-strategy split, docs/games/blackjack.md#exact-splits), valued over any number type, and a chart's
fingerprint."""

from __future__ import annotations

from functools import lru_cache
from math import comb
from typing import Any

import numpy as np


# -- the split words -------------------------------------------------------------------------------------------
@lru_cache(maxsize=4)
def split_words(cap: int) -> tuple[tuple[int, int, int, int], ...]:
    """(pair cards s, N hands n, A hands a, how many words) for every word of second cards a split can deal with
    at most `cap` hands: while fewer than `cap` hands show, a pair card makes a new hand (P) and any other
    card completes the hand (N); at `cap` hands any card completes it (A)."""
    counts: dict[tuple[int, int, int], int] = {}

    def walk(hands: int, done: int, s: int, n: int, a: int) -> None:
        if done == hands:
            counts[s, n, a] = counts.get((s, n, a), 0) + 1
            return
        if hands < cap:
            walk(hands + 1, done, s + 1, n, a)
            walk(hands, done + 1, s, n + 1, a)
        else:
            walk(hands, done + 1, s, n, a + 1)

    walk(2, 0, 0, 0, 0)
    return tuple((s, n, a, k) for (s, n, a), k in sorted(counts.items()))


def max_forced(cap: int) -> int:
    """The most pair cards any term of the expansion fixes (levels 0..max_forced are needed)."""
    return max(s + n for s, n, _, _ in split_words(cap))


def split_value(cap: int, g: list[Any], evx: list[Any], evn: list[Any]) -> Any:
    """Σ over words and hands of E[hand value · 1{word}], from g(j) (j given positions hold pair cards), evx[j]
    (a hand's value with its second card free, j pair cards out) and evn[j] (the same summed over non-pair second
    cards only, unnormalised). Works for floats, Fractions and integers modulo a prime (reduce afterwards)."""
    total: Any = 0
    for s, n, a, k in split_words(cap):
        part: Any = 0
        if n:
            part += n * sum((-1) ** t * comb(n - 1, t) * g[s + t] * evn[s + t] for t in range(n))
        if a:
            part += a * sum((-1) ** t * comb(n, t) * g[s + t] * evx[s + t] for t in range(n + 1))
        total += k * part
    return total


def word_probabilities(cap: int, g: list[Any]) -> Any:
    """Σ P(word): 1 exactly (a test)."""
    return sum(k * sum((-1) ** t * comb(n, t) * g[s + t] for t in range(n + 1)) for s, n, _, k in split_words(cap))


def fingerprint(sol: Any) -> str:
    """SHA-256 (16 hex digits) of a chart's arrays: stored figures are read only for the chart they were made for."""
    import hashlib

    h = hashlib.sha256()
    for a in (sol.hs, sol.first, sol.pair, sol.can_double):
        h.update(np.ascontiguousarray(a).astype(np.int8).tobytes())
    return h.hexdigest()[:16]
