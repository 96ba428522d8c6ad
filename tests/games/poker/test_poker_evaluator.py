"""The shared poker evaluator: every category and tie-break, each catalog quirk (with its seed line), the
batch path against the scalar one, and the ordering of hands against treys, phevaluator and eval7."""

from __future__ import annotations

import itertools
import time
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tapete.games.poker import tables
from tapete.games.poker.evaluator import (
    DRAW_32,
    DRAW_52,
    PAI_GOW,
    PAI_GOW_LITERAL,
    SHORT_DECK,
    STANDARD,
    Rules,
    best5,
    best_exact,
    board_allows_low,
    card_index,
    card_text,
    category,
    describe,
    describe_low,
    low8,
    omaha_low8,
    parse_cards,
    rank2,
    rank3,
    rank5,
    rank5_batch,
    rank7_batch,
    rank_batch,
)


def beats(a: str, b: str, rules: Rules = STANDARD) -> bool:
    return rank5(a, rules) > rank5(b, rules)


def ties(a: str, b: str, rules: Rules = STANDARD) -> bool:
    return rank5(a, rules) == rank5(b, rules)


def random_hands(n: int, k: int, seed: int, deck: int = 52, low: int = 0) -> np.ndarray:
    """n hands of k distinct cards from the cards low..deck-1, seeded (rejection of rows with a repeat)."""
    rng = np.random.default_rng(seed)
    out = np.empty((0, k), dtype=np.uint8)
    while len(out) < n:
        draw = rng.integers(low, deck, size=(int((n - len(out)) * 1.7) + 16, k), dtype=np.uint8)
        s = np.sort(draw, axis=1)
        out = np.concatenate([out, draw[(np.diff(s, axis=1) != 0).all(axis=1)]])
    return out[:n]


# ------------------------------------------------------------------------------------------------------ cards


def test_card_encoding_round_trip() -> None:
    assert card_index("2S") == 0 and card_index("2C") == 3
    assert card_index("AS") == 48 and card_index("AC") == 51
    assert card_index("TD") == 8 * 4 + 2 and card_index("X1") == 52 and card_index("X2") == 53
    for i in range(54):
        assert card_index(card_text(i)) == i
    for bad in ("", "1S", "AX", "As", "10S", "X3", "ASS", 12):
        with pytest.raises(ValueError):
            card_index(bad)  # type: ignore[arg-type]
    for bad in (-1, 54, 100):
        with pytest.raises(ValueError):
            card_text(bad)
    assert parse_cards("AS KD X1") == [48, 46, 52]
    assert parse_cards(["AS", 46]) == [48, 46]
    with pytest.raises(ValueError):
        parse_cards("AS AS")
    with pytest.raises(ValueError):
        rank5("AS KS QS JS")
    with pytest.raises(ValueError):
        rank5("AS KS QS JS X1")  # no joker outside Pai Gow


# ------------------------------------------------------------------------------------------------- categories


@pytest.mark.parametrize(
    ("hand", "name"),
    [
        ("AS KS QS JS TS", "royal-flush"),        # 000:1275, 003:2998-3001
        ("9C 8C 7C 6C 5C", "straight-flush"),     # 000:1277, 003:3003-3006
        ("KS KH KD KC 2S", "four-of-a-kind"),     # 000:1279, 003:3008-3010
        ("7S 7H 7D 8C 8S", "full-house"),         # 000:1281, 003:3012-3014
        ("AC 4C 7C 8C QC", "flush"),              # 000:1283, 003:3016-3018
        ("7S 8H 9D TC JS", "straight"),           # 000:1285, 003:3019-3021
        ("QS QH QD 5C 2S", "three-of-a-kind"),    # 000:1287, 003:3023-3024
        ("KS KH 7D 7C 2S", "two-pair"),           # 000:1289, 003:3026-3028
        ("QS QH 9D 5C 2S", "pair"),               # 000:1291, 003:3030-3031
        ("AS JH 9D 5C 2S", "high-card"),          # 000:1293, 003:3033-3040
    ],
)
def test_every_category(hand: str, name: str) -> None:
    assert category(rank5(hand)) == name


