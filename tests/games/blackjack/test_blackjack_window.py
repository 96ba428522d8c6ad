"""Blackjack's decision window as the texts put it (R: docs/rulings.md#blackjack-decision-window).

Insurance until the croupier gives a third card to the first player who asks for one (001:292; 000:360;
002:296; 003:752-756); surrender likewise, where the catalog has it (000:382; 002:312); even money in ES-IB
with insurance's window (000:364), in ES-AN until the next player asks for a third card (003:767-772). A stand
or a split deals no third card and closes nothing; when the last box has played, the dealer draws (000:346)."""

from __future__ import annotations

import pytest

from tapete.catalog import get_game
from tapete.core.errors import TapeteError
from tapete.engine.events import Act, Bet, Deal

GAME = get_game("blackjack")
ALL = ("ES", "ES-IB", "ES-GA", "ES-AN")
ACE = ["TS", "9C", "5H", "AD", "8H", "7D", "6S", "9C", "6H", "2C", "3D"]    # b1 18, b2 16, b3 11; dealer's ace
TEN = ["TS", "9C", "5H", "TD", "8H", "7D", "6S", "9C", "7H", "2C"]          # the same boxes; dealer's ten
PAIR = ["8S", "9C", "AD", "8H", "7D", "2C", "3D", "9H", "6H", "2H"]             # two boxes: b1 8-8 splits


def dealt(j: str, shoe: list[str], boxes: int = 3):
    state = GAME.open(j, {"minimum": 100}, shoe)
    for k in range(1, boxes + 1):
        GAME.apply(state, Bet(f"b{k}", f"p{k}", "main", 1000, None, {"box": k}))
    GAME.apply(state, Deal())
    return state


def verbs(state, bet: str) -> set[str]:
    return {a.verb for a in GAME.legal_actions(state) if a.bet == bet}


@pytest.mark.parametrize("j", ALL)
def test_a_stand_leaves_insurance_open_for_every_box(j: str) -> None:
    state = dealt(j, ACE)
    GAME.apply(state, Act("stand", bet="b1"))
    assert "insure" in verbs(state, "b1") and "insure" in verbs(state, "b3")
    GAME.apply(state, Act("insure", bet="b1", fields={"amount": 500}))     # the box that stood, too
    GAME.apply(state, Act("insure", bet="b3", fields={"amount": 500}))
    assert [b.insurance for b in state.bets] == [500, 0, 500]


@pytest.mark.parametrize("j", ALL)
def test_the_first_third_card_closes_insurance(j: str) -> None:
    state = dealt(j, ACE)
    GAME.apply(state, Act("stand", bet="b1"))
    GAME.apply(state, Act("hit", bet="b2"))
    assert "insure" not in verbs(state, "b3")
    with pytest.raises(TapeteError) as err:
        GAME.apply(state, Act("insure", bet="b3", fields={"amount": 500}))
    assert err.value.code == "illegal-action" and "too late" in str(err.value)


@pytest.mark.parametrize("j", ALL)
def test_a_split_deals_no_third_card(j: str) -> None:
    state = dealt(j, PAIR, boxes=2)
    GAME.apply(state, Act("split", bet="b1"))
    GAME.apply(state, Act("insure", bet="b2", fields={"amount": 500}))
    assert state.bets[1].insurance == 500


@pytest.mark.parametrize("j", ALL)
def test_the_dealer_draws_when_the_last_box_has_played(j: str) -> None:
    state = dealt(j, ACE)
    for k in (1, 2, 3):
        GAME.apply(state, Act("stand", bet=f"b{k}"))
    assert state.phase == "betting" and len(state.dealer) == 2
    with pytest.raises(TapeteError) as err:
        GAME.apply(state, Act("insure", bet="b1", fields={"amount": 500}))
    assert "too late" in str(err.value)


