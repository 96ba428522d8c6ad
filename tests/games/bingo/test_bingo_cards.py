"""Bingo cards: the CSPRNG generator keeps the layout rules, and supplied cards are validated (spec B1)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tapete.core.errors import TapeteError
from tapete.core.rng import TableRng
from tapete.games.bingo import card_rows, decade_column, generate_card, generate_cards, parse_card

B1 = [[4, None, 21, 37, None, 55, None, None, 80], [None, 12, 28, None, 46, None, 63, None, 88],
      [9, None, None, 33, None, 50, None, 71, 84]]


def layout_ok(grid: list[list[int | None]]) -> bool:
    """The text's rules (001:1090), checked independently of parse_card."""
    numbers = [n for row in grid for n in row if n is not None]
    return (len(grid) == 3 and all(len(r) == 9 for r in grid) and len(numbers) == 15 == len(set(numbers))
            and all(1 <= n <= 90 for n in numbers) and all(sum(n is not None for n in r) == 5 for r in grid)
            and all(1 <= sum(r[c] is not None for r in grid) <= 3 for c in range(9)))


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=16, max_size=32))
def test_generated_cards_keep_the_layout_and_the_usual_decades(seed: bytes) -> None:
    grid = generate_card(TableRng(seed))
    assert layout_ok(grid)
    assert parse_card(grid, decades=True) == grid
    for c in range(9):
        column = [row[c] for row in grid if row[c] is not None]
        assert column == sorted(column)          # the usual card reads downwards in order
        assert all(decade_column(n) == c for n in column)


def test_generation_replays_from_the_seed_and_a_series_never_repeats_a_card() -> None:
    seed = bytes(range(32))
    a = generate_cards(TableRng(seed), 300)
    b = generate_cards(TableRng(seed), 300)
    assert a == b
    assert len({tuple(n for r in g for n in r) for g in a}) == 300
    assert generate_cards(TableRng(bytes(range(1, 33))), 5) != a[:5]


def test_every_number_turns_up_in_a_large_series() -> None:
    cards = generate_cards(TableRng(b"\x07" * 32), 400)
    seen = {n for g in cards for row in card_rows(g) for n in row}
    assert seen == set(range(1, 91))


def test_B1_the_spec_card_is_valid() -> None:
    assert parse_card(B1) == B1
    assert parse_card(B1, decades=True) == B1


@pytest.mark.parametrize("mutate, fault", [
    (lambda g: g[1].__setitem__(0, 1) or g, "row 2 holds 6"),
    (lambda g: g[1].__setitem__(8, None) or g, "row 2 holds 4"),
    (lambda g: g[2].__setitem__(8, 91) or g, "91"),
    (lambda g: g[2].__setitem__(8, 0) or g, "0 is not"),
    (lambda g: g[2].__setitem__(8, 88) or g, "88 appears twice"),
    (lambda g: g[:2], "3 rows of 9"),
    (lambda g: [r[:8] for r in g], "3 rows of 9"),
    (lambda g: g[0].__setitem__(1, "x") or g, "not a number"),
])
def test_invalid_cards_name_their_fault(mutate, fault: str) -> None:
    grid = mutate([row[:] for row in B1])
    with pytest.raises(TapeteError) as exc:
        parse_card(grid, "c1")
    assert exc.value.code == "bad-target" and exc.value.bet == "c1"
    assert fault in exc.value.message


def test_B1_variant_46_in_column_3_empties_column_5() -> None:
    grid = [[4, None, 21, 37, None, 55, None, None, 80], [None, 12, 28, None, None, None, 63, 75, 88],
            [9, None, 46, 33, None, 50, None, None, 84]]
    with pytest.raises(TapeteError) as exc:
        parse_card(grid)
    assert exc.value.code == "bad-target" and "column 5 is empty" in exc.value.message


def test_column_ranges_option_checks_the_decades() -> None:
    moved = [[None, 4, 21, 37, None, 55, None, None, 80]] + [row[:] for row in B1[1:]]
    moved[2][0] = 9
    assert parse_card(moved) == moved                     # the text does not fix the columns (D-25)
    with pytest.raises(TapeteError, match="decade"):
        parse_card(moved, decades=True)
