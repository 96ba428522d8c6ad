"""Money, cards and randomness."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from tapete.core.cards import french_deck, parse_card, parse_shoe, spanish_deck
from tapete.core.errors import TapeteError
from tapete.core.money import format_ratio, parse_ratio, round_to_cents
from tapete.core.rng import TableRng, simulation_stream, simulation_streams


def test_ratios() -> None:
    assert parse_ratio("35:1") == 35 and parse_ratio("1:2") == Fraction(1, 2)
    assert format_ratio(Fraction(3, 2)) == "3:2"
    with pytest.raises(ValueError):
        parse_ratio("0:1")


def test_rounding_is_in_the_players_favour() -> None:
    assert round_to_cents(Fraction(5, 2)) == 3                           # a refund or payout rounds up
    assert round_to_cents(Fraction(5, 2), paid_to_player=False) == 2     # a deduction rounds down
    assert round_to_cents(Fraction(5, 2), favour="house") == 2


def test_cards() -> None:
    assert len(french_deck()) == 52 and len(set(french_deck())) == 52
    assert len(french_deck(jokers=2)) == 54 and len(spanish_deck()) == 40
    assert parse_card("TD").point_value == 10 and parse_card("AS").index == 48
    assert parse_card("12o", deck="spanish").number == 12
    for bad in ("1S", "AX", "10H", "X1", 7):
        with pytest.raises(TapeteError) as info:
            parse_card(bad)
        assert info.value.code == "bad-card"
    with pytest.raises(TapeteError):
        parse_card("8o", deck="spanish")   # the Spanish deck has no 8
    with pytest.raises(TapeteError):
        parse_shoe(["AS", "AS"], decks=1)


def test_table_rng_replays_from_its_seed() -> None:
    a, b = TableRng(b"s" * 32), TableRng(b"s" * 32)
    assert [a.randbelow(37) for _ in range(50)] == [b.randbelow(37) for _ in range(50)]
    assert TableRng(b"s" * 32).commitment() != TableRng(b"t" * 32).commitment()
    assert len(TableRng().seed) == 32


def test_table_rng_is_unbiased() -> None:
    rng = TableRng(b"chi-square" * 4)
    n, k = 37_000, 37
    counts = Counter(rng.randbelow(k) for _ in range(n))
    chi2 = sum((counts[i] - n / k) ** 2 / (n / k) for i in range(k))
    assert chi2 < 75          # 36 degrees of freedom: p < 0.0002 above this


def test_shuffle_is_a_permutation_and_uniform_on_small_decks() -> None:
    rng = TableRng(b"shuffle" * 5)
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(6000):
        deck = [0, 1, 2]
        rng.shuffle(deck)
        counts[tuple(deck)] += 1
    assert len(counts) == 6 and all(800 < c < 1200 for c in counts.values())


def test_simulation_streams_do_not_depend_on_how_they_are_made() -> None:
    together = [g.integers(0, 1 << 30, 4).tolist() for g in simulation_streams(7, 3)]
    alone = [simulation_stream(7, i).integers(0, 1 << 30, 4).tolist() for i in range(3)]
    assert together == alone and together[0] != together[1]