@pytest.mark.parametrize("j", ("ES-IB", "ES-GA"))
def test_surrender_stays_open_until_the_first_third_card(j: str) -> None:
    state = dealt(j, TEN)
    GAME.apply(state, Act("stand", bet="b1"))
    assert "surrender" in verbs(state, "b1") and "surrender" in verbs(state, "b2")
    GAME.apply(state, Act("surrender", bet="b2"))
    GAME.apply(state, Act("surrender", bet="b1"))          # he stood, but no third card has been given
    GAME.apply(state, Act("hit", bet="b3"))
    assert "surrender" not in verbs(state, "b3")
    GAME.finish(state)
    doc = GAME.settle(state).document()
    assert doc["bets"]["b1"]["returned"] == 500 and doc["bets"]["b2"]["returned"] == 500


@pytest.mark.parametrize("j", ("ES", "ES-AN"))
def test_no_surrender_where_the_catalog_has_none(j: str) -> None:
    state = dealt(j, TEN)
    assert "surrender" not in verbs(state, "b1")
    with pytest.raises(TapeteError):
        GAME.apply(state, Act("surrender", bet="b1"))


def test_a_split_box_may_not_surrender() -> None:
    state = dealt("ES-IB", ["8S", "9C", "TD", "8H", "7D", "2C", "3D", "9H", "6H"], boxes=2)
    GAME.apply(state, Act("split", bet="b1"))
    assert "surrender" not in verbs(state, "b1")
    with pytest.raises(TapeteError) as err:
        GAME.apply(state, Act("surrender", bet="b1"))
    assert err.value.code == "illegal-action"


BJ = ["TS", "AC", "5H", "AD", "8H", "KD", "6S", "9C", "6H", "2C"]           # b2 Black-Jack against the ace


def test_even_money_in_baleares_has_insurances_window() -> None:
    state = dealt("ES-IB", BJ)
    GAME.apply(state, Act("stand", bet="b1"))
    assert "even-money" in verbs(state, "b2")
    GAME.apply(state, Act("even-money", bet="b2"))
    late = dealt("ES-IB", BJ)
    GAME.apply(late, Act("hit", bet="b1"))
    assert "even-money" not in verbs(late, "b2")


def test_even_money_in_andalucia_closes_when_a_later_player_asks() -> None:
    state = dealt("ES-AN", BJ)
    GAME.apply(state, Act("hit", bet="b1"))                # before box 2: it stays open (003:771-772)
    assert "even-money" in verbs(state, "b2")
    state = dealt("ES-AN", BJ)
    GAME.apply(state, Act("stand", bet="b1"))
    GAME.apply(state, Act("hit", bet="b3"))
    assert "even-money" not in verbs(state, "b2")


@pytest.mark.parametrize("j", ("ES", "ES-GA"))
def test_no_even_money_where_the_catalog_has_none(j: str) -> None:
    state = dealt(j, BJ)
    assert "even-money" not in verbs(state, "b2")


def test_the_third_cards_of_one_round_do_not_close_the_next_rounds_even_money() -> None:
    shoe = ["TS", "9C", "5H", "8D", "8H", "7D", "6S", "2C", "9D",      # round 1: box 3 hits, dealer 8+9
            "TS", "AC", "5H", "AD", "8H", "KD", "6S"] + ["2H"] * 6
    state = GAME.open("ES-AN", {"minimum": 100}, shoe)
    for k in (1, 2, 3):
        GAME.apply(state, Bet(f"b{k}", f"p{k}", "main", 1000, None, {"box": k}))
    for e in (Deal(), Act("stand", bet="b1"), Act("stand", bet="b2"), Act("hit", bet="b3"), Act("stand", bet="b3")):
        GAME.apply(state, e)
    for k in (1, 2, 3):
        GAME.apply(state, Bet(f"c{k}", f"p{k}", "main", 1000, None, {"box": k}))
    GAME.apply(state, Deal())
    GAME.apply(state, Act("hit", bet="c1"))                # a box before box 2: its even money stays open
    assert state.hands[1].status == "blackjack" and "even-money" in verbs(state, "c2")
