"""The four reducers beyond the golden files: jackpot meters, several rounds, act order, JSON round trips, and
money conserved on random decks and decisions (hypothesis)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tapete.conformance.document import parse, settle_document
from tapete.core.cards import french_deck
from tapete.engine.serialize import from_json, to_json
from tapete.games.poker import evaluator as ev
from tapete.games.poker.pai_gow import house_way

QA = ["AC", "KH", "8D", "5S", "3H"]
QB = ["AD", "KC", "7H", "5S", "3C"]      # qualifying ace-king without a king of hearts


def sd_shoe(boxes: list[list[str]], croupier: list[str], extra: tuple[str, ...] = ()) -> list[str]:
    return [c for r in range(5) for c in [h[r] for h in boxes] + [croupier[r]]] + list(extra)


def bet(i: str, kind: str, box: int = 1, amount: int = 1000, player: str = "p1") -> dict:
    return {"bet": {"id": i, "player": player, "kind": kind, "box": box, "amount": amount}}


def act(b: str, do: str, **fields: object) -> dict:
    return {"act": {"bet": b, "do": do, **fields}}


def test_SD_17_the_meter_drops_by_the_prize_and_grows_by_the_stakes() -> None:
    for j, carry in (("ES-AN", 1800000), ("ES-IB", 1800090)):     # ES-IB: 90% of each stake (000:1365)
        doc = {"game": "poker-sin-descarte", "jurisdiction": j, "table": {"minimum": 1000, "jackpot": 2000000,
               "jackpot-stake": 100}, "shoe": sd_shoe([["4C", "5C", "6C", "7C", "8C"]], QA),
               "events": [bet("a1", "ante"), bet("j1", "jackpot", amount=100), act("a1", "call")]}
        answer = settle_document(doc)
        assert answer["bets"]["j1"]["returned"] == 200100
        assert answer["carry"] == {"jackpot": carry}


def test_SD_18_two_straight_flushes_in_turn_leave_16200() -> None:
    doc = {"game": "poker-sin-descarte", "jurisdiction": "ES-AN", "table": {"minimum": 1000, "jackpot": 2000000,
           "jackpot-stake": 100}, "shoe": sd_shoe([["5D", "6D", "7D", "8D", "9D"], ["9S", "TS", "JS", "QS", "KS"]], ["AD", "KC", "7H", "5S", "3C"]),
           "events": [bet("a1", "ante"), bet("a2", "ante", box=2, player="p2"), bet("j1", "jackpot", amount=100),
                      bet("j2", "jackpot", box=2, amount=100, player="p2"), act("a1", "call"), act("a2", "call")]}
    answer = settle_document(doc)
    assert (answer["bets"]["j2"]["returned"], answer["bets"]["j1"]["returned"]) == (200100, 180100)
    assert answer["carry"] == {"jackpot": 1620000}


def test_several_rounds_from_one_shoe() -> None:
    # VOCABULARY §0.3: each round takes exactly the cards its deal uses; a bet after the deal opens the next round
    first = sd_shoe([["7S", "7H", "KD", "9C", "2S"]], QA)
    second = sd_shoe([["KS", "KH", "KD", "4C", "4S"]], ["AC", "QH", "9D", "6S", "3H"])
    doc = {"game": "poker-sin-descarte", "jurisdiction": "ES-IB", "table": {"minimum": 1000}, "shoe": first + second,
           "events": [bet("a1", "ante"), act("a1", "call"), bet("a2", "ante"), act("a2", "call")]}
    answer = settle_document(doc)
    assert answer["rounds"] == 2
    assert answer["bets"]["a1"]["returned"] == 6000 and answer["bets"]["a2"]["returned"] == 4000
    # the same card in both rounds is fine (a fresh deck each round), not within one
    assert "error" not in settle_document(doc)


def test_purchases_draw_in_box_order_whatever_the_order_of_the_acts() -> None:
    boxes = [["9S", "9H", "4D", "7C", "2S"], ["KS", "KH", "5D", "6C", "3S"]]
    shoe = sd_shoe(boxes, QB, ("9D", "KD"))            # box 1's purchase takes 9D, box 2's KD
    base = [bet("a1", "ante"), bet("a2", "ante", box=2, player="p2")]
    acts = [act("a1", "buy", cards=["2S"]), act("a1", "call"), act("a2", "buy", cards=["3S"]), act("a2", "call")]
    answers = []
    for events in (base + acts, base + acts[2:] + acts[:2]):
        doc = {"game": "poker-sin-descarte", "jurisdiction": "ES-IB", "table": {"minimum": 1000}, "shoe": shoe, "events": events}
        answers.append(settle_document(doc)["bets"])
    assert answers[0] == answers[1]
    assert answers[0]["a1"]["returned"] == 10000 and answers[0]["a2"]["returned"] == 10000    # three nines, three kings


def test_a_co_bettor_follows_the_seated_players_decision_and_pays_no_purchase() -> None:
    shoe = sd_shoe([["9S", "9H", "4D", "7C", "2S"]], QA, ("9D",))
    doc = {"game": "poker-sin-descarte", "jurisdiction": "ES-IB", "table": {"minimum": 1000}, "shoe": shoe,
           "events": [bet("a1", "ante"), bet("c1", "ante", player="q", amount=2000), act("a1", "buy", cards=["2S"]),
                      act("a1", "call")]}
    bets = settle_document(doc)["bets"]
    assert bets["a1"] == {"status": "won", "staked": 4000, "returned": 10000}
    assert bets["c1"] == {"status": "won", "staked": 6000, "returned": 20000}


def test_seguro_after_a_fold_is_lost_unless_the_table_says_otherwise() -> None:
    shoe = sd_shoe([["KS", "KH", "KD", "4C", "4S"]], QB)
    events = [bet("a1", "ante"), bet("s1", "insurance", amount=500), act("a1", "fold")]
    doc = {"game": "poker-sin-descarte", "jurisdiction": "ES-AN", "table": {"minimum": 1000}, "shoe": shoe, "events": events}
    assert settle_document(doc)["bets"]["s1"]["returned"] == 0
    doc["table"]["seguro-paid-if-fold"] = True
    assert settle_document(doc)["bets"]["s1"]["returned"] == 50500


def test_showing_cards_forfeits_the_side_bets_in_both_texts_000_1353_003_3297() -> None:
    """'Pérdida total de la apuesta' (000:1353) and 'la totalidad de la apuesta' (003:3297-3298) say the same: the
    seguro is lost with the ante in both jurisdictions (docs/rulings.md#sin-descarte-forfeit-both)."""
    shoe = sd_shoe([["KS", "KH", "KD", "4C", "4S"]], QB)
    events = [bet("a1", "ante"), bet("s1", "insurance", amount=500), act("a1", "call"), act("a1", "expose")]
    for j in ("ES-AN", "ES-IB"):
        doc = {"game": "poker-sin-descarte", "jurisdiction": j, "table": {"minimum": 1000}, "shoe": shoe, "events": events}
        bets = settle_document(doc)["bets"]
        assert bets["a1"]["returned"] == 0 and bets["s1"]["returned"] == 0, j
        doc["table"]["forfeit-side-bets"] = False               # the table option keeps the narrower reading
        assert settle_document(doc)["bets"]["s1"]["returned"] == 50500, j


def _state_round_trip(doc: dict, upto: int) -> None:
    rd = parse(doc)
    state = rd.game.open(rd.jurisdiction, rd.table, rd.shoe)
    for event in rd.events[:upto]:
        state = rd.game.step(state, event)
    again = from_json(rd.game.state_type(), json.loads(json.dumps(to_json(state))))
    assert again == state


def test_state_json_round_trip_mid_round() -> None:
    shoe = sd_shoe([["9S", "9H", "4D", "7C", "2S"]], QA, ("9D",))
    _state_round_trip({"game": "poker-sin-descarte", "jurisdiction": "ES-AN", "table": {"minimum": 1000, "card-purchase": True,
                       "jackpot": 2000000}, "shoe": shoe,
                       "events": [bet("a1", "ante"), bet("j1", "jackpot", amount=100), act("a1", "buy", cards=["2S"])]}, 3)
    _state_round_trip({"game": "trijoker", "jurisdiction": "ES-IB", "table": {"minimum": 1000},
                       "shoe": ["2H", "JH", "6H", "KH", "9H"], "events": [bet("t", "main"), act("t", "keep")]}, 2)
    _state_round_trip({"game": "tripoker", "jurisdiction": "ES-AN", "table": {"minimum": 500},
                       "shoe": ["5C", "8C", "6D", "8D", "7H", "KS"], "events": [bet("a", "ante"), act("a", "call")]}, 2)
    _state_round_trip({"game": "pai-gow", "jurisdiction": "ES-AN", "table": {"minimum": 1000},
                       "shoe": ["QS", "QH", "8D", "6C", "3S", "KD", "JC", "KS", "KH", "9D", "9C", "4S", "AD", "QC"],
                       "events": [bet("m", "main", amount=10000), {"roll": [1, 2, 4]},
                                  act("m", "set", high=["KS", "KH", "9D", "9C", "4S"], low=["AD", "QC"])]}, 3)


# ------------------------------------------------------------------------------------------------ properties

def _deck(seed: int, jokers: int = 0) -> list[str]:
    cards = [c.text for c in french_deck(jokers)]
    random.Random(seed).shuffle(cards)
    return cards


def _conserved(answer: dict) -> None:
    assert "error" not in answer, answer
    total = sum(b["returned"] - b["staked"] for b in answer["bets"].values() if b["status"] != "pending")
    assert answer["house"]["net"] == -total
    assert all(b["status"] in ("won", "lost", "push", "void") for b in answer["bets"].values())


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.lists(st.sampled_from(["call", "fold", "buy", "none"]), min_size=1, max_size=4),
       st.sampled_from(["ES-IB", "ES-AN"]))
