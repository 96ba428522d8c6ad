"""Boule: the nine numbers, the 5 that takes every simple chance, the limits, the layouts, the exact edges."""

from __future__ import annotations

import io
import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from tapete.analysis.edges import edges
from tapete.catalog import get_game
from tapete.cli import app
from tapete.core.errors import TapeteError
from tapete.engine.events import Act, Bet, Limits, Outcome, Void
from tapete.engine.serialize import from_json, to_json
from tapete.terminal import play_game
from tapete.terminal.boule import parse_line

GAME = get_game("boule")
ALL = ["ES", "ES-IB", "ES-GA", "ES-AN"]
# 001:344-346 read by hand: black 1 3 6 8, red 2 4 7 9; pasa above 5, falta below; 5 in none
ORACLE = {"red": {2, 4, 7, 9}, "black": {1, 3, 6, 8}, "even": {2, 4, 6, 8}, "odd": {1, 3, 7, 9},
          "low": {1, 2, 3, 4}, "high": {6, 7, 8, 9}}


def returned(kind: str, on: tuple | None, amount: int, n: int) -> int:
    if kind == "number":
        return 8 * amount if n == on[0] else 0
    return 2 * amount if n in ORACLE[kind] else 0


@pytest.mark.parametrize("jurisdiction", ALL)
def test_exact_edges_are_one_ninth(jurisdiction: str) -> None:
    found = edges(GAME, jurisdiction)
    assert {r.kind for r in found} == {"number", "red", "black", "even", "odd", "low", "high"}
    assert all(r.house_edge == Fraction(1, 9) and r.on is None for r in found)


