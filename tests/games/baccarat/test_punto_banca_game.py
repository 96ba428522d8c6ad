"""Punto y banca beyond the golden cases: the conformance example, the burn (PB-23), the sabot, jurisdictions, invariants."""

from __future__ import annotations

import json
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tapete.catalog import get_game
from tapete.conformance.document import settle_document
from tapete.core.rng import TableRng
from tapete.engine.events import Bet, Deal
from tapete.engine.serialize import from_json, to_json
from tapete.games.baccarat.punto_banca import RULES, bet_return, opening_burn
from tapete.lab.cases import EXAMPLES as EXAMPLES_FILE
from tapete.lab.cases import golden_path

GAME = get_game("punto-banca")
EXAMPLES = golden_path() / EXAMPLES_FILE     # the worked examples, package data since issue 32
FULL_SHOE = [r + s for _ in range(6) for r in "A23456789TJQK" for s in "SHDC"]


def shoe_cards(n: int) -> st.SearchStrategy[list[str]]:
    """n cards of a six-deck shoe (no card more than six times)."""
    return st.lists(st.integers(0, 311), unique=True, min_size=n, max_size=n).map(lambda ix: [FULL_SHOE[i] for i in ix])


def test_conformance_example_punto_banca_player_draws_and_wins() -> None:
    case = next(json.loads(x) for x in EXAMPLES.read_text(encoding="utf-8").splitlines() if "punto-banca-player-draws-and-wins" in x)
    answer = settle_document(case["doc"])
    for bet_id, want in case["expect"]["bets"].items():
        assert {k: answer["bets"][bet_id][k] for k in want} == want


def test_PB_23_the_first_card_burns_its_value_plus_itself() -> None:
    assert opening_burn("7H") == 8            # the 7 and seven more: the first coup's P1 is the 9th card
    assert opening_burn("KS") == 11           # a king burns 1 + 10: P1 is the 12th card
    assert opening_burn("AS") == 2
    assert opening_burn("7H", "value-including-exposed") == 7
    state = GAME.open("ES", {"minimum": 100})
    burnt = GAME.new_shoe(state, TableRng(bytes(32)))
    assert len(burnt) == opening_burn(burnt[0]) and state.shoe.position == len(burnt)
    assert state.shoe.cut_index == 312 - 7    # seven cards below the stop card (001:671)
    other = GAME.open("ES", {"minimum": 100, "burn": "value-including-exposed"})
    assert len(GAME.new_shoe(other, TableRng(bytes(32)))) == len(burnt) - 1


def test_the_sabot_passes_when_the_bank_hand_loses_and_not_on_a_tie() -> None:
    cards = ["4S", "3H", "5D", "KC", "TS", "4H", "7D", "3C", "2S", "5H", "4D", "2C"]   # punto wins, tie, bank wins
    state = GAME.open("ES", {"minimum": 100, "seats": 3}, cards)
    seats = []
    for _ in range(3):
        GAME.apply(state, Deal())
        seats.append(state.sabot_seat)
    assert [c.winner for c in state.coups] == ["player", "tie", "banker"]
    assert seats == [2, 2, 2]
    assert "the sabot passes to seat 2" in " ".join(state.log)


def test_jurisdiction_differences_are_in_the_rules() -> None:
    assert "tie" not in RULES["ES"].kinds and all("tie" in RULES[j].kinds for j in ("ES-IB", "ES-GA", "ES-AN"))
    one = Fraction(1)
    assert bet_return(RULES["ES"], "banker", one, 5, 6) == (Fraction(195, 100), Fraction(5, 100))
    assert bet_return(RULES["ES-AN"], "banker", one, 5, 6) == (Fraction(3, 2), Fraction(1, 2))
    assert bet_return(RULES["ES-AN"], "banker", one, 5, 7) == (Fraction(2), Fraction(0))
    assert bet_return(RULES["ES-AN"], "banker", one, 6, 6) == (one, Fraction(0))
    assert [RULES[j].maxima for j in RULES] == [(50, 100), (25, 50, 100), None, None]
    assert RULES["ES-GA"].maximum_range == (20, 100) and RULES["ES-AN"].maximum_range == (10, 200)


