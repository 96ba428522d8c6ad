"""The wheel of fortune: 54 cells, the per-symbol edges, void spins per jurisdiction, the payment order."""

from __future__ import annotations

import io
import json
from collections import Counter
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
from tapete.engine.events import Bet, Close, Limits, Outcome, Void
from tapete.engine.serialize import from_json, to_json
from tapete.games.wheel_of_fortune import CELLS, WHEEL_RULES, WheelBet, payment_sequence, symbol_key
from tapete.terminal import play_game
from tapete.terminal.wheel import parse_line

GAME = get_game("wheel-of-fortune")
REG = ["ES-IB", "ES-GA", "ES-AN"]
# the spec's sanity table, §4.3: the house edge of each box (1 - return per unit)
EDGES = {24: Fraction(1, 9), 15: Fraction(1, 6), 7: Fraction(2, 9), 4: Fraction(5, 27), 2: Fraction(2, 9),
         "joker-red": Fraction(4, 27), "joker-black": Fraction(4, 27)}
PAYS = {24: 1, 15: 2, 7: 5, 4: 10, 2: 20, "joker-red": 45, "joker-black": 45}


@pytest.mark.parametrize("jurisdiction", REG)
def test_exact_edges_per_symbol(jurisdiction: str) -> None:
    found = {(r.on[0] if r.on else r.kind): r.house_edge for r in edges(GAME, jurisdiction)}
    assert found == EDGES


def test_WF_17_not_in_the_national_catalog() -> None:
    with pytest.raises(TapeteError) as err:
        GAME.open("ES", {"minimum": 100})
    assert err.value.code == "game-not-in-jurisdiction"
    assert list(GAME.rules) == REG


def test_the_54_cells() -> None:
    counts = Counter(symbol_key(c) for c in CELLS)
    for rules in WHEEL_RULES.values():
        assert dict(counts) == dict(rules.cells) and sum(rules.cells.values()) == 54
    state = GAME.step(GAME.open("ES-IB", {"minimum": 100}), Bet("b", "p", "number", 100, (24,)))
    assert sum(p for _, p in GAME.chance(state)) == 1


@pytest.mark.parametrize("jurisdiction", REG)
def test_every_bet_on_every_symbol(jurisdiction: str) -> None:
    state = GAME.open(jurisdiction, {"minimum": 100})
    for action in GAME.legal_actions(state):
        for on in action.targets:
            mine = on[0] if on else action.kind
            placed = GAME.step(state, Bet("b", "p", action.kind, 300, on))
            for symbol in PAYS:
                r = GAME.settle(GAME.step(placed, Outcome("spin", symbol))).bets["b"]
                assert r.returned == (300 * (1 + PAYS[mine]) if symbol == mine else 0)


def test_WF_10_to_12_andalusian_voids_keep_the_bets_and_reopen_betting() -> None:
    for reason in ("few-turns", "pin", "obstruction", "inspector"):
        state = GAME.step(GAME.step(GAME.open("ES-AN", {"minimum": 100}), Bet("b", "p", "number", 1000, (7,))), Close())
        state = GAME.step(state, Void(reason))
        assert GAME.settle(state).bets["b"].final == "void" and state.rounds == 0
        state = GAME.step(state, Bet("c", "p", "number", 1000, (7,)))          # the cycle restarts
        done = GAME.settle(GAME.step(state, Outcome("spin", 7)))
        assert done.bets["b"].returned == 6000 and done.bets["c"].returned == 6000 and done.rounds == 1


@pytest.mark.parametrize("jurisdiction", ["ES-IB", "ES-GA"])
def test_WF_13_no_automatic_voids_in_balearic_and_galician_texts(jurisdiction: str) -> None:
    state = GAME.step(GAME.step(GAME.open(jurisdiction, {"minimum": 100}), Bet("b", "p", "number", 1000, (7,))), Close())
    for reason in ("few-turns", "pin", "obstruction"):
        with pytest.raises(TapeteError) as err:
            GAME.step(state, Void(reason))
        assert err.value.code == "illegal-action"
    assert GAME.settle(GAME.step(state, Outcome("spin", 7))).bets["b"].returned == 6000
    assert GAME.settle(GAME.step(state, Void("inspector"))).bets["b"].final == "void"


