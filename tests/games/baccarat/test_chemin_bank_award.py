"""Chemin de fer: the award of the bank among several offers (R: docs/rulings.md#chemin-bank-award).

The rotation seat by seat (001:749, 001:753), the auction to the highest bidder with seated players first on equal
bids (001:757-759), the passer and his associates left out of the auction of the hand they passed (001:767). The
whole sequence (standing players, the giver's buy-back, the last resort) is in test_chemin_bank_sequence.py."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tapete.catalog import get_game
from tapete.core.errors import TapeteError
from tapete.engine.events import Act, Bet, Deal
from tapete.engine.serialize import from_json, to_json

GAME = get_game("chemin-de-fer")
M = 10000
PUNTO_WINS = ["4S", "TH", "5D", "8C"]    # punto 4+5 = 9 abats against the bank's 8: the punto wins
BANK_WINS = ["2S", "TH", "3D", "9C"]     # punto 2+3 = 5 stands, the bank's T+9 = 9: the bank wins


def table(cards: list[str], **keys) -> object:
    return GAME.open("ES", {"minimum": M, "departments": 6, **keys}, cards)


def offer(bet_id: str, player: str, amount: int, **where) -> Bet:
    return Bet(bet_id, player, "bank", amount, None, where)


def stake(bet_id: str, player: str, amount: int, **where) -> Bet:
    return Bet(bet_id, player, "player", amount, None, where)


def run(state, events) -> dict:
    for e in events:
        GAME.apply(state, e)
    GAME.finish(state)
    return GAME.settle(state).document()


def test_the_rotation_seat_beats_a_higher_offer() -> None:
    state = table(BANK_WINS)
    doc = run(state, [offer("K4", "cuatro", 90000, seat=4), offer("K1", "uno", 50000, seat=1),
                      stake("s3", "p3", 20000, seat=3), Deal()])
    assert state.coups[0].bank == "K1"
    assert doc["bets"]["K1"]["status"] == "won"
    assert doc["bets"]["K4"] == {"status": "void", "staked": 90000, "returned": 90000}
    assert any("awarded to uno in the rotating turn" in line for line in state.log)
    assert any("offer K4 by cuatro is void" in line and "001:753" in line for line in state.log)


def test_the_rotation_goes_on_seat_by_seat_when_the_seat_in_turn_declines() -> None:
    """001:753: "si alguno de los jugadores no quiere coger la banca, ésta seguirá rotando": seat 1 makes no
    offer, so seat 2 is the next asked and takes it, though seats 3 and 5 offer more."""
    state = table(PUNTO_WINS)
    doc = run(state, [offer("K2", "dos", 30000, seat=2), offer("K5", "cinco", 80000, seat=5),
                      offer("K3", "tres", 60000, seat=3), stake("s6", "p6", 20000, seat=6), Deal()])
    assert state.coups[0].bank == "K2"
    assert doc["bets"]["K2"]["status"] == "lost"
    for void in ("K5", "K3"):
        assert doc["bets"][void]["status"] == "void"
    assert any("department 1 declines" in line and "001:753" in line for line in state.log)


def test_auction_to_the_highest_bid_when_nobody_takes_it_in_the_rotating_turn() -> None:
    state = table(PUNTO_WINS)
    doc = run(state, [offer("K2", "dos", 30000, seat=2, auction=True), offer("K5", "cinco", 80000, seat=5, auction=True),
                      offer("K3", "tres", 60000, seat=3, auction=True), stake("s6", "p6", 20000, seat=6), Deal()])
    assert state.coups[0].bank == "K5"
    assert doc["bets"]["K5"]["status"] == "lost"
    for void in ("K2", "K3"):
        assert doc["bets"][void]["status"] == "void"
    assert any("offer K3 by tres is void" in line and "001:757-759" in line for line in state.log)


def test_a_seated_offer_beats_a_standing_one_on_an_equal_bid() -> None:
    state = table(PUNTO_WINS)
    run(state, [offer("KB", "pie", 70000, behind=2), offer("K4", "cuatro", 70000, seat=4),
                stake("s6", "p6", 20000, seat=6), Deal()])
    assert state.coups[0].bank == "K4"


def test_after_a_loss_the_turn_is_the_seat_at_the_losers_right() -> None:
    state = table(PUNTO_WINS + BANK_WINS)
    run(state, [offer("K", "tres", 50000, seat=3), stake("s1", "p1", 20000, seat=1), Deal(),
                offer("K6", "seis", 90000, seat=6), offer("K4", "cuatro", 40000, seat=4),
                stake("s1b", "p1", 20000, seat=1), Deal()])
    assert state.coups[1].bank == "K4"


def test_the_passer_cannot_win_the_auction_of_the_hand_he_passed() -> None:
    state = table(BANK_WINS + PUNTO_WINS + PUNTO_WINS)
    events = [offer("K", "tres", 50000, seat=3), Bet("sh", "socio", "bank-share", 20000, ["K"], {}),
              stake("s1", "p1", 20000, seat=1), Deal(), Act("pass", bet="K")]
    # the hand passed holds 50 000 + 20 000 + 19 000 won (net of the cagnotte); nobody takes it in the rotation
    doc = run(state, [*events, offer("K6", "seis", 60000, seat=6, auction=True),
                      offer("K2", "dos", 40000, seat=2, auction=True), stake("s1b", "p1", 20000, seat=1), Deal()])
    assert state.coups[1].bank == "K6"
    assert doc["bets"]["K2"]["status"] == "void"
    for player, where in (("tres", {"seat": 3}), ("socio", {"behind": 5})):
        again = table(BANK_WINS + PUNTO_WINS + PUNTO_WINS)
        with pytest.raises(TapeteError) as err:
            run(again, [*events, offer("KX", player, 95000, auction=True, **where)])
        assert err.value.code == "illegal-action" and "001:767" in err.value.message


def test_losing_offers_are_void_and_money_is_conserved() -> None:
    state = table(BANK_WINS)
    doc = run(state, [offer("K1", "uno", 50000, seat=1), offer("K2", "dos", 60000, seat=2),
                      offer("KB", "pie", 99000, behind=3), stake("s4", "p4", 30000, seat=4), Deal()])
    bets = doc["bets"]
    assert bets["K2"] == {"status": "void", "staked": 60000, "returned": 60000}
    assert bets["KB"] == {"status": "void", "staked": 99000, "returned": 99000}
    staked = sum(b["staked"] for b in bets.values())
    returned = sum(b["returned"] for b in bets.values())
    assert staked == returned + doc["house"]["commission"]
    assert doc["house"]["net"] == staked - returned


def test_a_single_offer_settles_as_before() -> None:
    state = table(["2H", "3S", "4D", "4C"])
    doc = run(state, [offer("K", "b", 100000, seat=1), stake("s3", "p3", 40000, seat=3),
                      stake("s5", "p5", 20000, seat=5), stake("st", "p9", 10000, behind=6), Deal()])
    assert doc["bets"]["K"] == {"status": "won", "staked": 100000, "returned": 166500}
    assert doc["house"]["commission"] == 3500
    assert state.log[0].startswith("b takes the bank")
    assert not any("offer" in line for line in state.log)


def test_an_offer_after_the_award_is_still_refused() -> None:
    state = table(PUNTO_WINS)
    GAME.apply(state, offer("K1", "uno", 50000, seat=1))
    GAME.apply(state, stake("s3", "p3", 20000, seat=3))
    with pytest.raises(TapeteError) as err:
        GAME.apply(state, offer("K2", "dos", 60000, seat=2))
    assert err.value.code == "illegal-action"


def test_offers_survive_a_json_round_trip() -> None:
    state = table(BANK_WINS)
    GAME.apply(state, offer("K4", "cuatro", 90000, seat=4))
    GAME.apply(state, offer("K1", "uno", 50000, seat=1))
    state = from_json(type(state), to_json(state))
    GAME.apply(state, stake("s3", "p3", 20000, seat=3))
    assert state.bank().id == "K1"
    assert state.offers[0].final == "void" and state.offers[0].amount == 90000
    assert state.bank().holding == Fraction(50000)


def test_former_banker_takes_the_cards_for_one_coup_when_the_new_bank_is_bigger() -> None:
    """001:765: the banker who passed the hand takes the cards of the next bank's first coup, though his stake is
    lower than others', if that bank is bigger than the one he passed — for one coup only."""
    state = table(BANK_WINS * 3)
    run(state, [offer("K", "tres", 50000, seat=3), stake("s1", "p1", 20000, seat=1), Deal(), Act("pass", bet="K"),
                offer("K4", "cuatro", 90000, seat=4), stake("t3", "tres", 10000, seat=3),
                stake("t1", "p1", 30000, seat=1), Deal(),
                stake("u3", "tres", 10000, seat=3), stake("u1", "p1", 30000, seat=1), Deal()])
    assert state.coups[1].holder == "t3"
    assert any("001:765" in line for line in state.log)
    assert state.coups[2].holder == "u1"