def test_category_order() -> None:
    # 000:1273-1293, 003:2996-3040, 003:4277-4324 — the order, highest first.
    ladder = ["AS KS QS JS TS", "9C 8C 7C 6C 5C", "2S 2H 2D 2C 3S", "7S 7H 7D 8C 8S", "AC 4C 7C 8C QC",
              "7S 8H 9D TC JS", "QS QH QD 5C 2S", "KS KH 7D 7C 2S", "QS QH 9D 5C 2S", "AS JH 9D 5C 2S"]
    strengths = [rank5(h) for h in ladder]
    assert strengths == sorted(strengths, reverse=True)


def test_ace_low_straight_is_the_lowest() -> None:
    # 000:1235, 003:2925-2927 — the ace "más pequeña delante del dos"; digest A-R2: A-2-3-4-5 is 5-high.
    wheel = rank5("AS 2D 3H 4S 5D")
    assert category(wheel) == "straight" and describe(wheel) == "straight, five-high"
    assert beats("2S 3D 4H 5S 6D", "AS 2D 3H 4S 5D")
    assert beats("AS 2D 3H 4S 5D", "KS KD KH 4S 5C")  # still a straight, above three of a kind
    assert beats("6C 5C 4C 3C 2C", "5H 4H 3H 2H AH")  # and the lowest straight flush
    assert category(rank5("QS KD AH 2S 3D")) == "high-card"  # no wrap-around
    st_, cards = best5("AS 4D 5H 2C 3D KS KH")
    assert category(st_) == "straight" and [card_text(c) for c in cards] == ["5H", "4D", "3D", "2C", "AS"]


def test_tie_breaks() -> None:
    # 000:1295, 003:3053-3054 (and 003:4330-4333 the fifth card in circle poker)
    assert beats("KS KH KD KC 2S", "QS QH QD QC AS")
    assert beats("9S 9H 9D 9C KS", "9S 9H 9D 9C QS")
    # 000:1297, 003:3056-3057 the trío; 003:4335-4338 then the pair
    assert beats("7S 7H 7D 2C 2S", "6S 6H 6D AC AS")
    assert beats("7S 7H 7D AC AS", "7S 7H 7D KC KS")
    # 000:1299, 003:3062-3063 straights by their top card
    assert beats("8S 9H TD JC QS", "7S 8H 9D TC JS") and ties("7S 8H 9D TC JS", "7C 8D 9H TS JD")
    # 000:1301 flush lexicographic; 003:3059-3060 names only the top card — digest A-R3 (SD-13): all five
    assert beats("AS JS 8S 6S 2S", "AH TH 8H 4H 3H")
    assert beats("AS JS 8S 6S 3S", "AH JH 8H 6H 2H")
    # 000:1303, 003:3065-3066 trío, 003:4347-4351 then the kickers
    assert beats("QS QH QD 5C 2S", "JS JH JD AC KS") and beats("QS QH QD 6C 2S", "QS QH QD 5C 4S")
    # 000:1305, 003:3068-3071 (SD-11): higher pair, second pair, kicker
    assert beats("KS KH 7S 7H QC", "KD KC 7D 7C 9H")
    assert beats("KS KH 8S 8H 2C", "KD KC 7D 7C AH")
    # 000:1307, 003:3073-3075 pair then kickers (SD-12: the third kicker decides, A-R3)
    assert beats("QS QH AD 9C 5S", "QD QC AC 9H 3D")
    # 000:1293, 003:3036-3039 high cards top down (SD-07); SD-06 identical ranks tie
    assert beats("AS KS JD 6C 4H", "AH KD 9C 6S 4D")
    assert ties("AS KS 9D 6C 4H", "AH KD 9C 6S 4D")


def test_describe() -> None:
    assert describe(rank5("KS KH KD 4C 4S")) == "full house, kings over fours"
    assert describe(rank5("AS KS QS JS TS")) == "royal flush"
    assert describe(rank5("QS QH AD 9C 5S")) == "pair of queens, kickers A-9-5"
    assert describe(rank5("KS KH 7S 7H QC")) == "two pair, kings and sevens, kicker Q"
    assert describe(rank5("9S 9H 9D 9C KS")) == "four nines, kicker K"


