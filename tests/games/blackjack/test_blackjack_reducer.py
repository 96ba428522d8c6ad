"""Black Jack: the cases the round format cannot show by a settlement alone, the jurisdiction differences in the
rules data, invariants (money conserved, JSON round trip mid-round), and the shoe's life."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapete.catalog import get_game
from tapete.conformance.document import settle_document
from tapete.core.rng import TableRng
from tapete.engine.events import Act, Bet, Deal, Limits, Void
from tapete.engine.serialize import from_json, to_json
from tapete.games.blackjack.rules import BLACKJACK_RULES

GAME = get_game("blackjack")
ALL = ("ES", "ES-IB", "ES-GA", "ES-AN")


def run(j: str, shoe: list[str], events: list, table: dict | None = None):
    state = GAME.open(j, {"minimum": 100, **(table or {})}, shoe)
    for e in events:
        state = GAME.step(state, e)
    return GAME.finish(state)


def main(i: str = "b1", box: int = 1, amount: int = 1000, **extra) -> Bet:
    return Bet(i, "p1", "main", amount, None, {"box": box, **extra})


def test_every_rule_cites_its_source() -> None:
    for rules in BLACKJACK_RULES.values():
        assert rules.missing_sources() == []


def test_jurisdiction_differences_are_rules_data() -> None:
    r = BLACKJACK_RULES
    assert [r[j].even_money for j in ALL] == [False, True, False, True]
    assert [r[j].surrender for j in ALL] == [False, True, True, False]
    assert [r[j].double_totals for j in ALL] == [(9, 10, 11), None, (9, 10, 11), None]
    assert [r[j].double_initial_aces for j in ALL] == [False, False, False, True]
    assert [r[j].dealer_draws_without_live_hands for j in ALL] == [True, True, True, False]
    assert [r[j].min_hands for j in ALL] == [1, 1, 2, 1]
    assert [r[j].max_bettors_per_box for j in ALL] == [None, None, 3, 3]
    assert [r[j].bolsa for j in ALL] == [False, False, False, True]
    assert [r[j].boxes for j in ALL] == [(7,), (7, 9), (7,), (7,)]
    assert [r[j].limit_change for j in ALL] == ["never", "after-3-rounds", "never", "after-3-rounds"]
    assert r["ES"].maximum_multiples == (50, 100, 200) and r["ES-AN"].maximum_is_range
    for j in ALL:   # the same everywhere (A8, last paragraph)
        rules = r[j]
        assert (rules.decks, rules.burn, rules.cut_reserve, rules.hole_card, rules.dealer_stands_soft_17) == (6, 5, 52, False, True)
        assert (rules.blackjack_pays, rules.insurance_pays, rules.insurance_max) == (Fraction(3, 2), 2, Fraction(1, 2))


def test_BJ_17_andalucia_dealer_draws_nothing_when_no_hand_remains() -> None:
    shoe = ["TS", "6D", "6C", "KC", "5H", "7C"]
    events = [main(), Act("hit", bet="b1")]
    andalucia = run("ES-AN", shoe, events)
    assert andalucia.dealer == ["6D"] and andalucia.shoe.position == 4      # 5H stays in the shoe
    national = run("ES", shoe, events)
    assert national.dealer == ["6D", "5H", "7C"]
    for s in (andalucia, national):
        assert GAME.settle(s).document()["bets"]["b1"]["returned"] == 0


def test_BJ_18_andalucia_insurance_alone_draws_one_card() -> None:
    state = run("ES-AN", ["TS", "AD", "6C", "TH", "KC", "9S"], [main(), Act("insure", bet="b1", fields={"amount": 500}),
                                                               Act("hit", bet="b1")])
    assert state.dealer == ["AD", "KC"]          # the second card settles the insurance (A9-9)
    assert GAME.settle(state).document()["bets"]["b1"] == {"status": "push", "staked": 1500, "returned": 1500}


def test_BJ_23_face_up_card_is_logged_and_skipped() -> None:
    state = run("ES", ["TS", "7D", "9C", "8H", "TC"], [main()], {"face-up": [2]})
    assert state.hands[0].cards == ["TS", "8H"] and state.shoe.eliminated == ["9C"]
    assert any("face up" in line for line in state.log)


def test_BJ_24_galicia_two_hands_minimum() -> None:
    state = run("ES-GA", ["TS", "6D", "7C", "TH"], [main()])
    assert state.rounds == 0 and state.bets[0].status == "void" and state.shoe.position == 0
    doc = {"game": "blackjack", "jurisdiction": "ES-GA", "table": {"minimum": 100}, "shoe": ["TS", "6D", "7C", "TH"],
           "events": [{"bet": {"id": "b1", "player": "p", "kind": "main", "box": 1, "amount": 1000}},
                      {"act": {"bet": "b1", "do": "stand"}}]}
    assert settle_document(doc)["error"]["code"] == "illegal-action"


def test_nine_boxes_only_in_the_balearics() -> None:
    assert run("ES-IB", ["TS", "6D", "7C", "TH", "TS"], [main(box=9)], {"boxes": 9}).hands[0].box == 9
    for j in ("ES", "ES-GA", "ES-AN"):
        doc = {"game": "blackjack", "jurisdiction": j, "table": {"minimum": 100, "boxes": 9}, "shoe": ["TS"], "events": []}
        assert settle_document(doc)["error"]["code"] == "bad-table"
    doc = {"game": "blackjack", "jurisdiction": "ES", "table": {"minimum": 100}, "shoe": ["TS"],
           "events": [{"bet": {"id": "b1", "player": "p", "kind": "main", "box": 8, "amount": 1000}}]}
    assert settle_document(doc)["error"]["code"] == "bad-target"


def test_limit_change_after_three_rounds_where_allowed() -> None:
    shoe = [c + s for s in "SHDC" for c in ("T", "6", "7", "Q", "K")]
    rounds = []
    for k in range(4):
        rounds += [main(f"b{k}"), Deal()]
    state = GAME.open("ES-IB", {"minimum": 100}, shoe)
    state = GAME.step(state, Limits({"minimum": 200, "maximum": 4000}))
    for e in rounds[:6]:
        state = GAME.step(state, e)
    state = GAME.finish(state)
    assert state.limits.minimum == 200 and state.rounds == 3
    with pytest.raises(Exception) as err:
        GAME.step(GAME.open("ES", {"minimum": 100}, shoe), Limits({"minimum": 200}))
    assert err.value.code == "illegal-action"


def test_void_round_returns_every_stake() -> None:
    state = run("ES", ["8S", "6D", "8H", "3C"], [main(), Act("split", bet="b1"), Void("misdeal")])
    doc = GAME.settle(state).document()
    assert doc["bets"]["b1"] == {"status": "void", "staked": 1000, "returned": 1000} and doc["rounds"] == 0


def test_bolsa_jackpot_and_fixed_stake() -> None:
    shoe = ["7H", "9D", "7H", "7H", "TC"]
    events = [main(), Bet("b2", "p1", "bolsa", 100, None, {"box": 1}), Act("hit", bet="b1")]
    state = run("ES-AN", shoe, events, {"bolsa-jackpot": 500000})
    assert GAME.settle(state).document()["bets"]["b2"]["returned"] == 500100
    doc = {"game": "blackjack", "jurisdiction": "ES-AN", "table": {"minimum": 100, "bolsa-stake": 200}, "shoe": shoe,
           "events": [{"bet": {"id": "b1", "player": "p", "kind": "main", "box": 1, "amount": 1000}},
                      {"bet": {"id": "b2", "player": "p", "kind": "bolsa", "box": 1, "amount": 100}}]}
    assert settle_document(doc)["error"]["code"] == "bad-amount"
    doc["table"] = {"minimum": 100, "bolsa-jackpot": 1000}
    doc["events"][1]["bet"]["amount"] = 100
    doc["table"]["bolsa-stake"] = 100
    assert settle_document(doc)["error"]["code"] == "bad-table"


def test_resplit_aces_is_a_table_option() -> None:
    shoe = ["AS", "7D", "AH", "AC", "KC", "5H", "9D", "TS"]
    state = run("ES", shoe, [main(), Act("split", bet="b1"), Act("split", bet="b1")])
    assert [h.cards for h in state.hands] == [["AS", "KC"], ["AC", "5H"], ["AH", "9D"]]
    doc = {"game": "blackjack", "jurisdiction": "ES", "table": {"minimum": 100, "resplit-aces": False}, "shoe": shoe,
           "events": [{"bet": {"id": "b1", "player": "p", "kind": "main", "box": 1, "amount": 1000}},
                      {"act": {"bet": "b1", "do": "split"}}, {"act": {"bet": "b1", "do": "split"}}]}
    assert settle_document(doc)["error"]["code"] == "illegal-action"


def test_cut_card_last_round_and_live_shoe() -> None:
    state = run("ES", ["TS", "6D", "7C", "TH", "9S"], [main()], {"cut-card": 2})
    assert state.last_of_shoe and any("cut card" in line for line in state.log)
    live = GAME.open("ES", {"minimum": 100})
    GAME.live_shoe(live, TableRng(b"\x01" * 32))
    shoe = live.shoe
    assert len(shoe.cards) == 312 and shoe.position == 5 and 52 <= len(shoe.cards) - shoe.cut_index <= 78
    assert sorted(shoe.cards) == sorted(c for c in shoe.cards)   # a permutation of six decks
    from collections import Counter
    assert set(Counter(shoe.cards).values()) == {6}


def test_errors_name_their_source() -> None:
    doc = {"game": "blackjack", "jurisdiction": "ES", "table": {"minimum": 100}, "shoe": ["7S", "6D", "5C"],
           "events": [{"bet": {"id": "b1", "player": "p", "kind": "main", "box": 1, "amount": 1000}},
                      {"act": {"bet": "b1", "do": "double"}}]}
    error = settle_document(doc)["error"]
    assert error["code"] == "illegal-action" and "001:308" in error["message"]
    doc["events"][1] = {"act": {"bet": "b1", "do": "surrender"}}
    assert "surrender" in settle_document(doc)["error"]["message"]
    doc["events"][1] = {"act": {"bet": "b1", "do": "fly"}}
    assert settle_document(doc)["error"]["code"] == "illegal-action"
    doc["events"][1] = {"act": {"bet": "b1", "do": "hit", "amount": 5}}
    assert settle_document(doc)["error"]["code"] == "bad-document"


def test_state_round_trips_mid_round() -> None:
    state = GAME.open("ES-IB", {"minimum": 100}, ["8S", "6D", "8H", "3C", "TD", "2H", "9S", "TC", "7H"])
    for e in (main(), Bet("b2", "p2", "main", 500, None, {"box": 1}), Act("split", bet="b1")):
        state = GAME.step(state, e)
        again = from_json(GAME.state_type(), json.loads(json.dumps(to_json(state))))
        assert again == state


SIX_DECKS = [r + s for r in "A23456789TJQK" for s in "SHDC"] * 6
SHOES = st.integers(0, 2**32).map(lambda seed: random.Random(seed).sample(SIX_DECKS, 40))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoe=SHOES, j=st.sampled_from(ALL), boxes=st.integers(2, 4),
       choices=st.lists(st.sampled_from(["hit", "stand", "double", "split", "insure", "surrender", "even-money"]),
                        max_size=12))
def test_money_is_conserved_and_every_legal_act_settles(shoe, j, boxes, choices) -> None:
    state = GAME.open(j, {"minimum": 100}, shoe)
    for b in range(1, boxes + 1):
        state = GAME.step(state, main(f"b{b}", b))
    state = GAME.step(state, Deal())
    for verb in choices:
        legal = [a for a in GAME.legal_actions(state) if a.verb == verb]
        if not legal:
            continue
        a = legal[0]
        fields = {"amount": a.maximum} if verb == "insure" else {}
        state = GAME.step(state, Act(verb, bet=a.bet, fields=fields))
    doc = GAME.settle(GAME.finish(state)).document()
    settled = [b for b in doc["bets"].values() if b["status"] != "pending"]
    assert len(settled) == boxes
    assert doc["house"]["net"] == -sum(b["returned"] - b["staked"] for b in settled)
    assert all(b["staked"] >= 1000 for b in settled)