def test_former_banker_has_no_right_when_the_new_bank_is_not_bigger() -> None:
    state = table(BANK_WINS + PUNTO_WINS)
    run(state, [offer("K", "tres", 50000, seat=3), stake("s1", "p1", 20000, seat=1), Deal(), Act("pass", bet="K"),
                offer("K4", "cuatro", 69000, seat=4), stake("t3", "tres", 10000, seat=3),
                stake("t1", "p1", 30000, seat=1), Deal()])
    assert state.coups[1].holder == "t1"


def test_sabot_returns_to_the_passers_right_when_the_passed_hand_loses() -> None:
    """001:771: the player who took a passed hand loses: the sabot goes back to the seat at the right of the
    banker who passed it (seat 4 after seat 3), not to the right of the loser (seat 6)."""
    state = table(BANK_WINS + PUNTO_WINS + BANK_WINS)
    run(state, [offer("K", "tres", 50000, seat=3), stake("s1", "p1", 20000, seat=1), Deal(), Act("pass", bet="K"),
                offer("K5", "cinco", 80000, seat=5), stake("t1", "p1", 30000, seat=1), Deal(),
                offer("K6", "seis", 90000, seat=6), offer("K4", "cuatro", 20000, seat=4),
                stake("u1", "p1", 10000, seat=1), Deal()])
    assert state.coups[1].bank == "K5" and state.banks[1].ended == "lost"
    assert state.coups[2].bank == "K4"