# --------------------------------------------------------------------------------------------- catalog quirks


def test_trijoker_literal_and_without_ace_low() -> None:
    # 003:3317-3318 gives AND Trijoker only the rank list (no low ace; digest B-R1 keeps ace-low by default,
    # 000:1613).
    no_wheel = Rules("trijoker-literal", ace_low=False)
    assert category(rank5("AC 2D 3H 4S 5C", no_wheel)) == "high-card"
    assert category(rank5("AC 2D 3H 4S 5C")) == "straight"


def test_short_deck_sintetico() -> None:
    # 003:5586-5591, 003:4299-4302, 000:1447-1449 — the flush beats the full house (SY-01).
    assert beats("AS JS 8S QS 9S", "KC KH KD 8H 8C", SHORT_DECK)
    assert category(rank5("AS JS 8S QS 9S", SHORT_DECK)) == "flush"
    assert beats("KC KH KD 8H 8C", "AS JS 8S QS 9S")  # not in the 52-card ranking
    assert beats("9S 9H 9D 9C 8S", "AS JS 8S QS 9S", SHORT_DECK)  # póquer still above the flush
    # 003:5564-5565, 000:1383 — A-8-9-T-J is a straight, the lowest: J-high (SY-04, digest E-R2).
    low = rank5("AS 8D 9H TC JD", SHORT_DECK)
    assert category(low) == "straight" and describe(low) == "straight, jack-high"
    assert beats("8S 9H TD JC QS", "AS 8D 9H TC JD", SHORT_DECK)
    assert beats("AS 8D 9H TC JD", "QC QD QH TH 8H", SHORT_DECK)
    assert category(rank5("AS 8S 9S TS JS", SHORT_DECK)) == "straight-flush"
    with pytest.raises(ValueError):
        rank5("AS 7D 9H TC JD", SHORT_DECK)  # 003:5557-5562: no 7 in the 28 cards


def test_short_deck_hand_formation() -> None:
    # SY-01 with AND's two hole + three board (003:5545-5549) and BAL's best five of seven (000:1375).
    board = "AS JS 8S KH KD"
    x = best_exact("QS 9S", board, rules=SHORT_DECK)[0]
    y = best_exact("KC 8H", board, rules=SHORT_DECK)[0]
    assert x > y and category(y) == "full-house"
    # SY-12: Q Q Q 8 9 board; BAL (best of seven) Y has a full house, AND (2 + 3) only three queens.
    board = "QS QH QD 8C 9D"
    assert best5("JC 8H " + board, SHORT_DECK)[0] > best5("AS KS " + board, SHORT_DECK)[0]
    assert best_exact("AS KS", board, rules=SHORT_DECK)[0] > best_exact("JC 8H", board, rules=SHORT_DECK)[0]
    # SY-02: a royal board; AND's X must use both nines: a pair of nines beats a pair of eights.
    board = "AS KS QS JS TS"
    assert best5("9H 9D " + board, SHORT_DECK)[0] == best5("8H 8D " + board, SHORT_DECK)[0]
    assert best_exact("9H 9D", board, rules=SHORT_DECK)[0] > best_exact("8H 8D", board, rules=SHORT_DECK)[0]
    # SY-11: K K 9 9 with an A kicker beats the Q kicker (003:4357-4361).
    assert best_exact("KH AC", "KS 9H 9S 8D JC")[0] > best_exact("KD QC", "KS 9H 9S 8D JC")[0]


def test_figuras_in_draw() -> None:
    # 003:4310-4312 — figuras (five of A/K/Q/J) between three of a kind and two pair, in draw only.
    assert category(rank5("QS QD JC JH KD", DRAW_52)) == "figuras"
    assert beats("QS QD JC JH KD", "AS AD KC KH 2S", DRAW_52)  # D-04
    assert beats("7S 7D 7C KC 2D", "KH KD QS JC AH", DRAW_52)  # D-05
    # 003:4353-4355 highest pair, then the highest card (R-FIG: K-K-A-Q-J beats K-K-Q-Q-J), D-06.
    assert beats("KS KD AC QH JD", "KH KC QS QD JH", DRAW_52)
    assert category(rank5("QS QD JC JH KD")) == "two-pair"  # no figuras outside draw
    assert category(rank5("KS KD KC QH JD", DRAW_52)) == "three-of-a-kind"


