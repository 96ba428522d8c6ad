"""Invariants of French roulette over random sessions (hypothesis)."""

from __future__ import annotations

import json
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tapete.catalog import get_game
from tapete.core.errors import TapeteError
from tapete.engine.events import Act, Bet, Outcome
from tapete.engine.serialize import from_json, to_json

GAME = get_game("roulette-french")
JURISDICTIONS = ["ES", "ES-IB", "ES-GA", "ES-AN"]
PAYS = {"straight": 35, "split": 17, "street": 11, "corner": 8, "six-line": 5, "column": 2, "dozen": 2,
        "two-columns": Fraction(1, 2), "two-dozens": Fraction(1, 2)}


def oracle_covers(kind: str, on: tuple[int, ...] | None) -> set[int]:
    """The cloth read independently of the engine's layout module."""
    reds = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}
    simple = {"red": reds, "black": set(range(1, 37)) - reds, "even": set(range(2, 37, 2)),
              "odd": set(range(1, 37, 2)), "low": set(range(1, 19)), "high": set(range(19, 37))}
    if kind in simple:
        return simple[kind]
    if kind in ("column", "two-columns"):
        return {n for c in on for n in range(c, 37, 3)}
    if kind in ("dozen", "two-dozens"):
        return {n for d in on for n in range(12 * (d - 1) + 1, 12 * d + 1)}
    return set(on)


def legal_bets(jurisdiction: str) -> list[tuple[str, tuple[int, ...] | None]]:
    state = GAME.open(jurisdiction, {"minimum": 100})
    return [(a.kind, t) for a in GAME.legal_actions(state) if a.verb == "bet" for t in a.targets]


@st.composite
def sessions(draw: st.DrawFn) -> tuple[str, list]:
    jurisdiction = draw(st.sampled_from(JURISDICTIONS))
    spots = legal_bets(jurisdiction)
    events: list = []
    n_bets = 0
    for _ in range(draw(st.integers(1, 5))):
        for _ in range(draw(st.integers(0, 4))):
            kind, on = draw(st.sampled_from(spots))
            n_bets += 1
            events.append(Bet(f"b{n_bets}", draw(st.sampled_from(["p1", "p2"])), kind,
                              draw(st.sampled_from([100, 150, 500, 1000, 2500])), on))
        events.append(Outcome("spin", draw(st.sampled_from([0, 0, 0, *range(37)])), draw(st.booleans()) and False))
        events.append(("choices", draw(st.lists(st.sampled_from(["prison", "half"]), min_size=8, max_size=8))))
    return jurisdiction, events


def play(jurisdiction: str, events: list, order_seed: int | None = None):
    """Replay a session; a bet the table refuses (over a spot's maximum with the player's earlier bets) is skipped."""
    state = GAME.open(jurisdiction, {"minimum": 100})
    pending_bets: list[Bet] = []
    for e in events:
        if isinstance(e, Bet):
            pending_bets.append(e)
            continue
        if pending_bets and order_seed is not None:
            random.Random(order_seed).shuffle(pending_bets)
        for b in pending_bets:
            try:
                state = GAME.step(state, b)
            except TapeteError as exc:
                assert exc.code == "over-maximum", exc
        pending_bets = []
        if isinstance(e, Outcome):
            state = GAME.step(state, e)
        else:
            choices = e[1]          # each bet's choice follows from its id, not from where it lies in the list
            for a in [a for a in GAME.legal_actions(state) if a.verb == "prison"]:
                verb = choices[int(a.bet[1:]) % len(choices)]
                if verb == "half" and not any(x.verb == "half" and x.bet == a.bet for x in GAME.legal_actions(state)):
                    verb = "prison"
                state = GAME.step(state, Act(verb, bet=a.bet))
    return state


@settings(max_examples=150, deadline=None)
@given(sessions())
def test_money_is_conserved(session) -> None:
    jurisdiction, events = session
    doc = GAME.settle(play(jurisdiction, events)).document()
    settled = [b for b in doc["bets"].values() if b["status"] != "pending"]
    assert doc["house"]["net"] == -sum(b["returned"] - b["staked"] for b in settled)
    placed = {e.id: e.amount for e in events if isinstance(e, Bet)}
    assert all(placed[k] == v["staked"] for k, v in doc["bets"].items())
    for b in doc["bets"].values():      # no bet returns more than a straight-up win, none less than nothing
        assert 0 <= b["returned"] <= 36 * b["staked"]


@settings(max_examples=100, deadline=None)
@given(sessions(), st.integers(0, 10_000))
def test_settlement_does_not_depend_on_bet_order(session, seed) -> None:
    jurisdiction, events = session
    # bets under every spot's maximum whatever their order: one player per bet
    events = [Bet(e.id, e.id, e.kind, e.amount, e.on) if isinstance(e, Bet) else e for e in events]
    a = GAME.settle(play(jurisdiction, events)).document()
    b = GAME.settle(play(jurisdiction, events, order_seed=seed)).document()
    assert a["bets"] == b["bets"] and a["house"] == b["house"]


@settings(max_examples=60, deadline=None)
@given(sessions(), st.integers(0, 50))
def test_state_survives_a_json_round_trip_mid_round(session, cut) -> None:
    jurisdiction, events = session
    events = [Bet(e.id, e.id, e.kind, e.amount, e.on) if isinstance(e, Bet) else e for e in events]
    cut = min(cut, len(events))
    state = play(jurisdiction, events[:cut])
    copy = from_json(GAME.state_type(), json.loads(json.dumps(to_json(state))))
    assert copy == state
    tail = [e for e in events[cut:] if isinstance(e, Bet | Outcome)]
    for e in tail:
        state, copy = GAME.step(state, e), GAME.step(copy, e)
    assert GAME.settle(state).document() == GAME.settle(copy).document()


def test_every_legal_bet_settles_for_every_outcome() -> None:
    for jurisdiction in JURISDICTIONS:
        table = GAME.open(jurisdiction, {"minimum": 100})
        for kind, on in legal_bets(jurisdiction):
            state = GAME.step(table, Bet("b", "p", kind, 200, on))
            total = Fraction(0)
            for n in range(37):
                result = GAME.settle(GAME.step(state, Outcome("spin", n))).bets["b"]
                covers = n in oracle_covers(kind, on)
                if kind in PAYS:
                    assert result.final == "settled"
                    assert result.returned == (200 * (1 + Fraction(PAYS[kind])) if covers else 0), (kind, on, n)
                elif n == 0:
                    assert result.final == "pending" and result.at_risk == 200
                else:
                    assert result.returned == (400 if covers else 0), (kind, n)
                total += result.returned
            if kind in PAYS:                 # every multiple bet returns 36/37 per unit (spec §1.3)
                assert total == 36 * 200, (kind, on)