def test_rules_cite_every_field() -> None:
    for rules in RULES.values():
        assert rules.missing_sources() == []


@st.composite
def sessions(draw: st.DrawFn) -> tuple[str, list[str], list[list[tuple[str, str, int]]]]:
    jurisdiction = draw(st.sampled_from(list(RULES)))
    kinds = RULES[jurisdiction].kinds
    coups = draw(st.integers(1, 4))
    bets = [[(f"b{c}-{i}", draw(st.sampled_from(kinds)), draw(st.sampled_from([100, 150, 300, 1000])))
             for i in range(draw(st.integers(0, 4)))] for c in range(coups)]
    cards = draw(shoe_cards(6 * coups))
    return jurisdiction, cards, bets


def play(jurisdiction: str, cards: list[str], bets: list[list[tuple[str, str, int]]], reverse: bool = False):
    state = GAME.open(jurisdiction, {"minimum": 100}, cards)
    for coup in bets:
        for bet_id, kind, amount in (reversed(coup) if reverse else coup):
            GAME.apply(state, Bet(bet_id, bet_id, kind, amount))
        GAME.apply(state, Deal())
    return state


def oracle_gross(kind: str, amount: int, player: list[str], bank: list[str]) -> Fraction:
    """What a stake would get before any deduction, from totals counted here independently."""
    def points(cards: list[str]) -> int:
        return sum(1 if c[0] == "A" else 0 if c[0] in "TJQK" else int(c[0]) for c in cards) % 10

    p, b = points(player), points(bank)
    if kind == "tie":
        return Fraction(9 * amount) if p == b else Fraction(0)
    if p == b:
        return Fraction(amount)
    return Fraction(2 * amount) if (p > b) == (kind == "player") else Fraction(0)


@settings(max_examples=120, deadline=None)
@given(sessions())
def test_money_is_conserved_including_the_deduction(session) -> None:
    jurisdiction, cards, bets = session
    state = play(jurisdiction, cards, bets)
    settlement = GAME.settle(state)
    doc = settlement.document()
    assert doc["house"]["net"] == -sum(b["returned"] - b["staked"] for b in doc["bets"].values())
    coups = {bet_id: c for c in state.coups for bet_id in c.bets}
    deductions = Fraction(0)
    for b in state.bets:            # every cent a winner does not get is the house's deduction, and only that
        coup = coups[b.id]
        assert b.returned + b.deduction == oracle_gross(b.kind, b.amount, coup.player, coup.bank)
        deductions += b.deduction
    assert settlement.commission == deductions
    net = sum((r.staked - r.returned for r in settlement.bets.values()), Fraction(0))
    assert net == sum((Fraction(b.amount) - oracle_gross(b.kind, b.amount, coups[b.id].player, coups[b.id].bank)
                       for b in state.bets), Fraction(0)) + deductions


@settings(max_examples=60, deadline=None)
@given(sessions())
def test_settlement_does_not_depend_on_the_order_of_bets(session) -> None:
    jurisdiction, cards, bets = session
    a = GAME.settle(play(jurisdiction, cards, bets)).document()
    b = GAME.settle(play(jurisdiction, cards, bets, reverse=True)).document()
    assert a["bets"] == b["bets"] and a["house"] == b["house"]


@settings(max_examples=40, deadline=None)
@given(sessions())
def test_state_round_trips_through_json_between_coups(session) -> None:
    jurisdiction, cards, bets = session
    state = GAME.open(jurisdiction, {"minimum": 100}, cards)
    for coup in bets:
        for bet_id, kind, amount in coup:
            GAME.apply(state, Bet(bet_id, bet_id, kind, amount))
            again = from_json(GAME.state_type(), json.loads(json.dumps(to_json(state))))
            assert again == state
        GAME.apply(state, Deal())
    assert from_json(GAME.state_type(), json.loads(json.dumps(to_json(state)))) == state


def test_every_legal_bet_settles_for_every_coup_result() -> None:
    for jurisdiction, rules in RULES.items():
        for kind in rules.kinds:
            for p in range(10):
                for b in range(10):
                    returned, deduction = bet_return(rules, kind, Fraction(1000), p, b)
                    assert 0 <= returned <= 9000 and deduction >= 0, (jurisdiction, kind, p, b)
