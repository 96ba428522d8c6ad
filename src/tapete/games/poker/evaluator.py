"""The poker hand evaluator all the catalogs' poker games share: one strength scale, quirks as `Rules`.

A card is an int 0..51, `rank * 4 + suit` (rank 0..12 for 2..A, suit 0..3 for S H D C); the jokers `X1`, `X2`
are 52 and 53. A *strength* is an int: higher wins, equal ties. Its bits are `code << 20 | f1 << 16 | ... |
f5`: a category code (its position in the catalog's order, so short-deck flushes get their own code above the
full house) and up to five tie-break fields, each a rank + 1 (0 = no card, e.g. the missing kickers of a
two-card hand).

Two paths give the same values: the scalar functions below read the rules card by card (the reference, and
what the engine calls for a single hand), and the batch functions (`rank7_batch`...) look hands up in tables
that `tables.py` builds *from this scalar code*, compiled with Numba. The tests check that both agree, and
that both order hands as treys, phevaluator and eval7 do.

Seeds cited as `NNN:L` are lines of the instruments in docs/sources.md (000 Baleares, 003 Andalucía).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

__all__ = [
    "DRAW_32",
    "DRAW_52",
    "PAI_GOW",
    "PAI_GOW_LITERAL",
    "SHORT_DECK",
    "STANDARD",
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

RANKS = "23456789TJQKA"
SUITS = "SHDC"
JOKER_1, JOKER_2 = 52, 53
ACE, KING, JACK = 12, 11, 9

# ------------------------------------------------------------------------------------------------------ cards


def card_index(text: str) -> int:
    """`AS` -> 48, `X1` -> 52; ValueError on anything else (the project's fixed card encoding)."""
    if isinstance(text, str) and len(text) == 2:
        r, s = RANKS.find(text[0]), SUITS.find(text[1])
        if r >= 0 and s >= 0:
            return r * 4 + s
        if text in ("X1", "X2"):
            return JOKER_1 + int(text[1]) - 1
    raise ValueError(f"{text!r} is not a card (rank 23456789TJQKA + suit SHDC, or a joker X1/X2)")


def card_text(index: int) -> str:
    """48 -> `AS`, 52 -> `X1`; ValueError outside 0..53."""
    i = operator.index(index)
    if 0 <= i < 52:
        return RANKS[i >> 2] + SUITS[i & 3]
    if i in (JOKER_1, JOKER_2):
        return f"X{i - 51}"
    raise ValueError(f"{index!r} is not a card index (0..51, jokers 52 and 53)")


def parse_cards(cards: str | Iterable[int | str]) -> list[int]:
    """Card indices from `"AS KD X1"` or from ints and texts mixed; ValueError on a bad or repeated card."""
    items: Iterable[int | str] = cards.split() if isinstance(cards, str) else cards
    out: list[int] = []
    for c in items:
        i = card_index(c) if isinstance(c, str) else operator.index(c)
        if not 0 <= i <= JOKER_2:
            raise ValueError(f"{c!r} is not a card index (0..51, jokers 52 and 53)")
        out.append(i)
    if len(set(out)) != len(out):
        raise ValueError(f"a card is repeated in {[card_text(i) for i in out]}")
    return out


# -------------------------------------------------------------------------------------------------- strengths

CODE_SHIFT = 20
HIGH_CARD, PAIR, TWO_PAIR, FIGURAS, THREE_OF_A_KIND, STRAIGHT = 0, 1, 2, 3, 4, 5
FLUSH, FULL_HOUSE, FLUSH_OVER_FULL, FOUR_OF_A_KIND, STRAIGHT_FLUSH, FIVE_OF_A_KIND = 6, 7, 8, 9, 10, 11
# Three-card hands in tripóquer's own order (rank3); with five_card_order=True, THREE_CARD + the codes above.
HIGH_CARD_3, PAIR_3, FLUSH_3, STRAIGHT_3, THREE_OF_A_KIND_3, STRAIGHT_FLUSH_3 = 16, 17, 18, 19, 20, 21
THREE_CARD = 32
_THREE_CARD_ORDER = {HIGH_CARD: HIGH_CARD_3, PAIR: PAIR_3, FLUSH: FLUSH_3, STRAIGHT: STRAIGHT_3,
                     THREE_OF_A_KIND: THREE_OF_A_KIND_3, STRAIGHT_FLUSH: STRAIGHT_FLUSH_3}

_CATEGORY = {
    HIGH_CARD: "high-card", PAIR: "pair", TWO_PAIR: "two-pair", FIGURAS: "figuras",
    THREE_OF_A_KIND: "three-of-a-kind", STRAIGHT: "straight", FLUSH: "flush", FULL_HOUSE: "full-house",
    FLUSH_OVER_FULL: "flush", FOUR_OF_A_KIND: "four-of-a-kind", STRAIGHT_FLUSH: "straight-flush",
    FIVE_OF_A_KIND: "five-of-a-kind",
    HIGH_CARD_3: "high-card", PAIR_3: "pair", FLUSH_3: "flush", STRAIGHT_3: "straight",
    THREE_OF_A_KIND_3: "three-of-a-kind", STRAIGHT_FLUSH_3: "straight-flush",
}


def _pack(code: int, fields: Sequence[int]) -> int:
    v = code << CODE_SHIFT
    shift = 16
    for f in fields[:5]:
        v |= f << shift
        shift -= 4
    return v


def _fields(strength: int) -> list[int]:
    return [(strength >> s) & 0xF for s in (16, 12, 8, 4, 0)]


# ------------------------------------------------------------------------------------------------------ rules


@dataclass(frozen=True)
class Rules:
    """One catalog's ranking of five-card hands; the presets below are the ones the seeds define.

    `low_rank` is the rank index of the deck's lowest card (0 = the deuce of 52 cards); the ace may sit below
    it to make the lowest straight. `flush_beats_full` is the rule of every deck short of 52 cards.
    `paigow_wheel` ranks A-2-3-4-5 second only to A-K-Q-J-10. `figuras` adds five-card draw's all-faces
    category. `joker` is how Pai Gow's joker plays: "bug" (an ace, or any card completing a straight or a
    straight flush) or "ace" (the literal text: only an ace, and only inside a straight, flush, straight flush
    or five aces; otherwise dead).
    """

    name: str = "standard"
    low_rank: int = 0
    flush_beats_full: bool = False
    ace_low: bool = True
    paigow_wheel: bool = False
    figuras: bool = False
    joker: str | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.low_rank <= 8:
            raise ValueError(f"low_rank {self.low_rank} leaves no straight below the ace")
        if self.paigow_wheel and self.low_rank:
            raise ValueError("the Pai Gow wheel is A-2-3-4-5: it needs the full deck")
        if self.joker not in (None, "bug", "ace"):
            raise ValueError(f"joker must be None, 'bug' or 'ace', not {self.joker!r}")

    @property
    def table_key(self) -> tuple[int, bool, bool, bool, bool]:
        """What the jokerless ranking depends on: rules equal here share lookup tables."""
        return (self.low_rank, self.flush_beats_full, self.ace_low, self.paigow_wheel, self.figuras)


# 000:1235, 003:2925-2927, 003:4167-4169 + 4043-4044 — the ace plays high, or low below the deuce (A-2-3-4-5
# is the lowest straight, its top card the 5: the "carta de mayor valor" of 000:1299, 003:3062-3063,
# 003:4340-4342).
STANDARD = Rules("standard")
# 003:5557-5565, 000:1381-1383 — 28 cards (8 to A), the ace also below the 8 (A-8-9-T-J, the lowest straight);
# 003:5586-5591, 003:4299-4302, 000:1447-1449 — the flush beats the full house.
SHORT_DECK = Rules("short-deck", low_rank=6, flush_beats_full=True)
# 003:4310-4312 — five-card draw ranks *figuras* (five cards A/K/Q/J) between three of a kind and two pair.
DRAW_52 = Rules("draw-52", figuras=True)
# 003:4831-4835 — draw may use 32 cards (composition not stated: read as 7 to A), 003:4299-4302 flush over
# full, 003:4043-4044 the ace also below the lowest card in play (A-7-8-9-T).
DRAW_32 = Rules("draw-32", low_rank=5, flush_beats_full=True, figuras=True)
# 003:3907-3910, 003:3891-3895 — A-2-3-4-5 is the second straight (the text's "8, 9, 10, J y Q" as the top one
# is read as A-K-Q-J-10, digest D-R2); 003:3884-3885 five aces top everything; 003:3779-3781 the joker
# (reading a of digest D-R1; PAI_GOW_LITERAL is reading b).
PAI_GOW = Rules("pai-gow", paigow_wheel=True, joker="bug")
PAI_GOW_LITERAL = Rules("pai-gow-literal", paigow_wheel=True, joker="ace")


# ------------------------------------------------------------------------------------------------ scalar core


def _straight(mask: int, rules: Rules) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Best straight in a rank bitmask: (tie-break fields, ranks top-down) or None."""
    low = rules.low_rank
    high = -1
    for top in range(ACE, low + 3, -1):
        if (mask >> (top - 4)) & 0x1F == 0x1F:
            high = top
            break
    wheel = rules.ace_low and (mask >> ACE) & 1 and (mask >> low) & 0xF == 0xF
    if wheel and (high < 0 or (rules.paigow_wheel and high != ACE)):
        seq = (low + 3, low + 2, low + 1, low, ACE)
        # 003:3909-3910 — Pai Gow: A-2-3-4-5 just above K-high (the K field plus a bonus field); elsewhere the
        # ace counts low and the top card is the 5 (or the J of A-8-9-T-J, 003:5564-5565).
        return ((KING + 1, 1) if rules.paigow_wheel else (low + 4,)), seq
    if high >= 0:
        return (high + 1,), tuple(range(high, high - 5, -1))
    return None


def _eval_plain(ranks: Sequence[int], suits: Sequence[int], rules: Rules) -> tuple[int, list[int]]:
    """Best hand of 1..7 jokerless cards (parallel rank and suit lists): (strength, positions of its cards).

    Categories are tried from the top of the rules' order down; each returns its best instance, so the first
    that exists is the answer. Fewer than five cards (the small hand, a dead joker) just have fewer kickers.
    """
    n = len(ranks)
    order = sorted(range(n), key=ranks.__getitem__, reverse=True)
    by_rank: dict[int, list[int]] = {}
    for i in order:
        by_rank.setdefault(ranks[i], []).append(i)
    groups = sorted(by_rank.items(), key=lambda kv: (len(kv[1]), kv[0]), reverse=True)
    top_rank, top_pos = groups[0]
    top_count = len(top_pos)

    def kickers(used: list[int], k: int) -> list[int]:
        return [i for i in order if i not in used][:k]

    flush: list[int] | None = None
    if n >= 5:
        counts = [0, 0, 0, 0]
        for s in suits:
            counts[s] += 1
        for s in range(4):
            if counts[s] >= 5:
                flush = [i for i in order if suits[i] == s]
    if top_count >= 5:  # 003:3884-3885 — only through the joker: five aces
        return _pack(FIVE_OF_A_KIND, (top_rank + 1,)), top_pos[:5]
    if flush:
        by_suited_rank: dict[int, int] = {}
        mask = 0
        for i in flush:
            by_suited_rank.setdefault(ranks[i], i)
            mask |= 1 << ranks[i]
        st = _straight(mask, rules)
        if st:
            return _pack(STRAIGHT_FLUSH, st[0]), [by_suited_rank[r] for r in st[1]]
    if top_count == 4:
        pos = top_pos + kickers(top_pos, 1)
        return _pack(FOUR_OF_A_KIND, [top_rank + 1] + [ranks[i] + 1 for i in pos[4:]]), pos
    full = top_count == 3 and len(groups) > 1 and len(groups[1][1]) >= 2
    flush_code = FLUSH_OVER_FULL if rules.flush_beats_full else FLUSH
    if flush and rules.flush_beats_full:
        return _pack(flush_code, [ranks[i] + 1 for i in flush[:5]]), flush[:5]
    if full:
        second_rank, second_pos = groups[1]
        return _pack(FULL_HOUSE, (top_rank + 1, second_rank + 1)), top_pos + second_pos[:2]
    if flush:
        return _pack(flush_code, [ranks[i] + 1 for i in flush[:5]]), flush[:5]
    if n >= 5:
        mask = 0
        for r in by_rank:
            mask |= 1 << r
        st = _straight(mask, rules)
        if st:
            return _pack(STRAIGHT, st[0]), [by_rank[r][0] for r in st[1]]
    if top_count == 3:
        pos = top_pos + kickers(top_pos, 2)
        return _pack(THREE_OF_A_KIND, [top_rank + 1] + [ranks[i] + 1 for i in pos[3:]]), pos
    if rules.figuras:
        faces = [i for i in order if ranks[i] >= JACK]
        if len(faces) >= 5:  # five of A/K/Q/J always hold a pair; 003:4353-4355 highest pair, then the others
            pair_rank = next(r for r, p in by_rank.items() if r >= JACK and len(p) >= 2)
            pos = by_rank[pair_rank][:2]
            pos += [i for i in faces if i not in pos][:3]
            return _pack(FIGURAS, [pair_rank + 1] + [ranks[i] + 1 for i in pos[2:]]), pos
    if top_count == 2 and len(groups) > 1 and len(groups[1][1]) == 2:
        pos = top_pos + groups[1][1]
        pos += kickers(pos, 1)
        return _pack(TWO_PAIR, [top_rank + 1, groups[1][0] + 1] + [ranks[i] + 1 for i in pos[4:]]), pos
    if top_count == 2:
        pos = top_pos + kickers(top_pos, 3)
        return _pack(PAIR, [top_rank + 1] + [ranks[i] + 1 for i in pos[2:]]), pos
    pos = order[:5]
    return _pack(HIGH_CARD, [ranks[i] + 1 for i in pos]), pos


def _eval_joker(reals: list[int], joker: int, rules: Rules) -> tuple[int, tuple[int, ...]]:
    """A hand of up to four real cards plus the joker, as 003:3779-3781 lets the joker play (see `Rules`)."""
    ranks = [c >> 2 for c in reals]
    suits = [c & 3 for c in reals]
    # The joker as an ace takes the suit that can make a flush (four suited real cards), any suit otherwise.
    suit = suits[0] if len(set(suits)) == 1 else 0
    strength, pos = _eval_plain([*ranks, ACE], [*suits, suit], rules)
    n = len(reals)
    if rules.joker == "bug":
        # 003:3779-3781 reading (a): an ace, or any card that completes a straight or straight flush (a flush
        # is already completed by the joker as that suit's ace, even when the ace is held: A-A-K-9-5).
        if n == 4:
            mask = 0
            for r in ranks:
                mask |= 1 << r
            for r in range(ACE):
                if (mask >> r) & 1 or _straight(mask | (1 << r), rules) is None:
                    continue
                s, p = _eval_plain([*ranks, r], [*suits, suit], rules)
                if s >> CODE_SHIFT in (STRAIGHT, STRAIGHT_FLUSH) and s > strength:
                    strength, pos = s, p
    elif strength >> CODE_SHIFT not in (STRAIGHT, FLUSH, FLUSH_OVER_FULL, STRAIGHT_FLUSH, FIVE_OF_A_KIND):
        # 003:3779-3781 literal (b): the joker is an ace only to complete those hands; otherwise it is dead.
        strength, pos = _eval_plain(ranks, suits, rules) if reals else (0, [])
        pos = [*pos, n]  # the dead joker still fills the hand
    cards = [*reals, joker]
    return strength, tuple(cards[i] for i in pos)


def _best(cards: list[int], rules: Rules) -> tuple[int, tuple[int, ...]]:
    """Best hand of up to 7 parsed cards, jokers included: (strength, the chosen cards)."""
    jokers = [c for c in cards if c >= JOKER_1]
    reals = [c for c in cards if c < JOKER_1]
    for c in reals:
        if c >> 2 < rules.low_rank:
            lowest = RANKS[rules.low_rank]
            raise ValueError(f"{card_text(c)} is not in the {rules.name} deck (lowest rank: {lowest})")
    if not jokers:
        strength, pos = _eval_plain([c >> 2 for c in reals], [c & 3 for c in reals], rules)
        return strength, tuple(reals[i] for i in pos)
    if rules.joker is None:
        raise ValueError(f"the {rules.name} ranking has no joker (Pai Gow's, 003:3779-3781, is the only one)")
    if len(jokers) > 1:
        raise ValueError("at most one joker: Pai Gow's deck is 52 cards plus one joker (003:3777-3781)")
    joker = jokers[0]
    if len(reals) <= 4:
        return _eval_joker(reals, joker, rules)
    best = _best(reals, rules)
    for combo in combinations(reals, 4):
        cand = _eval_joker(list(combo), joker, rules)
        if cand[0] > best[0]:
            best = cand
    return best


def _parse(cards: str | Iterable[int | str], counts: Iterable[int], what: str) -> list[int]:
    parsed = parse_cards(cards)
    if len(parsed) not in counts:
        raise ValueError(f"{what} takes {'/'.join(map(str, counts))} cards, got {len(parsed)}")
    return parsed


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
    from tapete.games.poker.tables import evaluate

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
