"""Invariants of American roulette and the abreviada over random sessions (hypothesis), checked against an
independent reading of the cloth and of ES-IB's announced bets."""

from __future__ import annotations

import json
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tapete.catalog import get_game
from tapete.engine.events import Bet, Outcome
from tapete.engine.serialize import from_json, to_json

GAME = get_game("roulette-american")
SHORT = get_game("roulette-french-short")
JURISDICTIONS = ["ES", "ES-IB", "ES-GA", "ES-AN"]
REDS = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}
PAYS = {"straight": 35, "split": 17, "street": 11, "corner": 8, "six-line": 5, "column": 2, "dozen": 2,
        "two-columns": Fraction(1, 2), "two-dozens": Fraction(1, 2)}
# 000:244-258 written out by hand: (numbers covered, chips, pays) per component
ORACLE_SECTORS = {
    "zero-sector": [({0, 2, 3}, 2, 11), ({4, 7}, 1, 17), ({12, 15}, 1, 17), ({18, 21}, 1, 17), ({19, 22}, 1, 17),
                    ({25, 26, 28, 29}, 2, 8), ({32, 35}, 1, 17)],
    "third": [({5, 8}, 1, 17), ({10, 11}, 1, 17), ({13, 16}, 1, 17), ({23, 24}, 1, 17), ({27, 30}, 1, 17), ({33, 36}, 1, 17)],
    "orphans": [({1}, 1, 35), ({6, 9}, 1, 17), ({14, 17}, 1, 17), ({17, 20}, 1, 17), ({31, 34}, 1, 17)],
}
WHEEL = [0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33, 1, 20, 14, 31, 9, 22,
         18, 29, 7, 28, 12, 35, 3, 26]


def oracle_return(kind: str, on: tuple | None, amount: int, n: int) -> Fraction:
    """What a bet returns on n, read from the spec without the engine's layout module."""
    simple = {"red": REDS, "black": set(range(1, 37)) - REDS, "even": set(range(2, 37, 2)),
              "odd": set(range(1, 37, 2)), "low": set(range(1, 19)), "high": set(range(19, 37))}
    if kind in simple:
        if n == 0:
            return Fraction(amount, 2)
        return Fraction(2 * amount) if n in simple[kind] else Fraction(0)
    if kind == "neighbours":
        i = WHEEL.index(on[0])
        parts = [({WHEEL[(i + k) % 37]}, 1, 35) for k in range(-2, 3)]
        return sum((Fraction(c * amount * (1 + p)) for s, c, p in parts if n in s), Fraction(0))
    if kind in ORACLE_SECTORS:
        return sum((Fraction(c * amount * (1 + p)) for s, c, p in ORACLE_SECTORS[kind] if n in s), Fraction(0))
    if kind in ("column", "two-columns"):
        covers = {x for c in on for x in range(c, 37, 3)}
    elif kind in ("dozen", "two-dozens"):
        covers = {x for d in on for x in range(12 * (d - 1) + 1, 12 * d + 1)}
    else:
        covers = set(on)
    return amount * (1 + Fraction(PAYS[kind])) if n in covers else Fraction(0)


def legal_bets(game, jurisdiction: str) -> list[tuple[str, tuple | None]]:
    state = game.open(jurisdiction, {"minimum": 100})
    return [(a.kind, t) for a in game.legal_actions(state) if a.verb == "bet" for t in a.targets]


def test_every_legal_bet_settles_for_every_outcome_as_the_oracle_says() -> None:
    for jurisdiction in JURISDICTIONS:
        table = GAME.open(jurisdiction, {"minimum": 100})
        for kind, on in legal_bets(GAME, jurisdiction):
            state = GAME.step(table, Bet("b", "p", kind, 200, on))
            total = Fraction(0)
            for n in range(37):
                result = GAME.settle(GAME.step(state, Outcome("spin", n))).bets["b"]
                assert result.final == "settled"
                assert result.returned == oracle_return(kind, on, 200, n), (jurisdiction, kind, on, n)
                total += result.returned
            staked = GAME.settle(state).bets["b"].staked
            # every bet returns 36/37 per unit staked, a simple chance 36.5/37 (spec §1.3, §2.6)
            assert total == staked * (Fraction(73, 2) if kind in ("red", "black", "even", "odd", "low", "high") else 36)


def test_the_abreviada_takes_exactly_the_inside_bets_and_settles_them_as_french_roulette() -> None:
    french = get_game("roulette-french")
    for kind, on in legal_bets(SHORT, "ES-AN"):
        assert kind in ("straight", "split", "street", "corner", "six-line")
        for n in (0, 2, 17, 36):
            a = SHORT.settle(SHORT.step(SHORT.step(SHORT.open("ES-AN", {"minimum": 100}), Bet("b", "p", kind, 300, on)),
                                        Outcome("spin", n))).bets["b"]
            b = french.settle(french.step(french.step(french.open("ES-AN", {"minimum": 100}), Bet("b", "p", kind, 300, on)),
                                          Outcome("spin", n))).bets["b"]
            assert a == b


@st.composite
def sessions(draw: st.DrawFn) -> tuple[str, list]:
    jurisdiction = draw(st.sampled_from(JURISDICTIONS))
    spots = legal_bets(GAME, jurisdiction)
    events: list = []
    n_bets = 0
    for _ in range(draw(st.integers(1, 4))):
        for _ in range(draw(st.integers(0, 4))):
            kind, on = draw(st.sampled_from(spots))
            n_bets += 1
            events.append(Bet(f"b{n_bets}", draw(st.sampled_from(["p1", "p2"])), kind,
                              draw(st.sampled_from([200, 400, 1000])), on))
        events.append(Outcome("spin", draw(st.sampled_from([0, 0, *range(37)]))))
    return jurisdiction, events


def play(jurisdiction: str, events: list, order_seed: int | None = None):
    state = GAME.open(jurisdiction, {"minimum": 100})
    pending: list[Bet] = []
    for e in events:
        if isinstance(e, Bet):
            pending.append(e)
            continue
        if order_seed is not None:
            random.Random(order_seed).shuffle(pending)
        for b in pending:
            state = GAME.step(state, b)
        pending = []
        state = GAME.step(state, e)
    return state


@settings(max_examples=80, deadline=None)
@given(sessions(), st.integers(0, 10_000))
def test_money_is_conserved_and_order_does_not_matter(session, seed) -> None:
    jurisdiction, events = session
    doc = GAME.settle(play(jurisdiction, events)).document()
    assert doc["house"]["net"] == -sum(b["returned"] - b["staked"] for b in doc["bets"].values())
    assert all(b["status"] != "pending" for b in doc["bets"].values())          # no prison in American roulette
    shuffled = GAME.settle(play(jurisdiction, events, order_seed=seed)).document()
    assert shuffled["bets"] == doc["bets"] and shuffled["house"] == doc["house"]


@settings(max_examples=50, deadline=None)
@given(sessions(), st.integers(0, 30))
def test_state_survives_a_json_round_trip_mid_round(session, cut) -> None:
    jurisdiction, events = session
    cut = min(cut, len(events))
    state = play(jurisdiction, events[:cut])
    copy = from_json(GAME.state_type(), json.loads(json.dumps(to_json(state))))
    assert copy == state
    for e in events[cut:]:
        state, copy = GAME.step(state, e), GAME.step(copy, e)
    assert GAME.settle(state).document() == GAME.settle(copy).document()