def test_draw_with_32_cards() -> None:
    # 003:4831-4835 (52 or 32 cards), 003:4299-4302 flush over full (D-07), 003:4043-4044 A-7-8-9-T (D-08,
    #
    assert beats("7H 9H JH QH AH", "KS KD KC 8H 8D", DRAW_32)
    assert category(rank5("AC 7D 8H 9S TD", DRAW_32)) == "straight"
    assert beats("AC 7D 8H 9S TD", "JC JD JS 9C 8D", DRAW_32)
    assert beats("7C 8D 9H TS JD", "AC 7D 8H 9S TD", DRAW_32)


def test_tripoquer_three_card_ranking() -> None:
    # 003:3614-3619 poker combinations with three cards; order SF > 3K > ST > FL > 1P > HC read from the
    # Fortuna and Extra-Ante tables (003:3676-3680, 003:3800-3804) and 003:3708-3710 (digest C-R1).
    ladder = ["5D 6D 7D", "4C 4D 4H", "5C 6D 7H", "AH JH 4H", "KS KH 4D", "QH 8C 3D"]
    strengths = [rank3(h) for h in ladder]
    assert strengths == sorted(strengths, reverse=True)
    assert [category(s) for s in strengths] == [
        "straight-flush", "three-of-a-kind", "straight", "flush", "pair", "high-card"]
    # TP-12 both ways: the literal five-card order puts the flush above the straight.
    assert rank3("5C 6D 7H") > rank3("AH JH 4H")
    assert rank3("5C 6D 7H", five_card_order=True) < rank3("AH JH 4H", five_card_order=True)
    # 003:3562-3565 the ace below the 2 or above the K: A-2-3 the lowest straight, Q-K-A the top, K-A-2 none.
    assert category(rank3("AD 2C 3H")) == "straight" and rank3("AD 2C 3H") < rank3("2S 3D 4C")
    assert rank3("QS KS AS") > rank3("JD QD KD") and category(rank3("QS KS AS")) == "straight-flush"
    assert category(rank3("KS AD 2C")) == "high-card"
    assert category(rank3("QS KS AS", five_card_order=True)) == "straight-flush"  # no royal among three cards
    assert describe(rank3("AD 2C 3H")) == "three-card straight, three-high"
    # C-R2 ties: TP-09 identical ranks tie, TP-11 second card, pair then kicker, TP-17 a straight beats a
    # pair.
    assert rank3("KS 9D 5C") == rank3("KH 9C 5D")
    assert rank3("QH 8C 3D") > rank3("QC 7D 2S")
    assert rank3("JS JD 3C") < rank3("QS QD 2H") and rank3("QS QD 3H") > rank3("QC QH 2D")
    assert rank3("AC 2D 3S") > rank3("KS KD 9C")


def test_pai_gow_big_hand() -> None:
    # 003:3884-3885 five aces (four aces + the joker) is the top hand, above the royal flush (PG-11).
    five = rank5("AS AH AD AC X1", PAI_GOW)
    assert category(five) == "five-of-a-kind" and describe(five) == "five aces"
    assert five > rank5("AS KS QS JS TS", PAI_GOW)
    # 003:3907-3910 A-2-3-4-5 is the second straight: above K-high, below A-high (digest D-R2); PG-12 with
    # joker.
    assert beats("AC 2D 3C 4H 5S", "KD QH JC TS 9H", PAI_GOW)
    assert beats("AD KH QC JS TH", "AC 2D 3C 4H 5S", PAI_GOW)
    assert beats("X1 2D 3C 4H 5S", "KD QH JC TS 9H", PAI_GOW)
    assert beats("AD KS QD JH TC", "8C 9D TH JS QC", PAI_GOW)  # PG-18, recommended reading
    # 003:3891-3895 the same for straight flushes, the royal flush (003:3887-3889) above them all.
    assert beats("AC 2C 3C 4C 5C", "9C TC JC QC KC", PAI_GOW)
    assert beats("AS KS QS JS TS", "AC 2C 3C 4C 5C", PAI_GOW)
    assert category(rank5("AC 2C 3C 4C 5C", PAI_GOW)) == "straight-flush"


