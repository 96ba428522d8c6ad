"""The one copy of the drawing rules: the seed tables as printed, their reading, and the words of the spec."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tapete.games.baccarat import tableau
from tapete.games.baccarat.punto_banca import deal_coup


def words_pb_bank_draws(bank: int, third: int | None) -> bool:
    """T-PB in the spec's own words (A §0.6), written independently of the table."""
    if third is None:
        return bank <= 5
    return (bank <= 2 or (bank == 3 and third != 8) or (bank == 4 and 2 <= third <= 7)
            or (bank == 5 and 4 <= third <= 7) or (bank == 6 and third in (6, 7)))


def test_t_pb_read_with_i_as_t_is_the_spec_in_words() -> None:
    for bank in range(8):
        for third in [None, *range(10)]:
            assert tableau.punto_banca_bank_draws(bank, third) == words_pb_bank_draws(bank, third), (bank, third)


def test_national_and_andalusian_tables_agree_cell_by_cell() -> None:
    assert tableau.T_PB[1:] == tableau.T_PB_ANDALUCIA_ROWS_1_7
    assert tableau.T_PB[0] == "T" * 11


def test_t_cf_differs_from_t_pb_in_the_two_optional_cells_only() -> None:
    diff = {(b, c) for b in range(8) for c in range(11) if tableau.T_CF[b][c] != tableau.T_PB[b][c]}
    assert diff == {(3, 9), (5, 4)}
    assert tableau.cell(tableau.T_CF, 3, 9) == tableau.cell(tableau.T_CF, 5, 4) == "O"
    assert all(tableau.T_CF[0][c] == "T" for c in range(11))      # baccará must draw (001:811)


def test_values_totals_naturals_and_burns() -> None:
    assert [tableau.value(c) for c in ("AS", "9H", "TD", "JC", "QS", "KH")] == [1, 9, 0, 0, 0, 0]
    assert tableau.total(["9S", "8H", "7D"]) == 4
    assert tableau.is_natural(["4S", "4H"]) and tableau.is_natural(["9S", "KH"])
    assert not tableau.is_natural(["4S", "4H", "TD"])
    assert [tableau.burn_value(c) for c in ("AS", "7H", "TD", "KC")] == [1, 7, 10, 10]   # 001:673


def test_punto_rules() -> None:
    assert [tableau.punto_banca_player_draws(t) for t in range(8)] == [True] * 6 + [False] * 2
    assert [tableau.chemin_punto_rule(t) for t in range(8)] == ["draw"] * 5 + ["free"] + ["stand"] * 2


CARD = st.sampled_from([r + s for r in "A23456789TJQK" for s in "SHDC"])


@settings(max_examples=300, deadline=None)
@given(st.lists(CARD, min_size=6, max_size=6))
def test_the_tableau_never_gives_a_hand_more_than_three_cards(cards: list[str]) -> None:
    deck = iter(cards)
    player, bank = deal_coup(lambda: next(deck))
    assert 2 <= len(player) <= 3 and 2 <= len(bank) <= 3
    if tableau.is_natural(player[:2]) or tableau.is_natural(bank[:2]):
        assert len(player) == len(bank) == 2
