"""Chemin de fer: the whole sequence of a free bank (R: docs/rulings.md#chemin-bank-award; bank_award.py).

Seat by seat from the giver's right while players decline (001:753; 000:863; 002:544-546; 003:1998-2007), then
the standing players, then the giver for the same amount (001:755; 000:865; 002:548; 003:2009-2016), and only then
the auction (001:757; 000:867; 002:550; 003:2020-2025) or, after a mano pasada, the seat at the passer's right for
the table minimum (001:769). A taker of a bank given up voluntarily puts up at least its amount (001:753)."""

from __future__ import annotations

import pytest

from tapete.catalog import get_game
from tapete.conformance.document import settle_document
from tapete.core.errors import TapeteError
from tapete.engine.events import Act, Bet, Deal
from tapete.engine.serialize import from_json, to_json

GAME = get_game("chemin-de-fer")
M = 10000
PUNTO_WINS = ["4S", "TH", "5D", "8C"]
BANK_WINS = ["2S", "TH", "3D", "9C"]
JURISDICTIONS = ("ES", "ES-IB", "ES-GA", "ES-AN")
ROTATION = {"ES": "001:753", "ES-IB": "000:863", "ES-GA": "002:544-546", "ES-AN": "003:1998-2007"}
BACK = {"ES": "001:755", "ES-IB": "000:865", "ES-GA": "002:548", "ES-AN": "003:2009-2016"}


def table(cards: list[str], jurisdiction: str = "ES"):
    return GAME.open(jurisdiction, {"minimum": M, "departments": 6}, cards)


def offer(bet_id: str, player: str, amount: int, **where) -> Bet:
    return Bet(bet_id, player, "bank", amount, None, where)


def stake(bet_id: str, player: str, amount: int, **where) -> Bet:
    return Bet(bet_id, player, "player", amount, None, where)


def run(state, events) -> dict:
    for e in events:
        GAME.apply(state, e)
    GAME.finish(state)
    return GAME.settle(state).document()


# tres banks at seat 3, wins 20 000 (19 000 net) and passes a hand of 69 000: seat 4 is asked first
PASSED = [offer("K", "tres", 50000, seat=3), stake("s1", "p1", 20000, seat=1), Deal(), Act("pass", bet="K")]
# tres banks at seat 3 and loses to a punto at seat 1: seat 4 is asked first; he may take it back for 50 000
LOST = [offer("K", "tres", 50000, seat=3), stake("s1", "p1", 20000, seat=1), Deal()]


@pytest.mark.parametrize("jurisdiction", JURISDICTIONS)
def test_the_bank_goes_round_seat_by_seat_from_the_givers_right(jurisdiction: str) -> None:
    state = table(BANK_WINS + PUNTO_WINS, jurisdiction)
    run(state, [*PASSED, offer("K1", "uno", 90000, seat=1), offer("K6", "seis", 69000, seat=6),
                stake("t2", "p2", 10000, seat=2), Deal()])
    assert state.coups[1].bank == "K6"
    assert any("departments 4 and 5 decline" in line and ROTATION[jurisdiction] in line for line in state.log)


def test_a_voluntarily_given_up_bank_is_taken_for_at_least_its_amount() -> None:
    with pytest.raises(TapeteError) as err:
        run(table(BANK_WINS + PUNTO_WINS), [*PASSED, offer("K6", "seis", 68999, seat=6)])
    assert err.value.code == "illegal-action" and "001:753" in err.value.message
    state = table(PUNTO_WINS + BANK_WINS)          # after a loss, the table minimum is enough
    run(state, [*LOST, offer("K6", "seis", M, seat=6), stake("t2", "p2", M, seat=2), Deal()])
    assert state.coups[1].bank == "K6"


def test_no_seated_taker_then_the_standing_players_in_the_order_of_their_seats() -> None:
    state = table(BANK_WINS + PUNTO_WINS)
    run(state, [*PASSED, offer("KB2", "pie2", 80000, behind=2), offer("KB5", "pie5", 70000, behind=5),
                stake("t1", "p1", M, seat=1), Deal()])
    assert state.coups[1].bank == "KB5"            # behind seat 5 comes before behind seat 2 from seat 4
    assert any("offered to the players standing" in line for line in state.log)
    state = table(BANK_WINS + PUNTO_WINS)          # a seated taker, even later in the rotation, comes first
    run(state, [*PASSED, offer("KB5", "pie5", 99000, behind=5), offer("K2", "dos", 69000, seat=2),
                stake("t1", "p1", M, seat=1), Deal()])
    assert state.coups[1].bank == "K2"


@pytest.mark.parametrize("jurisdiction", JURISDICTIONS)
def test_the_giver_takes_it_back_for_the_same_amount_only_when_nobody_else_does(jurisdiction: str) -> None:
    state = table(BANK_WINS + PUNTO_WINS, jurisdiction)
    run(state, [*PASSED, offer("K3", "tres", 69000, seat=3), stake("t1", "p1", M, seat=1), Deal()])
    assert state.coups[1].bank == "K3"
    assert any("who gave it up" in line and BACK[jurisdiction] in line for line in state.log)
    state = table(BANK_WINS + PUNTO_WINS, jurisdiction)
    doc = run(state, [*PASSED, offer("K3", "tres", 69000, seat=3), offer("KB", "pie", 69000, behind=1),
                      stake("t1", "p1", M, seat=1), Deal()])
    assert state.coups[1].bank == "KB" and doc["bets"]["K3"]["status"] == "void"