def test_pai_gow_joker() -> None:
    # 003:3779-3781, reading (a) (digest D-R1): an ace, or any card completing a straight / straight flush.
    assert describe(rank5("X1 9S TS JS QS", PAI_GOW)) == "straight flush, king-high"
    assert describe(rank5("X1 5S 6S 7S 8S", PAI_GOW)) == "straight flush, nine-high"
    assert describe(rank5("X1 KD QH JC TS", PAI_GOW)) == "straight, ace-high"
    assert describe(rank5("X1 AH KS 9D 5S", PAI_GOW)) == "pair of aces, kickers K-9-5"
    assert describe(rank5("X1 KH KS 9D 5S", PAI_GOW)) == "pair of kings, kickers A-9-5"
    assert category(rank5("X1 AS KS QS JS", PAI_GOW)) == "royal-flush"
    # As the flush's ace, even with that ace held ("como un as para completar ... color").
    assert describe(rank5("X1 AS KS 9S 5S", PAI_GOW)) == "flush, A-A-K-9-5"
    assert describe(rank5("X1 QS 8S 6S 3S", PAI_GOW)) == "flush, A-Q-8-6-3"
    # The literal reading (b): an ace only, and only inside a straight, flush, straight flush or five aces.
    assert describe(rank5("X1 9S TS JS QS", PAI_GOW_LITERAL)) == "flush, A-Q-J-T-9"
    assert describe(rank5("X1 AH AS 9D 9S", PAI_GOW_LITERAL)) == "two pair, aces and nines"
    # a dead joker still fills the hand
    assert sorted(best5("X1 AH AS 9D 9S", PAI_GOW_LITERAL)[1]) == parse_cards("9S 9D AS AH X1")
    assert describe(rank5("X1 AH AS AD AC", PAI_GOW_LITERAL)) == "five aces"
    assert describe(rank5("X1 2D 3C 4H 5S", PAI_GOW_LITERAL)).startswith("straight, A-2-3-4-5")
    with pytest.raises(ValueError):
        rank5("X1 X2 AS KS QS", PAI_GOW)  # 003:3777-3781: one joker


def test_pai_gow_small_hand_and_setting() -> None:
    # 003:3766-3768 the best small hand is a pair of aces; with the joker as an ace, A + joker is that pair
    # (PG-17).
    assert describe(rank2("AS X1")) == "pair of aces" and rank2("AS X1") == rank2("AS AD")
    assert rank2("AS X1") > rank2("KS KD") > rank2("AS KD") > rank2("AS QD") > rank2("KS QD")
    assert rank2("4C X1") == rank2("4C AS")
    assert rank2("QS QD") > rank2("KD JC")  # PG-17's bank: a legal split
    # 003:4000-4003 the big hand must rank above the small one; 003:4146-4147 otherwise it loses (PG-10).
    assert rank5("5D 5C KS 9H 3D", PAI_GOW) < rank2("QC QD")
    # Digest D-R4: big A-Q-7-5-3 against small A-Q is a legal setting (the extra cards).
    assert rank5("AS QD 7C 5H 3D", PAI_GOW) > rank2("AH QC")
    assert rank5("KS KD 9C 5H 3D", PAI_GOW) > rank2("KH KC")
    # Seven cards, joker included: the best five agrees with the best of the 21 five-card choices.
    seven = "X1 AS KD QS JH 2C 2D"
    fives = itertools.combinations(seven.split(), 5)
    assert best5(seven, PAI_GOW)[0] == max(rank5(c, PAI_GOW) for c in fives)