def test_the_rules_that_affect_outcomes_are_the_same_in_the_four_catalogs() -> None:
    result = CliRunner().invoke(app, ["diff", "boule", "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["differences"] == []
    for j in ALL:
        assert GAME.rules[j].missing_sources() == []


def test_every_bet_for_every_number_and_the_5() -> None:
    for j in ALL:
        state = GAME.open(j, {"minimum": 100})
        for action in GAME.legal_actions(state):
            for on in action.targets:
                bet_state = GAME.step(state, Bet("b", "p", action.kind, 300, on))
                total = 0
                for n in range(1, 10):
                    r = GAME.settle(GAME.step(bet_state, Outcome("spin", n))).bets["b"]
                    assert r.returned == returned(action.kind, on, 300, n), (action.kind, on, n)
                    total += r.returned
                assert total == 8 * 300          # spec §3.3: every bet returns 8/9 per unit


def test_BO_13_maximum_bounds_and_defaults() -> None:
    state = GAME.open("ES", {"minimum": 100})
    assert (state.maximum_number, state.maximum_simple) == (10000, 50000)      # the largest the text allows
    for key, value, ok in (("maximum-number", 4000, True), ("maximum-number", 10000, True), ("maximum-number", 15000, False),
                           ("maximum-number", 3999, False), ("maximum-simple", 20000, True), ("maximum-simple", 30000, True),
                           ("maximum-simple", 19900, False), ("maximum-simple", 50100, False)):
        if ok:
            GAME.open("ES", {"minimum": 100, key: value})
        else:
            with pytest.raises(TapeteError) as err:
                GAME.open("ES", {"minimum": 100, key: value})
            assert err.value.code == "bad-table"


def test_BO_13_bounds_stay_on_the_authorised_minimum_with_a_doubled_layout() -> None:
    state = GAME.open("ES", {"minimum": 100, "layout-minima": [200, 100], "maximum-number": 4000})
    assert state.maximum_number == 4000 and state.layout_minima == [200, 100]


def test_BO_14_layouts_at_twice_the_minimum() -> None:
    state = GAME.open("ES", {"minimum": 100, "layout-minima": [200, 100]})
    with pytest.raises(TapeteError) as err:
        GAME.step(state, Bet("a", "p", "number", 100, (3,), {"layout": 1}))
    assert err.value.code == "under-minimum"
    GAME.step(state, Bet("b", "p", "number", 100, (3,), {"layout": 2}))
    GAME.step(state, Bet("c", "p", "number", 200, (3,), {"layout": 1}))
    with pytest.raises(TapeteError) as err:
        GAME.step(state, Bet("d", "p", "number", 200, (3,), {"layout": 3}))
    assert err.value.code == "bad-target"
    # both layouts at 2: valid only while another layout of the establishment keeps the authorised minimum
    GAME.open("ES", {"minimum": 100, "layout-minima": [200, 200]})
    with pytest.raises(TapeteError) as err:
        GAME.open("ES", {"minimum": 100, "layout-minima": [200, 200], "establishment-keeps-minimum": False})
    assert err.value.code == "bad-table"


def test_BO_15_maximum_per_player_across_layouts_unless_the_option_says_otherwise() -> None:
    table = {"minimum": 100, "maximum-number": 5000, "layout-minima": [100, 100]}
    state = GAME.step(GAME.open("ES", table), Bet("x1", "X", "number", 5000, (3,), {"layout": 1}))
    GAME.step(state, Bet("y1", "Y", "number", 5000, (3,), {"layout": 1}))            # another player: no cap together
    GAME.step(state, Bet("x2", "X", "number", 5000, (4,), {"layout": 1}))            # another number
    with pytest.raises(TapeteError) as err:
        GAME.step(state, Bet("x3", "X", "number", 100, (3,), {"layout": 2}))
    assert err.value.code == "over-maximum"
    per_layout = GAME.step(GAME.open("ES", {**table, "boule-max-aggregate-across-panos": False}),
                           Bet("x1", "X", "number", 5000, (3,), {"layout": 1}))
    GAME.step(per_layout, Bet("x2", "X", "number", 5000, (3,), {"layout": 2}))


def test_BO_16_and_the_inspectors_void() -> None:
    state = GAME.step(GAME.open("ES", {"minimum": 100}), Bet("b", "p", "red", 1000))
    voided = GAME.step(state, Void("ball-out"))
    with pytest.raises(TapeteError) as err:
        GAME.step(voided, Bet("late", "p", "red", 1000))
    assert err.value.code == "bet-closed"
    assert GAME.settle(voided).document()["bets"]["b"]["status"] == "void"
    assert GAME.settle(GAME.step(voided, Outcome("spin", 2))).bets["b"].returned == 2000


def test_no_verbs_and_no_limit_changes() -> None:
    state = GAME.step(GAME.open("ES", {"minimum": 100}), Bet("b", "p", "red", 1000))
    for event in (Act("prison", bet="b"), Limits({"minimum": 200})):
        with pytest.raises(TapeteError) as err:
            GAME.step(state, event)
        assert err.value.code == "illegal-action"


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(ALL), st.lists(st.tuples(st.sampled_from(["number", *ORACLE]), st.integers(1, 9),
                                                st.sampled_from([100, 250, 1000]), st.sampled_from(["p1", "p2"])),
                                      max_size=8), st.integers(1, 9), st.integers(0, 8))
def test_money_conserved_and_state_round_trip(jurisdiction, bets, n, cut) -> None:
    events = [Bet(f"b{i}", p, k, a, (x,) if k == "number" else None) for i, (k, x, a, p) in enumerate(bets)]
    events.append(Outcome("spin", n))
    state = GAME.open(jurisdiction, {"minimum": 100})
    for e in events[:cut]:
        state = GAME.step(state, e)
    copy = from_json(GAME.state_type(), json.loads(json.dumps(to_json(state))))
    assert copy == state
    for e in events[cut:]:
        state = GAME.step(state, e)
    doc = GAME.settle(state).document()
    assert doc["house"]["net"] == -sum(b["returned"] - b["staked"] for b in doc["bets"].values())
    for e in events[:-1]:
        assert doc["bets"][e.id]["returned"] == returned(e.kind, e.on, e.amount, n)


def test_play_boule_at_the_terminal() -> None:
    assert parse_line("7 5") == ("number", (7,), 500) and parse_line("pasa 10") == ("high", None, 1000)
    lines = iter(["help", "7 5", "rojo 10", "10 1", "negro 2", "", "", "quit"])
    out = io.StringIO()
    play_game(GAME, "ES-AN", minimum=100, balance=50_000, seed="00" * 32, console=Console(file=out, width=120),
              read=lambda prompt: next(lines))
    text = out.getvalue()
    assert "number 7: €5.00" in text and "does not fit the cloth" in text and "No more bets" in text
    assert "last:" in text and "There are no bets on the table" in text and "You leave with" in text
