"""The poker hand evaluator all the catalogs' poker games share: one strength scale, quirks as `Rules`.

A card is an int 0..51, `rank * 4 + suit` (rank 0..12 for 2..A, suit 0..3 for S H D C); the jokers `X1`, `X2`
are 52 and 53. A *strength* is an int: higher wins, equal ties. Its bits are `code << 20 | f1 << 16 | ... |
f5`: a category code (its position in the catalog's order, so short-deck flushes get their own code above the
full house) and up to five tie-break fields, each a rank + 1 (0 = no card, e.g. the missing kickers of a
two-card hand).

Two paths give the same values: the scalar functions below read the rules card by card (the reference, and
what the engine calls for a single hand), and the batch functions (`rank7_batch`...) look hands up in tables
that `tables.py` builds *from the same scalar core* (`ranking.py`, which both import), compiled with Numba. The tests check that both agree, and
that both order hands as treys, phevaluator and eval7 do.

Seeds cited as `NNN:L` are lines of the instruments in docs/sources.md (000 Baleares, 003 Andalucía).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

import numpy as np

from tapete.games.poker.ranking import (
    _CATEGORY,
    _THREE_CARD_ORDER,
    ACE,
    CODE_SHIFT,
    DRAW_32,
    DRAW_52,
    FIGURAS,
    FIVE_OF_A_KIND,
    FLUSH,
    FLUSH_3,
    FLUSH_OVER_FULL,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    HIGH_CARD_3,
    JACK,
    JOKER_1,
    JOKER_2,
    KING,
    PAI_GOW,
    PAI_GOW_LITERAL,
    PAIR,
    PAIR_3,
    RANKS,
    SHORT_DECK,
    STANDARD,
    STRAIGHT,
    STRAIGHT_3,
    STRAIGHT_FLUSH,
    STRAIGHT_FLUSH_3,
    SUITS,
    THREE_CARD,
    THREE_OF_A_KIND,
    THREE_OF_A_KIND_3,
    TWO_PAIR,
    Rules,
    _best,
    _fields,
    _pack,
    _parse,
    card_index,
    card_text,
    parse_cards,
)
from tapete.games.poker.tables import evaluate

__all__ = [
    "DRAW_32",
    "DRAW_52",
    "FIGURAS",
    "FIVE_OF_A_KIND",
    "FLUSH_3",
    "FLUSH_OVER_FULL",
    "FOUR_OF_A_KIND",
    "FULL_HOUSE",
    "JACK",
    "JOKER_2",
    "KING",
    "PAIR_3",
    "PAI_GOW",
    "PAI_GOW_LITERAL",
    "SHORT_DECK",
    "STANDARD",
    "STRAIGHT_3",
    "STRAIGHT_FLUSH_3",
    "SUITS",
    "THREE_OF_A_KIND_3",
    "TWO_PAIR",
    "Rules",
    "best5",
    "best_exact",
    "board_allows_low",
    "card_index",
    "card_text",
    "category",
    "describe",
    "describe_low",
    "low8",
    "omaha_low8",
    "parse_cards",
    "rank2",
    "rank3",
    "rank5",
    "rank5_batch",
    "rank7_batch",
    "rank_batch",
]

# ------------------------------------------------------------------------------------------------- scalar API


def rank5(cards: str | Iterable[int | str], rules: Rules = STANDARD) -> int:
    """Strength of exactly five cards under `rules` (jokers only under Pai Gow rules)."""
    return _best(_parse(cards, (5,), "rank5"), rules)[0]


def best5(cards: str | Iterable[int | str], rules: Rules = STANDARD) -> tuple[int, tuple[int, ...]]:
    """Best five of 5..7 cards: (strength, its five cards, leading cards first: the pair, then kickers)."""
    return _best(_parse(cards, (5, 6, 7), "best5"), rules)


def rank2(cards: str | Iterable[int | str], rules: Rules = PAI_GOW) -> int:
    """Pai Gow's two-card small hand, on the five-card scale: `rank5(big) > rank2(small)` checks a setting.

    003:3766-3768 — only a pair or high cards, the best being a pair of aces ("pareja o dos ases"); the joker
    is an ace under the default reading (D-R1 a), so A + joker is that pair. A small hand whose cards match
    the big hand's leading cards ranks below it (the big hand's extra kickers), digest D-R4.
    """
    return _best(_parse(cards, (2,), "rank2"), rules)[0]


def rank3(cards: str | Iterable[int | str], *, five_card_order: bool = False) -> int:
    """Tripóquer's three-card strength: straight flush > three of a kind > straight > flush > pair > high.

    003:3614-3619 says the combinations are poker's with three cards; the order is read from the Fortuna and
    Extra-Ante tables (003:3676-3680, 003:3800-3804) and 003:3708-3710 (digest C-R1). `five_card_order=True`
    gives the literal five-card order instead (flush > straight > three of a kind). 003:3562-3565 — the ace
    plays below the 2 or above the K in a straight: A-2-3 is the lowest (3-high), Q-K-A the highest, K-A-2
    none. Ties (C-R2): high cards and flushes top-down, a pair then its kicker, a straight by its top card.
    """
    parsed = _parse(cards, (3,), "rank3")
    if any(c >= JOKER_1 for c in parsed):
        raise ValueError("tripóquer has no joker (003:3556-3559)")
    ranks = sorted((c >> 2 for c in parsed), reverse=True)
    suited = len({c & 3 for c in parsed}) == 1
    a, b, c = ranks
    top = a if a - c == 2 and a != b != c else (1 if ranks == [ACE, 1, 0] else -1)  # A-2-3 is 3-high
    if a == c:
        kind, fields = THREE_OF_A_KIND, [a + 1]
    elif a == b or b == c:
        pair, kick = (a, c) if a == b else (b, a)
        kind, fields = PAIR, [pair + 1, kick + 1]
    elif top >= 0:
        kind, fields = (STRAIGHT_FLUSH if suited else STRAIGHT), [top + 1]
    else:
        kind, fields = (FLUSH if suited else HIGH_CARD), [r + 1 for r in ranks]
    return _pack(THREE_CARD + kind if five_card_order else _THREE_CARD_ORDER[kind], fields)


def best_exact(
    hole: str | Iterable[int | str],
    board: str | Iterable[int | str],
    *,
    from_hole: int = 2,
    rules: Rules = STANDARD,
) -> tuple[int, tuple[int, ...]]:
    """Best five cards using exactly `from_hole` hole cards and the rest from the board.

    Omaha and its variants take two of the hole cards and three of the board (003:5405-5410); Andalucía's
    póquer sintético takes the two hole cards and three of the five common cards (003:5545-5549, digest E-R1).
    """
    h, b = parse_cards(hole), parse_cards(board)
    if len(set(h) | set(b)) != len(h) + len(b):
        raise ValueError("a card is both in the hole and on the board")
    if not 0 <= from_hole <= 5 or from_hole > len(h) or 5 - from_hole > len(b):
        need = 5 - from_hole
        raise ValueError(f"cannot take {from_hole} of {len(h)} hole cards and {need} of {len(b)} common ones")
    best: tuple[int, tuple[int, ...]] = (-1, ())
    for hs in combinations(h, from_hole):
        for bs in combinations(b, 5 - from_hole):
            cand = _best([*hs, *bs], rules)
            if cand[0] > best[0]:
                best = cand
    return best


def category(strength: int) -> str:
    """`high-card` ... `royal-flush`, `five-of-a-kind`, `figuras`: for any strength this module returns."""
    code = strength >> CODE_SHIFT
    if code >= THREE_CARD:
        code -= THREE_CARD
        if code not in (HIGH_CARD, PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, STRAIGHT_FLUSH):
            raise ValueError(f"{strength!r} is not a hand strength")
        return _CATEGORY[code]  # no royal flush among three cards (digest C.3)
    if code not in _CATEGORY or strength < 0:
        raise ValueError(f"{strength!r} is not a hand strength")
    if code == STRAIGHT_FLUSH and (strength >> 16) & 0xF == ACE + 1:
        return "royal-flush"
    return _CATEGORY[code]


_NAMES = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king",
          "ace"]
_PLURAL = ["twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks",
           "queens", "kings", "aces"]


def describe(strength: int) -> str:
    """A human reading of a strength, e.g. `full house, kings over sevens`, `straight, five-high`."""
    cat = category(strength)
    code = strength >> CODE_SHIFT
    f = _fields(strength)
    ranks = [x - 1 for x in f if x]
    cards = "-".join(RANKS[r] for r in ranks)
    three = code >= HIGH_CARD_3
    prefix = "three-card " if three else ""
    if cat == "royal-flush":
        return "royal flush"
    if cat in ("straight", "straight-flush"):
        top = ranks[0]
        name = "straight" if cat == "straight" else "straight flush"
        if f[1] == 1:  # Pai Gow's bonus field: the wheel ranked second (003:3909-3910)
            return f"{name}, A-2-3-4-5 (second only to ace-high, Pai Gow)"
        return f"{prefix}{name}, {_NAMES[top]}-high"
    if cat == "five-of-a-kind":
        return f"five {_PLURAL[ranks[0]]}"
    if cat == "four-of-a-kind":
        return f"four {_PLURAL[ranks[0]]}" + (f", kicker {RANKS[ranks[1]]}" if len(ranks) > 1 else "")
    if cat == "full-house":
        return f"full house, {_PLURAL[ranks[0]]} over {_PLURAL[ranks[1]]}"
    if cat == "flush":
        return f"{prefix}flush, {cards}"
    if cat == "three-of-a-kind":
        rest = "-".join(RANKS[r] for r in ranks[1:])
        return f"{prefix}three {_PLURAL[ranks[0]]}" + (f", kickers {rest}" if rest else "")
    if cat == "figuras":
        return f"figuras, {_PLURAL[ranks[0]]} with " + "-".join(RANKS[r] for r in ranks[1:])
    if cat == "two-pair":
        return f"two pair, {_PLURAL[ranks[0]]} and {_PLURAL[ranks[1]]}" + (
            f", kicker {RANKS[ranks[2]]}" if len(ranks) > 2 else "")
    if cat == "pair":
        rest = "-".join(RANKS[r] for r in ranks[1:])
        return f"{prefix}pair of {_PLURAL[ranks[0]]}" + (f", kickers {rest}" if rest else "")
    return f"{prefix}high card {cards}" if cards else "no card"


# ----------------------------------------------------------------------------------------------- the low hand


def low8(cards: str | Iterable[int | str]) -> int | None:
    """Best eight-or-better low of 5..7 cards, or None: LOWER is better.

    003:5420-5424 only says a low needs three common cards of rank 8 or lower and that the ace plays high and
    low; the ranking is the digest's R-LOW: five different ranks, all 8 or lower, the ace as 1, straights and
    flushes ignored, compared from the highest card down. The value packs those ranks highest first, one hex
    digit each (ace = 1): 8-5-3-2-A is 0x85321, the best possible 5-4-3-2-A is 0x54321.
    """
    parsed = _parse(cards, (5, 6, 7), "low8")
    if any(c >= JOKER_1 for c in parsed):
        raise ValueError("Omaha has no joker")
    lows = sorted({1 if c >> 2 == ACE else (c >> 2) + 2 for c in parsed if c >> 2 <= 6 or c >> 2 == ACE})
    if len(lows) < 5:
        return None
    value = 0
    for x in reversed(lows[:5]):
        value = value << 4 | x
    return value


def describe_low(value: int | None) -> str:
    """0x85321 -> `8-5-3-2-A`; None -> `no low`."""
    if value is None:
        return "no low"
    digits = [(value >> s) & 0xF for s in (16, 12, 8, 4, 0)]
    return "-".join("A" if d == 1 else str(d) for d in digits)


def omaha_low8(hole: str | Iterable[int | str], board: str | Iterable[int | str]) -> int | None:
    """Omaha high-low's low: two hole cards and three board cards (003:5405-5410), best `low8`, or None."""
    h, b = parse_cards(hole), parse_cards(board)
    best: int | None = None
    for hs in combinations(h, 2):
        for bs in combinations(b, 3):
            v = low8([*hs, *bs])
            if v is not None and (best is None or v < best):
                best = v
    return best