def test_a_banker_who_lost_takes_it_back_for_the_bank_he_lost() -> None:
    state = table(PUNTO_WINS + BANK_WINS)
    run(state, [*LOST, offer("K3", "tres", 50000, seat=3), stake("t1", "p1", M, seat=1), Deal()])
    assert state.coups[1].bank == "K3"
    with pytest.raises(TapeteError) as err:
        run(table(PUNTO_WINS + BANK_WINS), [*LOST, offer("K3", "tres", 40000, seat=3)])
    assert err.value.code == "illegal-action" and "001:755" in err.value.message
    with pytest.raises(TapeteError) as err:              # nor may he bid at the auction (001:757)
        run(table(PUNTO_WINS + BANK_WINS), [*LOST, offer("K3", "tres", 40000, seat=3, auction=True)])
    assert err.value.code == "illegal-action"


def test_the_auction_comes_only_when_the_rotating_turn_found_no_taker() -> None:
    state = table(BANK_WINS + PUNTO_WINS)
    doc = run(state, [*PASSED, offer("K5", "cinco", 40000, seat=5, auction=True),
                      offer("K1", "uno", 69000, seat=1), stake("t2", "p2", M, seat=2), Deal()])
    assert state.coups[1].bank == "K1" and doc["bets"]["K5"]["status"] == "void"
    assert any("offer K5 by cinco is void" in line and "no auction" in line for line in state.log)
    state = table(BANK_WINS + PUNTO_WINS)          # an auction bid may be under the amount passed
    doc = run(state, [*PASSED, offer("K5", "cinco", 40000, seat=5, auction=True),
                      offer("KB", "pie", 40000, behind=1, auction=True), stake("t2", "p2", M, seat=2), Deal()])
    assert state.coups[1].bank == "K5" and doc["bets"]["KB"]["status"] == "void"   # seated first on equal bids
    assert any("it is auctioned" in line and "001:757-759" in line for line in state.log)


def test_nobody_acquires_it_the_seat_at_the_passers_right_takes_it_for_the_minimum() -> None:
    state = table(BANK_WINS + PUNTO_WINS)
    run(state, [*PASSED, offer("K4", "cuatro", M, seat=4), stake("t2", "p2", M, seat=2), Deal()])
    assert state.coups[1].bank == "K4"
    assert any("for the table minimum" in line and "001:769" in line for line in state.log)


def test_the_asking_order_says_who_is_asked_and_for_how_much() -> None:
    state = table(BANK_WINS)
    for e in PASSED:
        GAME.apply(state, e)
    order = GAME.asking_order(state)
    assert order == [("rotation", 4, 69000), ("rotation", 5, 69000), ("rotation", 6, 69000), ("rotation", 1, 69000),
                     ("rotation", 2, 69000), ("standing", None, 69000), ("back", 3, 69000), ("auction", None, M),
                     ("last-resort", 4, M)]
    assert not GAME.may_bid(state, "tres") and GAME.may_bid(state, "cuatro")


def test_the_giver_survives_a_json_round_trip() -> None:
    state = table(BANK_WINS + PUNTO_WINS)
    for e in PASSED:
        GAME.apply(state, e)
    state = from_json(type(state), to_json(state))
    assert state.giver is not None and state.giver.amount == 69000 and state.giver.voluntary
    GAME.apply(state, offer("K3", "tres", 69000, seat=3))
    GAME.apply(state, stake("t1", "p1", M, seat=1))
    assert state.bank().id == "K3"


def test_auction_is_a_bank_field_only() -> None:
    doc = {"game": "chemin-de-fer", "jurisdiction": "ES", "table": {"minimum": M}, "shoe": BANK_WINS,
           "events": [{"bet": {"id": "K", "player": "b", "kind": "bank", "amount": 50000, "seat": 1}},
                      {"bet": {"id": "s", "player": "p", "kind": "player", "amount": M, "seat": 2, "auction": True}}]}
    assert settle_document(doc)["error"]["code"] == "bad-document"
    doc["events"] = [{"bet": {"id": "K", "player": "b", "kind": "bank", "amount": 50000, "seat": 1, "auction": "yes"}}]
    assert settle_document(doc)["error"]["code"] == "bad-document"


def test_the_stop_card_still_ends_the_partida_after_a_bank_win() -> None:
    """Regression: the stop card is checked after every coup, whoever wins it."""
    state = GAME.open("ES", {"minimum": M, "cut-card": 3}, BANK_WINS + ["2H", "3H", "4H", "5H", "6H", "7H"])
    for e in (offer("K", "b", 50000, seat=1), stake("s", "p", M, seat=2), Deal(), stake("t", "p", M, seat=2)):
        GAME.apply(state, e)
    assert state.stop_card_out
