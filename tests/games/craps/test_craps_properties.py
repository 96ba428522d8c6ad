"""Invariants of craps over random sessions (hypothesis), checked against an oracle written from the spec.

A session is windows of legal bets and removals (drawn from `legal_actions`), each closed by a roll or a
void roll. The oracle decides every bet from the rolls that followed it, with its own tables; the engine
must agree to the exact fraction. Also: money conserved in the document, bets of a window settle the same
in any order, the state survives a JSON round trip mid-session, and every legal table settles every roll.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from tapete.catalog import get_game
from tapete.engine.events import Act, Bet, Outcome, Void
from tapete.engine.serialize import from_json, to_json

GAME = get_game("craps")
TABLE = {"minimum": 100, "maximum": 20000}
DICE = [(a, b) for a in range(1, 7) for b in range(1, 7)]
ONE_ROLL = {"field": {2: 2, 3: 1, 4: 1, 9: 1, 10: 1, 11: 1, 12: 2}, "under-7": {t: 1 for t in range(2, 7)},
            "over-7": {t: 1 for t in range(8, 13)}, "any-seven": {7: 4}, "eleven": {11: 15},
            "any-craps": {2: 7, 3: 7, 12: 7}, "craps-2": {2: 30}, "craps-3": {3: 15}, "craps-12": {12: 30},
            "horn": {2: 4, 3: 4, 11: 4, 12: 4}}
HARD = {4: 7, 6: 9, 8: 9, 10: 7}
RIGHT_ODDS = {4: F(2), 5: F(3, 2), 6: F(6, 5), 8: F(6, 5), 9: F(3, 2), 10: F(2)}
PLACE = {4: F(9, 5), 5: F(7, 5), 6: F(7, 6), 8: F(7, 6), 9: F(7, 5), 10: F(9, 5)}
LOSE = {4: F(5, 11), 5: F(5, 8), 6: F(4, 5), 8: F(4, 5), 9: F(5, 8), 10: F(5, 11)}


def line_fate(kind: str, rolls: list[tuple[int, int]]) -> tuple[int | None, int | None]:
    """(index of the deciding roll, +1 won / -1 lost) of a line or come bet, and its number."""
    right, number = kind in ("pass", "come"), None
    for i, (a, b) in enumerate(rolls):
        t = a + b
        if number is None:
            if t in (7, 11):
                return i, (1 if right else -1)
            if t in (2, 3, 12):
                if t == 12 and not right:
                    continue
                return i, (-1 if right else 1)
            number = t
        elif t in (number, 7):
            return i, (1 if (t == number) == right else -1)
    return None, None


def oracle(kind: str, on: tuple | None, amount: int, rolls: list[tuple[int, int]], parent: tuple | None) -> F | None:
    """Returned by a bet given the valid rolls after it was placed (None: still riding)."""
    if kind in ONE_ROLL:
        if not rolls:
            return None
        rate = ONE_ROLL[kind].get(sum(rolls[0]))
        return F(amount * (1 + rate)) if rate else F(0)
    if kind == "odds":
        pkind, pnumber, prolls = parent
        i, sign = line_fate(pkind, prolls)
        if i is None:
            return None
        rate = RIGHT_ODDS[pnumber] if pkind in ("pass", "come") else 1 / RIGHT_ODDS[pnumber]
        return amount * (1 + rate) if sign > 0 else F(0)
    if kind in ("pass", "dont-pass", "come", "dont-come"):
        i, sign = line_fate(kind, rolls)
        return None if i is None else F(2 * amount if sign > 0 else 0)
    for a, b in rolls:
        t = a + b
        if kind in ("big-6", "big-8"):
            if t == int(kind[-1]):
                return F(2 * amount)
            if t == 7:
                return F(0)
        elif kind == "hardway":
            if t == on[0] and a == b:
                return F(amount * (1 + HARD[on[0]]))
            if t in (7, on[0]):
                return F(0)
        elif kind == "place":
            if t == on[0]:
                return amount * (1 + PLACE[t])
            if t == 7:
                return F(0)
        elif kind == "place-to-lose":
            if t == 7:
                return amount * (1 + LOSE[on[0]])
            if t == on[0]:
                return F(0)
    return None


@st.composite
def sessions(draw: st.DrawFn) -> tuple[str, list[list]]:
    """Windows of events: bets and removals legal at that moment, then a roll or a void."""
    jurisdiction = draw(st.sampled_from(["ES", "ES-IB", "ES-GA", "ES-AN"]))
    state = GAME.open(jurisdiction, TABLE)
    windows: list[list] = []
    count = 0
    for _ in range(draw(st.integers(4, 30))):
        window: list = []
        for _ in range(draw(st.integers(0, 4))):
            actions = GAME.legal_actions(state)
            if not actions:
                break
            groups: dict[tuple, list] = {}
            for a in actions:      # a kind first, then its target: line bets and odds come up often
                groups.setdefault((a.verb, a.kind), []).append(a)
            action = draw(st.sampled_from(groups[draw(st.sampled_from(sorted(groups, key=str)))]))
            if action.verb == "remove":
                event = Act("remove", bet=action.bet)
            else:
                on = action.targets[0] if action.targets else None
                if action.kind == "odds":
                    parent = next(b for b in state.bets if b.id == action.bet)
                    player, on, already = parent.player, (parent.id,), 0
                else:             # the maximum is per player and spot (docs/rulings.md#craps-maximum-scope)
                    player = draw(st.sampled_from(["p1", "p2"]))
                    already = sum(b.amount for b in state.bets if b.player == player and b.kind == action.kind
                                  and b.parent is None and (b.number,) == (on or (None,)))
                top = min(action.maximum - already, 3000)
                if top < action.minimum:
                    continue
                amount = draw(st.sampled_from(sorted({action.minimum, 120, 300, 550, 1000, top})))
                count += 1
                event = Bet(f"b{count}", player, action.kind, min(amount, top), on)
            state = GAME.step(state, event)
            window.append(event)
        if draw(st.integers(0, 9)) == 0:
            end = Void(draw(st.sampled_from(["slid", "off-table", "cocked", "on-chip"])))
        else:
            end = Outcome("roll", list(draw(st.sampled_from(DICE))))
        state = GAME.step(state, end)
        window.append(end)
        windows.append(window)
    return jurisdiction, windows


def run(jurisdiction: str, windows: list[list], shuffle: int | None = None):
    state = GAME.open(jurisdiction, TABLE)
    for window in windows:
        bets = [e for e in window if isinstance(e, Bet)]
        rest = [e for e in window if not isinstance(e, Bet)]
        if shuffle is not None:
            random.Random(shuffle).shuffle(bets)
            events = bets + rest      # removals after every bet of the window, then the roll
        else:
            events = window
        for e in events:
            state = GAME.step(state, e)
    return state


@settings(max_examples=200, deadline=None)
@given(sessions())
def test_engine_agrees_with_the_oracle(session: tuple[str, list[list]]) -> None:
    jurisdiction, windows = session
    settlement = GAME.settle(run(jurisdiction, windows))
    placed: dict[str, tuple[Bet, int]] = {}
    removed: set[str] = set()
    rolls: list[tuple[int, int]] = []
    for window in windows:
        for e in window:
            if isinstance(e, Bet):
                placed[e.id] = (e, len(rolls))
            elif isinstance(e, Act):
                removed.add(e.bet)
                removed.update(b for b, (x, _) in placed.items() if x.kind == "odds" and x.on == (e.bet,))
            elif isinstance(e, Outcome):
                rolls.append(tuple(e.value))
    for bet_id, (b, at) in placed.items():
        got = settlement.bets[bet_id]
        if bet_id in removed and got.final == "settled" and got.returned == b.amount:
            continue
        parent = None
        if b.kind == "odds":
            pb, pat = placed[b.on[0]]
            number = next(a + b for a, b in rolls[pat:at] if a + b in (4, 5, 6, 8, 9, 10))
            parent = (pb.kind, number, rolls[pat:])
        want = oracle(b.kind, b.on, b.amount, rolls[at:], parent)
        if want is None:
            assert got.final == "pending" and got.at_risk == b.amount, (b, got)
        else:
            assert got.final == "settled" and got.returned == want, (b, got, want, rolls[at:])


@settings(max_examples=40, deadline=None)
@given(sessions(), st.integers(0, 1000))
def test_bets_of_a_window_settle_the_same_in_any_order(session: tuple[str, list[list]], seed: int) -> None:
    jurisdiction, windows = session
    # a window whose removals came between its bets is replayed as bets-then-removals in both runs
    ordered = [[e for e in w if isinstance(e, Bet)] + [e for e in w if not isinstance(e, Bet)] for w in windows]
    a = GAME.settle(run(jurisdiction, ordered)).document()
    b = GAME.settle(run(jurisdiction, ordered, shuffle=seed)).document()
    assert a["bets"] == b["bets"] and a["house"] == b["house"]
    settled = [x for x in a["bets"].values() if x["status"] != "pending"]
    assert a["house"]["net"] == -sum(x["returned"] - x["staked"] for x in settled)


@settings(max_examples=40, deadline=None)
@given(sessions(), st.integers(0, 100))
def test_state_survives_a_json_round_trip_mid_session(session: tuple[str, list[list]], cut: int) -> None:
    jurisdiction, windows = session
    events = [e for w in windows for e in w]
    cut = cut % (len(events) + 1)
    state = GAME.open(jurisdiction, TABLE)
    for e in events[:cut]:
        state = GAME.step(state, e)
    restored = from_json(GAME.state_type(), json.loads(json.dumps(to_json(state))))
    assert restored == state
    for e in events[cut:]:
        state, restored = GAME.step(state, e), GAME.step(restored, e)
    assert GAME.settle(restored) == GAME.settle(state)


@settings(max_examples=25, deadline=None)
@given(sessions())
def test_every_legal_table_settles_every_roll(session: tuple[str, list[list]]) -> None:
    jurisdiction, windows = session
    state = run(jurisdiction, windows)
    for event, p in GAME.chance(state):
        after = GAME.settle(GAME.step(state, event))
        assert p == F(1, 36)
        for r in after.bets.values():
            assert r.returned >= 0 and (r.final != "pending" or r.at_risk == r.staked)
    assert len(GAME.chance(state)) in (0, 36)
