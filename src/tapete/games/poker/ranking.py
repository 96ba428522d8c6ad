"""Cards, the catalogs' rankings (`Rules`) and the scalar core: what the evaluator and its tables both build on.

The evaluator (`evaluator.py`) reads hands with this code one at a time; the lookup tables behind its batch
API (`tables.py`) are filled by this same code (`_eval_plain`), so both import it and neither imports the
other back: imports go ranking <- tables <- evaluator. The card encoding and the strength packing are described
in `evaluator.py`'s docstring.

Seeds cited as `NNN:L` are lines of the instruments in docs/sources.md (000 Baleares, 003 Andalucía).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

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