def test_sin_descarte_conserves_money(seed: int, decisions: list[str], j: str) -> None:
    deck = _deck(seed)
    events: list[dict] = []
    for box in range(1, len(decisions) + 1):
        events += [bet(f"a{box}", "ante", box=box, player=f"p{box}"), bet(f"s{box}", "insurance", box=box, amount=500,
                                                                                player=f"p{box}")]
    for box, d in enumerate(decisions, 1):
        hand = deck[box - 1:5 * (len(decisions) + 1):len(decisions) + 1][:5]
        if d == "buy":
            events.append(act(f"a{box}", "buy", cards=[hand[0]]))
            events.append(act(f"a{box}", "call"))
        elif d != "none":
            events.append(act(f"a{box}", d))
    doc = {"game": "poker-sin-descarte", "jurisdiction": j, "table": {"minimum": 1000, **({"card-purchase": True} if j == "ES-AN" else {})},
           "shoe": deck, "events": events}
    _conserved(settle_document(doc))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.lists(st.tuples(st.sampled_from(["keep", "withdraw"]), st.sampled_from(["keep", "withdraw"])),
                                       min_size=1, max_size=7))
def test_trijoker_conserves_money(seed: int, decisions: list[tuple[str, str]]) -> None:
    events: list[dict] = [bet(f"t{k}", "main", box=k, player=f"p{k}") for k in range(1, len(decisions) + 1)]
    for k, (d1, d2) in enumerate(decisions, 1):
        events += [act(f"t{k}", d1), act(f"t{k}", d2)]
    doc = {"game": "trijoker", "jurisdiction": "ES-AN", "table": {"minimum": 1000}, "shoe": _deck(seed), "events": events}
    _conserved(settle_document(doc))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.lists(st.sampled_from(["call", "fold", "fortune-only"]), min_size=1, max_size=9))