def test_omaha_high_low() -> None:
    # 003:5420-5424: a low needs three common cards of 8 or lower; the ace plays high and low. R-LOW
    # otherwise.
    assert not board_allows_low("KC QD 9S 8H 2C")  # HL-01
    assert board_allows_low("5C 5D 8H KC QS")
    assert low8("AC 3D 2C 5D 8H") == 0x85321 and describe_low(0x85321) == "8-5-3-2-A"
    assert low8("AC 2D 3H 4S 5C") == 0x54321  # the wheel is the best low; straights do not count
    assert low8("AC 2C 3C 4C 9C") is None and low8("AC 2D 3H 4S 4C") is None
    # HL-02: 8-5-3-2-A beats 8-7-6-5-2 (lower is better).
    assert omaha_low8("AC 3D KS JD", "2C 5D 8H KC QS") == 0x85321
    assert omaha_low8("KD KH 7S 6S", "2C 5D 8H KC QS") == 0x87652
    # HL-04: the board condition holds but nobody can make five low ranks; HL-07 needs two low hole cards.
    assert omaha_low8("AC 2D 3S 4H", "5C 5D 8H KC QS") is None
    assert omaha_low8("KD KC QS QH", "AC 2D 3H 4S 5C") is None
    assert omaha_low8("6D 7D JS JH", "AC 2D 3H 4S 5C") == 0x76321
    # HL-06: the ace is used high by one player and low by both lows.
    assert omaha_low8("QC QD 5H 6H", "AS KD 8C 4H 2S") == 0x65421
    assert category(best_exact("AH KH 3C 7D", "AS KD 8C 4H 2S")[0]) == "two-pair"
    # HL-05: P1 Ah 5s makes the 5-high straight, P2 four kings.
    p1 = best_exact("AH 5S JD QC", "2C 3D 4H KC KS")[0]
    assert category(p1) == "straight" and best_exact("AC 5D KD KH", "2C 3D 4H KC KS")[0] > p1
    assert low8("2S 3S 4S 5S 7S 8S AS") == 0x54321


# ------------------------------------------------------------------------------------------------- properties


hand7 = st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True)


@settings(max_examples=300, deadline=None)
@given(hand7)
def test_best5_is_the_best_of_the_21(cards: list[int]) -> None:
    for rules in (STANDARD, DRAW_52):
        best, chosen = best5(cards, rules)
        assert best == max(rank5(c, rules) for c in itertools.combinations(cards, 5))
        assert rank5(chosen, rules) == best and set(chosen) <= set(cards)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=6, max_size=6, unique=True),
       st.sampled_from([PAI_GOW, PAI_GOW_LITERAL]))
def test_best5_with_a_joker(cards: list[int], rules: Rules) -> None:
    seven = [*cards, 52]
    best, chosen = best5(seven, rules)
    assert best == max(rank5(c, rules) for c in itertools.combinations(seven, 5))
    assert rank5(chosen, rules) == best


@settings(max_examples=200, deadline=None)
@given(hand7.flatmap(lambda h: st.tuples(st.just(h), st.permutations(h))))
def test_order_of_the_cards_does_not_matter(pair: tuple[list[int], list[int]]) -> None:
    cards, shuffled = pair
    assert best5(cards)[0] == best5(shuffled)[0]
    assert rank7_batch(np.array([cards, shuffled], dtype=np.uint8)).tolist() == [best5(cards)[0]] * 2


# ------------------------------------------------------------------------------------------------------ batch


@pytest.mark.parametrize("rules", [STANDARD, SHORT_DECK, DRAW_32, DRAW_52, PAI_GOW])
@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_equals_scalar(rules: Rules, k: int) -> None:
    hands = random_hands(4000, k, seed=k, low=4 * rules.low_rank)
    batch = rank_batch(hands, rules)
    scalar = np.array([best5(h.tolist(), rules)[0] for h in hands])
    assert batch.dtype == np.int32 and np.array_equal(batch, scalar)


def test_batch_numpy_fallback_agrees() -> None:
    hands = random_hands(50_000, 7, seed=11)
    assert np.array_equal(tables.evaluate(hands, STANDARD, use_numba=False), rank7_batch(hands))
    bad = np.array([[0, 0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5, 52]], dtype=np.uint8)
    assert tables.evaluate(bad, STANDARD, check=False, use_numba=False).tolist() == [-1, -1]


