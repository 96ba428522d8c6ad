"""Invariants of circle poker over random hands driven only by `legal_actions`: chips are conserved, nobody wins
more than his all-in allows, every hand ends, illegal actions are refused, and states survive a JSON round trip."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapete.catalog import get_game
from tapete.core.errors import TapeteError
from tapete.engine.events import Act, Bet, Deal
from tapete.engine.serialize import from_json, to_json
from tapete.games.poker.circle import VARIANTS, CircleState

IDS = list(VARIANTS)
DECKS = {52: [r + s for r in "23456789TJQKA" for s in "SHDC"], 28: [r + s for r in "89TJQKA" for s in "SHDC"]}
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _table(game_id: str, structure: str, forced: str, stacks: list[int], j: str) -> dict:
    n = len(stacks)
    if game_id == "poker-sintetico":
        seats = [{"seat": k + 1, "player": f"P{k}", "stack": s} for k, s in enumerate(stacks)]
        structure = "no-limit"
        forced = "ante"
    else:
        seats = [{"seat": n - k, "player": f"P{k}", "stack": s} for k, s in enumerate(stacks)]
    if game_id in ("draw-poker", "seven-stud", "five-stud"):
        forced = "ante"
    ante = 100 if j == "ES-AN" else 200
    return {"minimum": 200, "structure": structure, "forced": forced, "ante": ante, "rake": 5 if j == "ES-AN" else 3, "seats": seats,
            "button": 1, "chip": 1}


@st.composite
def hands(draw: st.DrawFn) -> tuple:
    game_id = draw(st.sampled_from(IDS))
    j = draw(st.sampled_from(["ES-AN", "ES-IB"])) if game_id == "poker-sintetico" else "ES-AN"
    n = draw(st.integers(2, 6 if game_id != "poker-sintetico" else 8))
    stacks = draw(st.lists(st.integers(150, 6000), min_size=n, max_size=n))
    structure = draw(st.sampled_from(["fixed", "pot-limit", "no-limit"]))
    forced = draw(st.sampled_from(["ante", "blinds"]))
    deck = DECKS[28 if game_id == "poker-sintetico" else 52]
    shoe = draw(st.permutations(deck))
    return game_id, j, stacks, structure, forced, shoe


def _forced(table: dict, n: int) -> list[int]:
    if table["forced"] == "ante":
        return [table["ante"]] * n
    return [table["minimum"] // 2, table["minimum"]] + [0] * (n - 2)


def _choose(data: st.DataObject, game, state: CircleState) -> Act:
    actions = game.legal_actions(state)
    action = data.draw(st.sampled_from(actions))
    fields: dict = {}
    if action.verb in ("bet", "raise"):
        if action.targets:
            fields["amount"] = data.draw(st.sampled_from(list(action.targets)))
        else:
            fields["amount"] = data.draw(st.integers(action.minimum, action.maximum))
    if action.verb == "draw":
        hand = state.hand
        i = hand.betting.index(action.bet)
        fields["cards"] = data.draw(st.lists(st.sampled_from(hand.holes[i]), unique=True, max_size=5))
    return Act(action.verb, bet=action.bet, fields=fields)


def _play(data: st.DataObject, case: tuple, *, round_trip: bool = False):
    game_id, j, stacks, structure, forced, shoe = case
    game = get_game(game_id)
    table = _table(game_id, structure, forced, stacks, j)
    state = game.open(j, table, shoe)
    for k, amount in enumerate(_forced(table, len(stacks))):
        state = game.step(state, Bet(f"h{k}", f"P{k}", "hand", amount))
    state = game.step(state, Deal())
    total = sum(stacks)
    steps = deals = 0
    while True:
        while state.hand.phase != "over":
            b = state.hand.betting
            assert sum(s.stack for s in b.seats) + b.pot() == total
            if round_trip:
                again = from_json(CircleState, json.loads(json.dumps(to_json(state))))
                assert again == state
            state = game.step(state, _choose(data, game, state))
            steps += 1
            assert steps < 500
        if not state.hand.carry or deals == 5:
            return game, state, total
        deals += 1    # draw: a blank hand or a false open waits for the next deal, from a fresh deck
        state.shoe = state.shoe[:state.pos] + data.draw(st.permutations(DECKS[52]))
        state = game.step(state, Deal())


@SETTINGS
@given(case=hands(), data=st.data())
def test_chips_are_conserved_and_every_hand_ends(case: tuple, data: st.DataObject) -> None:
    """Pots + stacks + rake stay constant, and the hand ends with a showdown or a single winner."""
    game, state, total = _play(data, case)
    settlement = game.settle(game.finish(state))
    if state.hand.carry:      # still waiting after five blank deals: the chips are in the waiting pot
        assert sum(state.stacks.values()) + state.hand.betting.pot() == total
        assert all(r.final == "pending" for r in settlement.bets.values())
        return
    assert state.rounds == 1
    assert sum(state.stacks.values()) + state.commission == total
    returned = sum(r.returned for r in settlement.bets.values())
    staked = sum(r.staked for r in settlement.bets.values())
    assert staked - returned == state.commission


@SETTINGS
@given(case=hands(), data=st.data())
def test_nobody_wins_more_than_his_all_in_allows(case: tuple, data: st.DataObject) -> None:
    """A player can win from each other player at most what he himself put in (R-SIDEPOTS) — plus the chips a
    false opener forfeits whole (003:4956-4962: all his chips stay in the pot) and, in draw, a pot that waited for
    this deal (003:4863-4866)."""
    game, state, _ = _play(data, case)
    settlement = game.settle(game.finish(state))
    staked = {k: r.staked for k, r in settlement.bets.items()}
    hand = state.hand
    forfeit = hand.deals > 1 or any(s.state == "dead" for s in hand.betting.seats)
    dead = {s.bet for s in hand.betting.seats if forfeit and s.state in ("dead", "folded")}
    for k, r in settlement.bets.items():
        cap = sum(min(s, staked[k]) for s in staked.values())
        cap += sum(max(0, staked[j] - staked[k]) for j in dead)
        assert r.returned <= cap


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=hands(), data=st.data())
def test_state_round_trips_mid_hand(case: tuple, data: st.DataObject) -> None:
    _play(data, case, round_trip=True)


@SETTINGS
@given(case=hands(), data=st.data())
def test_illegal_actions_are_refused(case: tuple, data: st.DataObject) -> None:
    """A raise under the minimum, a bet beyond the stack, an act out of turn, a draw of six: error documents."""
    game_id, j, stacks, structure, forced, shoe = case
    game = get_game(game_id)
    table = _table(game_id, structure, forced, stacks, j)
    state = game.open(j, table, shoe)
    for k, amount in enumerate(_forced(table, len(stacks))):
        state = game.step(state, Bet(f"h{k}", f"P{k}", "hand", amount))
    state = game.step(state, Deal())
    hand = state.hand
    if hand.phase != "bet":
        return
    b = hand.betting
    due = b.seats[b.to_act]
    with pytest.raises(TapeteError) as err:
        game.step(state, Act("bet" if b.highest == 0 else "raise", bet=due.bet,
                             fields={"amount": due.street + due.stack + 1}))
    assert err.value.code == "illegal-action"
    others = [s for s in b.seats if s.bet != due.bet and s.state == "in"]
    if others:
        with pytest.raises(TapeteError) as err:
            game.step(state, Act("check", bet=others[0].bet))
        assert err.value.code == "out-of-turn"
    acts = {a.verb: a for a in game.legal_actions(state)}
    if "raise" in acts and structure != "fixed" and acts["raise"].minimum > b.highest + 1:
        low = acts["raise"].minimum - 1
        if low < due.street + due.stack:
            with pytest.raises(TapeteError) as err:
                game.step(state, Act("raise", bet=due.bet, fields={"amount": low}))
            assert err.value.code == "illegal-action"
    if game_id == "draw-poker":
        while state.hand.phase == "bet":
            opts = {a.verb: a for a in game.legal_actions(state)}
            verb = "bet" if "bet" in opts and state.hand.betting.round == 1 else "call" if "call" in opts else "check"
            fields = {"amount": opts["bet"].minimum} if verb == "bet" else {}
            state = game.step(state, Act(verb, bet=opts[verb].bet, fields=fields))
        if state.hand.phase == "draw":
            i = state.hand.draw_queue[0]
            bet_id = state.hand.betting.seats[i].bet
            with pytest.raises(TapeteError) as err:
                game.step(state, Act("draw", bet=bet_id, fields={"cards": state.hand.holes[i] + ["XX"]}))
            assert err.value.code == "illegal-action"