def test_tripoker_conserves_money(seed: int, decisions: list[str]) -> None:
    events: list[dict] = []
    for k, d in enumerate(decisions, 1):
        if d != "fortune-only":
            events.append(bet(f"a{k}", "ante", box=k, player=f"p{k}"))
        events.append(bet(f"f{k}", "fortune", box=k, player=f"p{k}", amount=500))
    events += [act(f"a{k}", d) for k, d in enumerate(decisions, 1) if d != "fortune-only"]
    doc = {"game": "tripoker", "jurisdiction": "ES-AN", "table": {"minimum": 500}, "shoe": _deck(seed), "events": events}
    _conserved(settle_document(doc))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 6), st.booleans(), st.integers(3, 18))
def test_pai_gow_conserves_money_and_the_house_way_never_fouls(seed: int, players: int, bank: bool, dice: int) -> None:
    events: list[dict] = [bet(f"m{k}", "main", box=k, player=f"p{k}", amount=1000) for k in range(1, players + 1)]
    if bank and players < 6:
        events.append(bet("b", "bank", box=6, player="banker", amount=10000))
    d1 = min(6, dice - 2)
    d2 = min(6, dice - d1 - 1)
    events.append({"roll": [d1, d2, dice - d1 - d2]})
    doc = {"game": "pai-gow", "jurisdiction": "ES-AN", "table": {"minimum": 1000, "house-stake": 1000 if bank else 0},
           "shoe": _deck(seed, jokers=1), "events": events}
    answer = settle_document(doc)
    _conserved(answer)
    assert not any("FOUL" in line for line in answer["log"])


def test_the_house_way_is_always_a_legal_setting() -> None:
    rng = random.Random(7)
    deck = [c.text for c in french_deck(1)]
    for _ in range(1500):
        hand = rng.sample(deck, 7)
        high, low = house_way(hand)
        assert sorted(high + low) == sorted(hand) and len(low) == 2
        assert ev.rank5(high, ev.PAI_GOW) > ev.rank2(low, ev.PAI_GOW), hand


def test_legal_actions_follow_the_round() -> None:
    from tapete.catalog import get_game
    from tapete.engine.events import Act, Bet, Deal

    game = get_game("poker-sin-descarte")
    state = game.open("ES-IB", {"minimum": 1000}, sd_shoe([["9S", "9H", "4D", "7C", "2S"]], QA, ("9D",)))
    assert {a.kind for a in game.legal_actions(state) if a.verb == "bet"} == {"ante", "insurance", "jackpot"}
    state = game.step(state, Bet("a1", "p1", "ante", 1000, None, {"box": 1}))
    state = game.step(state, Deal())
    assert [(a.verb, a.bet) for a in game.legal_actions(state)] == [("buy", "a1"), ("call", "a1"), ("fold", "a1")]
    state = game.step(state, Act("buy", bet="a1", fields={"cards": ["2S"]}))
    assert [a.verb for a in game.legal_actions(state)] == ["call", "fold"]
    state = game.step(state, Act("call", bet="a1"))
    assert game.legal_actions(state) == []
    assert game.settle(game.finish(state)).bets["a1"].returned == 10000