def test_batch_validation() -> None:
    with pytest.raises(ValueError):
        rank7_batch(np.zeros((3, 5), dtype=np.uint8))
    with pytest.raises(ValueError):
        rank5_batch(np.array([[0, 0, 1, 2, 3]]))  # a repeated card
    with pytest.raises(ValueError):
        rank5_batch(np.array([[48, 44, 40, 36, 52]]))  # a joker: scalar API only
    with pytest.raises(ValueError):
        rank5_batch(np.array([[48, 44, 40, 36, 20]]), SHORT_DECK)  # a 7 in the 28-card deck
    assert rank5_batch(np.array([[0, 0, 1, 2, 3], [48, 44, 40, 36, 32]]), check=False).tolist() == [
        -1, rank5("AS KS QS JS TS")]
    assert rank5_batch(np.empty((0, 5), dtype=np.uint8)).shape == (0,)


# ------------------------------------------------------------------------------------------------------ peers

N_PEER = 1_000_000
N_TREYS = 100_000  # treys is pure Python (about 85k 7-card hands/s here): a tenth of the sample


def same_order(ours: np.ndarray, theirs: np.ndarray) -> bool:
    """Both keys order the hands identically: equal where equal, and increasing together."""
    a, b = ours.astype(np.int64), theirs.astype(np.int64)
    o = np.lexsort((b, a))
    da, db = np.diff(a[o]), np.diff(b[o])
    return bool(np.all((da == 0) == (db == 0)) and np.all(db[da > 0] > 0))


@cache
def sample(k: int, n: int) -> np.ndarray:
    return random_hands(n, k, seed=1000 + k)


@pytest.mark.parametrize("k", [5, 7])
def test_orders_hands_as_phevaluator(k: int) -> None:
    pheval = pytest.importorskip("phevaluator._pheval")  # the C functions behind phevaluator.evaluate_cards
    fn = getattr(pheval, f"evaluate_{k}cards")  # its ids are rank * 4 + suit too (suits in another order)
    hands = sample(k, N_PEER)
    theirs = -np.fromiter(itertools.starmap(fn, hands.tolist()), dtype=np.int64, count=len(hands))
    assert same_order(rank_batch(hands), theirs)


def test_orders_every_five_card_hand_as_phevaluator() -> None:
    pheval = pytest.importorskip("phevaluator._pheval")
    start = time.perf_counter()
    hands = np.array(list(itertools.combinations(range(52), 5)), dtype=np.uint8)
    ours = rank5_batch(hands)
    assert len(np.unique(ours)) == 7462  # the classic count of distinct five-card hands
    theirs = -np.fromiter(itertools.starmap(pheval.evaluate_5cards, hands.tolist()), dtype=np.int64)
    assert same_order(ours, theirs)
    assert time.perf_counter() - start < 30


@pytest.mark.parametrize("k", [5, 7])
def test_orders_hands_as_eval7(k: int) -> None:
    eval7 = pytest.importorskip("eval7")
    deck = [eval7.Card(r + s) for r in "23456789TJQKA" for s in "shdc"]
    hands = sample(k, N_PEER)
    theirs = np.fromiter((eval7.evaluate([deck[c] for c in h]) for h in hands.tolist()), dtype=np.int64)
    assert same_order(rank_batch(hands), theirs)


@pytest.mark.parametrize("k", [5, 7])
def test_orders_hands_as_treys(k: int) -> None:
    treys = pytest.importorskip("treys")
    deck = [treys.Card.new(r + s) for r in "23456789TJQKA" for s in "shdc"]
    ev = treys.Evaluator()
    hands = sample(k, N_PEER)[:N_TREYS]
    theirs = -np.fromiter((ev.evaluate([], [deck[c] for c in h]) for h in hands.tolist()), dtype=np.int64)
    assert same_order(rank_batch(hands), theirs)


def test_scalar_orders_hands_as_phevaluator() -> None:
    phe = pytest.importorskip("phevaluator.evaluator")
    hands = sample(7, N_PEER)[:20_000]
    ours = np.array([best5(h)[0] for h in hands.tolist()])
    theirs = -np.array([phe.evaluate_cards(*h) for h in hands.tolist()])
    assert same_order(ours, theirs)
