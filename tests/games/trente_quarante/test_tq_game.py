"""Trente et quarante: rules data and its jurisdiction differences, the zero system shared with roulette, the red
card, invariants, and play at the terminal."""

from __future__ import annotations

import io
import json
import random
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from tapete.catalog import get_game
from tapete.conformance.document import settle_document
from tapete.core.rng import TableRng
from tapete.engine.events import Act, Bet, Deal
from tapete.engine.serialize import from_json, to_json
from tapete.games.roulette.rules import FRENCH_RULES
from tapete.games.trente_quarante import TQ_RULES, winners
from tapete.terminal import play_game

GAME = get_game("trente-quarante")
ALL = ("ES", "ES-IB", "ES-GA", "ES-AN")
TIE31 = ["KS", "QS", "JS", "AS", "9H", "9D", "9C", "4H"]


def test_rules_cite_their_sources_and_borrow_roulette() -> None:
    for j, rules in TQ_RULES.items():
        assert rules.missing_sources() == []
        assert rules.prison_lock_basis == FRENCH_RULES[j].prison_lock_basis      # the same zero system
        assert FRENCH_RULES[j].sources["prison_lock_basis"] in rules.sources["prison_lock_basis"]
        assert (rules.maximum_multiple, rules.red_card_reserve, rules.insurance_premium) == (1000, 5, Fraction(1, 100))
    assert [TQ_RULES[j].insurance_covers for j in ALL] == ["31-tie", "31-tie", "31-tie", "any-tie"]
    assert [TQ_RULES[j].prison_lock_basis for j in ALL] == ["value", "value", "value", "held"]


def test_winners() -> None:
    assert winners(32, 34, first_red=False) == ("black", "color")
    assert winners(34, 32, first_red=False) == ("red", "inverse")
    assert winners(32, 36, first_red=True) == ("black", "inverse")
    assert winners(31, 31, first_red=True) is None


def test_TQ_11_red_card_in_a_live_shoe() -> None:
    state = GAME.open("ES", {"minimum": 500})
    GAME.live_shoe(state, TableRng(b"\x02" * 32))
    assert state.shoe.cut_index == 307 and state.shoe.position == 0
    state.shoe.position = 300          # near the end: the red card comes out during a coup
    state = GAME.step(state, Bet("n", "p", "black", 1000))
    state = GAME.step(state, Deal())
    assert state.shoe_ended and state.rounds == 0 and state.bets[0].phase == "riding"
    assert GAME.settle(state).document()["bets"]["n"]["status"] == "void"


def test_full_shoe_document_places_the_red_card_five_from_the_end() -> None:
    shoe = [r + s for r in "A23456789TJQK" for s in "SHDC"] * 6
    state = GAME.open("ES", {"minimum": 500}, shoe)
    assert state.shoe.cut_index == 307


def test_prison_survives_a_red_card_void() -> None:
    doc = {"game": "trente-quarante", "jurisdiction": "ES", "table": {"minimum": 500, "cut-card": 10},
           "shoe": TIE31 + ["TS", "TC", "9H"], "events": [{"bet": {"id": "n", "player": "p", "kind": "black", "amount": 1000}},
                                                         {"deal": {}}, {"act": {"bet": "n", "do": "prison"}}, {"deal": {}}]}
    answer = settle_document(doc)
    assert answer["bets"]["n"] == {"status": "pending", "staked": 1000, "returned": 0, "at_risk": 1000}


def test_state_round_trips_mid_coup() -> None:
    state = GAME.open("ES-AN", {"minimum": 500}, TIE31 + TIE31)
    for e in (Bet("n", "p", "black", 1000, None, {"insured": True}), Bet("r", "p", "red", 1000), Deal(),
              Act("prison", bet="r"), Deal()):
        state = GAME.step(state, e)
        assert from_json(GAME.state_type(), json.loads(json.dumps(to_json(state)))) == state


SIX_DECKS = [r + s for r in "A23456789TJQK" for s in "SHDC"] * 6


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), j=st.sampled_from(ALL), coups=st.integers(1, 4),
       choices=st.lists(st.sampled_from(["prison", "half"]), max_size=6),
       insured=st.lists(st.booleans(), min_size=4, max_size=4))
def test_money_is_conserved(seed, j, coups, choices, insured) -> None:
    shoe = random.Random(seed).sample(SIX_DECKS, 80)
    state = GAME.open(j, {"minimum": 500}, shoe)
    for k, kind in enumerate(("black", "red", "color", "inverse")):
        state = GAME.step(state, Bet(kind, "p", kind, 1000 + 100 * k, None, {"insured": insured[k]}))
    choice = iter(choices)
    for _ in range(coups):
        state = GAME.step(state, Deal())
        for b in state.bets:
            if b.phase == "choice":
                verb = next(choice, "prison")
                if verb == "half" and b.locked:
                    verb = "prison"
                state = GAME.step(state, Act(verb, bet=b.id))
    doc = GAME.settle(GAME.finish(state)).document()
    settled = [b for b in doc["bets"].values() if b["status"] != "pending"]
    assert doc["house"]["net"] == -sum(b["returned"] - b["staked"] for b in settled)


def test_play_a_session_at_the_terminal() -> None:
    lines = iter(["negro 10", "color 5 insured", "rojo 0.5", "verde 3", "deal", "p", "p", "p", "rojo 20", "", "p", "p",
                  "bets", "quit"])
    out = io.StringIO()
    play_game(GAME, "ES", minimum=100, balance=50_000, seed="11" * 32, console=Console(file=out, width=120),
              read=lambda prompt: next(lines))
    text = out.getvalue()
    assert "Croupier: “black" in text and ("you win" in text or "you lose" in text or "31 after 31" in text)
    assert "under the table's minimum: at least €1.00" in text and "For example: black 10" in text
    assert "You leave with" in text