def board_allows_low(board: str | Iterable[int | str]) -> bool:
    """003:5420-5422 — the low half is played only if three common cards are 8 or lower (the ace too)."""
    return sum(1 for c in parse_cards(board) if c < JOKER_1 and (c >> 2 <= 6 or c >> 2 == ACE)) >= 3


# -------------------------------------------------------------------------------------------------- batch API


def rank_batch(hands: np.ndarray, rules: Rules = STANDARD, *, check: bool = True) -> np.ndarray:
    """Strengths of N hands of 5, 6 or 7 cards (an (N, k) array of card indices) as an int32 array.

    The same values as `best5(hand, rules)[0]`, looked up in tables (built on first use, then kept in memory).
    Jokers are refused (use the scalar API for Pai Gow hands that hold one). With `check`, a hand with a
    repeated card, a joker or a card outside the rules' deck raises ValueError; without it, such a hand gets
    -1.
    """
    return evaluate(hands, rules, check=check)


def rank5_batch(hands: np.ndarray, rules: Rules = STANDARD, *, check: bool = True) -> np.ndarray:
    """`rank5` for an (N, 5) array of card indices."""
    hands = np.asarray(hands)
    if hands.ndim != 2 or hands.shape[1] != 5:
        raise ValueError("rank5_batch takes an (N, 5) array of card indices")
    return rank_batch(hands, rules, check=check)


def rank7_batch(hands: np.ndarray, rules: Rules = STANDARD, *, check: bool = True) -> np.ndarray:
    """`best5(...)[0]` for an (N, 7) array of card indices (hold'em, stud, BAL sintético hands)."""
    hands = np.asarray(hands)
    if hands.ndim != 2 or hands.shape[1] != 7:
        raise ValueError("rank7_batch takes an (N, 7) array of card indices")
    return rank_batch(hands, rules, check=check)
