"""Chemin de fer: who has the right to banco seguido (R: docs/rulings.md#chemin-banco-seguido).

The same three articles in every catalog: the player who made banco and lost (001:854; 000:947; 002:620;
003:2240-2246); a «banco con la mesa» made alone gives priority for the next coup (001:850; 000:943; 002:616;
003:2228-2230); the sole punto when nobody made banco (001:864; 000:959; 002:630; 003:2270-2272)."""

from __future__ import annotations

import pytest

from tapete.catalog import get_game
from tapete.engine.events import Act, Bet, Deal

GAME = get_game("chemin-de-fer")
M = 10000
BANK_WINS = ["2S", "TH", "3D", "9C"]     # punto 2+3 = 5 stands, the bank's T+9 = 9: the bank wins
PUNTO_WINS = ["4S", "TH", "5D", "8C"]    # punto 4+5 = 9 abats against the bank's 8
JURISDICTIONS = ("ES", "ES-IB", "ES-GA", "ES-AN")
WITH_TABLE = {"ES": "001:850", "ES-IB": "000:943", "ES-GA": "002:616", "ES-AN": "003:2224-2230"}
SOLE = {"ES": "001:864", "ES-IB": "000:959", "ES-GA": "002:630", "ES-AN": "003:2270-2272"}


def stake(bet_id: str, player: str, amount: int, **where) -> Bet:
    return Bet(bet_id, player, "player", amount, None, where)


def next_stake(state, bank: int) -> None:
    """Seat 2, first in priority from the banker at seat 1, stakes the whole bank: the first coup ends."""
    GAME.apply(state, stake("s2", "two", bank, seat=2))


def second_coup(state, bank: int) -> None:
    """Seat 2 and player `a` both go banco."""
    for e in (Act("banco", bet="s2"), stake("a2", "a", bank, behind=3),
              Act("banco", bet="a2"), Deal()):
        GAME.apply(state, e)


@pytest.mark.parametrize("jurisdiction", JURISDICTIONS)
def test_banco_con_la_mesa_made_alone_gives_priority_for_the_next_coup(jurisdiction: str) -> None:
    state = GAME.open(jurisdiction, {"minimum": M}, BANK_WINS + PUNTO_WINS)
    for e in (Bet("K", "banker", "bank", 200000, None, {"seat": 1}), stake("a1", "a", 100000, behind=3),
              Act("banco-with-table", bet="a1"), Deal()):
        GAME.apply(state, e)
    next_stake(state, 295000)
    assert state.banco_seguido == "a"
    assert any("made alone" in line and WITH_TABLE[jurisdiction] in line for line in state.log)
    second_coup(state, 295000)
    assert state.current.holder == "a2"


@pytest.mark.parametrize("jurisdiction", JURISDICTIONS)
def test_banco_con_la_mesa_completed_by_another_is_an_isolated_act(jurisdiction: str) -> None:
    state = GAME.open(jurisdiction, {"minimum": M}, BANK_WINS + PUNTO_WINS)
    for e in (Bet("K", "banker", "bank", 200000, None, {"seat": 1}), stake("a1", "a", 100000, behind=3),
              Act("banco-with-table", bet="a1"), stake("b1", "b", 100000, seat=4), Deal()):
        GAME.apply(state, e)
    next_stake(state, 390000)
    assert state.banco_seguido is None
    second_coup(state, 390000)
    assert state.current.holder == "s2"


@pytest.mark.parametrize("jurisdiction", JURISDICTIONS)
def test_the_sole_punto_has_banco_seguido(jurisdiction: str) -> None:
    state = GAME.open(jurisdiction, {"minimum": M}, BANK_WINS + PUNTO_WINS)
    for e in (Bet("K", "banker", "bank", 100000, None, {"seat": 1}), stake("a1", "a", 50000, behind=3), Deal()):
        GAME.apply(state, e)
    next_stake(state, 147500)
    assert state.banco_seguido == "a"
    assert any(SOLE[jurisdiction] in line for line in state.log)
    second_coup(state, 147500)
    assert state.current.holder == "a2"


def test_a_sole_player_with_two_stakes_is_still_alone_but_two_players_are_not() -> None:
    state = GAME.open("ES", {"minimum": M}, BANK_WINS)
    for e in (Bet("K", "banker", "bank", 100000, None, {"seat": 1}), stake("a1", "a", 20000, seat=3),
              stake("a1b", "a", 10000, seat=3, line=True), Deal()):
        GAME.apply(state, e)
    next_stake(state, M)
    assert state.banco_seguido == "a"
    state = GAME.open("ES", {"minimum": M}, BANK_WINS)
    for e in (Bet("K", "banker", "bank", 100000, None, {"seat": 1}), stake("a1", "a", 20000, seat=3),
              stake("c1", "c", 10000, seat=4), Deal()):
        GAME.apply(state, e)
    next_stake(state, M)
    assert state.banco_seguido is None