def test_WF_15_no_withdrawal_after_no_va_mas_and_no_bet_during_the_payout() -> None:
    state = GAME.step(GAME.step(GAME.open("ES-AN", {"minimum": 100}), Bet("b", "p", "number", 1000, (7,))), Close())
    with pytest.raises(TapeteError) as err:
        GAME.step(state, Bet("late", "p", "number", 1000, (7,)))
    assert err.value.code == "bet-closed"
    # the payout is part of the spin event: the next bet the engine sees belongs to the next round
    after = GAME.step(state, Outcome("spin", 7))
    assert after.log[-1].startswith("pays b") and all(b.phase == "done" for b in after.bets)
    assert WHEEL_RULES["ES-AN"].no_bets_during_payout and WHEEL_RULES["ES-AN"].bets_locked_after_close


def test_WF_16_andalusian_payment_order_smallest_prize_first() -> None:
    bets = [WheelBet("P1", "P1", "number", "24", 5000, "done", Fraction(10000)),
            WheelBet("P2", "P2", "joker-red", "joker-red", 100, "done", Fraction(4600)),
            WheelBet("P3", "P3", "number", "2", 500, "done", Fraction(10500))]
    order = payment_sequence(WHEEL_RULES["ES-AN"], bets)
    assert [b.id for b in order] == ["P1", "P3", "P2"]
    assert [int(b.returned - b.amount) for b in order] == [5000, 10000, 4500]        # 50, 100, 45 €
    assert [b.id for b in payment_sequence(WHEEL_RULES["ES-IB"], bets)] == ["P1", "P2", "P3"]


def test_jurisdiction_differences_in_the_rules_data() -> None:
    result = CliRunner().invoke(app, ["diff", "wheel-of-fortune", "--json"])
    rows = {d["rule"]: d for d in json.loads(result.stdout)["differences"]}
    assert {"joker_names", "limits_set_by", "second_push", "minimum_turns", "void_causes", "payment_order",
            "bets_locked_after_close", "no_bets_during_payout"} <= set(rows)
    assert rows["minimum_turns"]["ES-AN"]["value"] == 4 and rows["minimum_turns"]["ES-IB"]["value"] == 0
    assert "cells" not in rows and "payouts" not in rows


def test_limits() -> None:
    state = GAME.open("ES-GA", {"minimum": 100, "maximum": 1000})
    with pytest.raises(TapeteError) as err:
        GAME.step(state, Bet("b", "p", "number", 1100, (2,)))
    assert err.value.code == "over-maximum"
    with pytest.raises(TapeteError) as err:
        GAME.open("ES-GA", {"minimum": 100, "maximum": 50})
    assert err.value.code == "bad-table"
    with pytest.raises(TapeteError) as err:
        GAME.step(state, Limits({"maximum": 2000}))
    assert err.value.code == "illegal-action"


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(REG), st.lists(st.tuples(st.sampled_from(list(PAYS)), st.sampled_from([100, 300, 1000])),
                                      max_size=8), st.sampled_from(list(PAYS)), st.integers(0, 9))
def test_money_conserved_and_state_round_trip(jurisdiction, bets, symbol, cut) -> None:
    events = [Bet(f"b{i}", "p", "number" if isinstance(s, int) else s, a, (s,) if isinstance(s, int) else None)
              for i, (s, a) in enumerate(bets)] + [Outcome("spin", symbol)]
    state = GAME.open(jurisdiction, {"minimum": 100})
    for e in events[:cut]:
        state = GAME.step(state, e)
    assert from_json(GAME.state_type(), json.loads(json.dumps(to_json(state)))) == state
    for e in events[cut:]:
        state = GAME.step(state, e)
    doc = GAME.settle(state).document()
    assert doc["house"]["net"] == -sum(b["returned"] - b["staked"] for b in doc["bets"].values())
    for (s, a), e in zip(bets, events, strict=False):
        assert doc["bets"][e.id]["returned"] == (a * (1 + PAYS[s]) if s == symbol else 0)


def test_play_the_wheel_at_the_terminal() -> None:
    assert parse_line("24 5") == ("number", (24,), 500) and parse_line("jr 1") == ("joker-red", None, 100)
    lines = iter(["help", "24 5", "jb 1", "3 1", "", "bets", "", "quit"])
    out = io.StringIO()
    play_game(GAME, "ES-AN", minimum=100, balance=50_000, seed="00" * 32, console=Console(file=out, width=120),
              read=lambda prompt: next(lines))
    text = out.getvalue()
    assert "figura 2" in text and "does not fit the cloth" in text and "second push" in text
    assert "last:" in text and "wheel:" in text and "You leave with" in text