def test_a_new_banker_who_refuses_to_deal_is_auctioned_without_him_nor_the_passer() -> None:
    """001:773: whoever takes the bank must deal once; if he refuses, the bank is auctioned and neither he nor the
    banker who passed the hand may bid."""
    state = table(BANK_WINS * 2)
    doc = run(state, [offer("K", "tres", 50000, seat=3), stake("s1", "p1", 20000, seat=1), Deal(), Act("pass", bet="K"),
                      offer("K4", "cuatro", 70000, seat=4), Act("refuse-to-deal", bet="K4"),
                      offer("K6", "seis", 80000, seat=6), offer("K5", "cinco", 75000, seat=5),
                      stake("t1", "p1", 10000, seat=1), Deal()])
    assert doc["bets"]["K4"]["returned"] == 70000
    assert any("refuses to deal" in line and "001:773" in line for line in state.log)
    assert state.coups[1].bank == "K6"          # at auction: seat 5's turn gives it no priority
    for player, seat in (("cuatro", 4), ("tres", 3)):
        again = table(BANK_WINS * 2)
        with pytest.raises(TapeteError) as err:
            run(again, [offer("K", "tres", 50000, seat=3), stake("s1", "p1", 20000, seat=1), Deal(),
                        Act("pass", bet="K"), offer("K4", "cuatro", 70000, seat=4), Act("refuse-to-deal", bet="K4"),
                        offer("KX", player, 90000, seat=seat)])
        assert "001:773" in err.value.message


def test_a_standing_player_who_moves_to_follow_the_hand_is_paid_last() -> None:
    """001:741: standing behind seat 6, then behind seat 2 (right behind the banker at seat 1): his stake is covered
    after every other, so the 40 000 bank covers the stake behind seat 5 first."""
    state = table(BANK_WINS + PUNTO_WINS)
    doc = run(state, [offer("K", "uno", 40000, seat=1), stake("a", "pie", 10000, behind=6), Deal(),
                      stake("b", "pie", 30000, behind=2), stake("c", "otro", 30000, behind=5), Deal()])
    assert any("001:741" in line for line in state.log)
    assert doc["bets"]["c"]["status"] == "won" and doc["bets"]["c"]["returned"] > 30000
    assert doc["bets"]["b"]["returned"] < 2 * 30000         # only the part the bank had left is covered


@pytest.mark.parametrize(("jurisdiction", "source"), [("ES", "001:773"), ("ES-IB", "000:879"), ("ES-GA", "002:562"),
                                                      ("ES-AN", "003:2063-2066")])
def test_refuse_to_deal_cites_each_catalogs_own_article(jurisdiction: str, source: str) -> None:
    state = GAME.open(jurisdiction, {"minimum": M, "departments": 6}, BANK_WINS)
    run(state, [offer("K", "uno", 50000, seat=1), Act("refuse-to-deal", bet="K")])
    assert any(f"({source})" in line for line in state.log), state.log
