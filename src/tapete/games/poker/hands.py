"""How each circle variant forms and compares hands, on top of the shared evaluator (`evaluator.py`).

The evaluator ranks five cards under a catalog's rules; this module says which five cards a variant may use
(best of seven, exactly two hole cards plus three common, each row of double hold'em, the low half of hi-lo)
and ranks the partial hands of stud's up-cards, which decide who brings in and who acts first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tapete.games.poker import evaluator as ev

SUIT_ORDER = {"S": 3, "H": 2, "D": 1, "C": 0}   # 003:5015-5017: picas > corazones > diamantes > tréboles
RANK_ORDER = ev.RANKS                            # 2..A, the ace high (003:4167-4169)

RULES = {"standard": ev.STANDARD, "short-deck": ev.SHORT_DECK, "draw-52": ev.DRAW_52, "draw-32": ev.DRAW_32}


def high(formation: str, hole: Sequence[str], board: Sequence[str], ranking: str = "standard") -> int:
    """The strength of a player's best high hand.

    `formation`: "best" — any five of his cards and the board (hold'em 003:5449-5451, stud 003:4978-4981, BAL
    sintético 000:1375); "two-plus-three" — exactly two hole cards and three common ones (Omaha 003:5241-5245,
    AND sintético 003:5545-5549); "five" — his five cards (draw, five stud).
    """
    rules = RULES[ranking]
    if formation == "two-plus-three":
        return ev.best_exact(list(hole), list(board), from_hole=2, rules=rules)[0]
    cards = [*hole, *board]
    if len(cards) == 5:
        return ev.rank5(cards, rules)
    return ev.best5(cards, rules)[0]


def best_cards(formation: str, hole: Sequence[str], board: Sequence[str], ranking: str = "standard") -> list[str]:
    """The five cards that make `high`, for the croupier's announcement."""
    rules = RULES[ranking]
    if formation == "two-plus-three":
        cards = ev.best_exact(list(hole), list(board), from_hole=2, rules=rules)[1]
    else:
        cards = ev.best5([*hole, *board], rules)[1]
    return [ev.card_text(c) for c in cards]


def low(hole: Sequence[str], board: Sequence[str]) -> int | None:
    """Omaha high-low's low (R-LOW): None unless three common cards are 8 or lower (003:5420-5422) and the player
    makes an eight-or-better low with two hole cards and three common ones. Lower is better."""
    if not ev.board_allows_low(list(board)):
        return None
    return ev.omaha_low8(list(hole), list(board))


def describe(strength: int) -> str:
    return ev.describe(strength)


def describe_low(value: int | None) -> str:
    return ev.describe_low(value)


def opening_minimum(blank_hands: int) -> int:
    """Five-card draw openers: a pair of jacks, then queens, kings, aces after consecutive blank hands
    (003:4846-4848, 4863-4873). Returns the rank index of the pair."""
    return ev.JACK + min(blank_hands, 3)


def has_openers(strength: int, pair_rank: int) -> bool:
    """A pair of `pair_rank` or any better combination (two pair, figuras, trips... all rank above any pair)."""
    return strength >= (ev.PAIR << ev.CODE_SHIFT) | ((pair_rank + 1) << 16)


def showing(cards: Sequence[str]) -> tuple[int, ...]:
    """R-STUD-FIRST: the value of a stud player's up-cards, to find who acts first in rounds 2-5 (003:5024-5026).

    Straights and flushes need five cards, so among up to four up-cards the categories are four of a kind >
    three of a kind > two pair > pair > high card; within one, compare the grouped ranks, then the others,
    highest first. Suits never count here (they only break bring-in ties)."""
    counts = Counter(RANK_ORDER.index(c[0]) for c in cards)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 4:
        category = 4
    elif shape[0] == 3:
        category = 3
    elif shape[:2] == [2, 2]:
        category = 2
    elif shape[0] == 2:
        category = 1
    else:
        category = 0
    return (category, *[r for r, n in groups for _ in range(n)])


def bring_in_key(card: str) -> tuple[int, int]:
    """The lowest up-card brings in (003:5009-5017): by rank with the ace high (R-ACE-BRINGIN), then by suit,
    clubs lowest. The smallest key brings in."""
    return RANK_ORDER.index(card[0]), SUIT_ORDER[card[1]]
