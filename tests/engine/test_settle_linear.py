"""Issue 16 point 5: `settle` runs a document in place over one private copy (linear in the number of bets).

The speed is measured in benchmarks/bench_settle.py, not here. These tests pin what must not change: the reducer
stays pure for its callers, and every golden document settles exactly as it did when each event was a `step`.
"""

from __future__ import annotations

import contextlib
import json
import pickle
from typing import Any

import pytest

from tapete.catalog import get_game
from tapete.conformance.document import parse, settle_document
from tapete.core.errors import TapeteError
from tapete.engine.bet_index import bet_index
from tapete.engine.events import Bet, Outcome
from tapete.engine.serialize import from_json, to_json
from tapete.lab.cases import golden_path

GOLDEN = golden_path()


def golden_docs() -> list[Any]:
    docs = []
    for path in sorted(GOLDEN.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                docs.append(json.loads(line)["doc"])
    return docs


def settle_by_steps(doc: Any) -> dict[str, Any]:
    """The settlement as it was computed before issue 16: one pure `step` (a whole copy) per event."""
    try:
        parsed = parse(doc)
        game = parsed.game
        state = game.open(parsed.jurisdiction, parsed.table, parsed.shoe)
        for event in parsed.events:
            state = game.step(state, event)
        state = game.finish(state)
        rounding = parsed.table.get("rounding", "player")
        return game.settle(state).document(rounding=rounding if rounding in ("player", "house") else "player")
    except TapeteError as exc:
        return exc.document()


def roulette_layout(n: int, spot_players: int = 7, spots: int = 37) -> dict[str, Any]:
    events: list[dict[str, Any]] = [{"bet": {"id": f"b{i}", "player": f"p{i % spot_players}", "kind": "straight",
                                             "amount": 100, "on": [i % spots]}} for i in range(n)]
    return {"game": "roulette-french", "jurisdiction": "ES", "table": {"minimum": 100}, "events": [*events, {"spin": 17}]}


def test_settle_in_place_gives_the_settlement_of_pure_steps_for_every_golden_document() -> None:
    docs = golden_docs()
    assert len(docs) > 1000
    different = [doc for doc in docs if settle_document(doc) != settle_by_steps(doc)]
    assert not different, different[:3]


@pytest.mark.parametrize("doc", [
    roulette_layout(400),                     # many spots, each player's totals under the maximum
    roulette_layout(80, spot_players=1, spots=2),  # a player's spot goes over the maximum: the same bet is refused
    {**roulette_layout(3), "events": [*roulette_layout(3)["events"][:3], *roulette_layout(3)["events"][:1]]},  # id twice
], ids=["400-bets", "over-maximum", "id-twice"])
def test_large_layouts_settle_as_with_pure_steps(doc: dict[str, Any]) -> None:
    answer = settle_document(doc)
    assert answer == settle_by_steps(doc)
    assert answer.get("error", {}).get("code") in (None, "over-maximum", "bad-document")


def test_the_spot_maximum_counts_bets_of_this_spin_only() -> None:
    """The per-spot totals are rebuilt after a spin: the bets it settled no longer count (the index forgets)."""
    bet = {"player": "p1", "kind": "straight", "amount": 1000, "on": [17]}
    events = [{"bet": {"id": f"a{i}", **bet}} for i in range(3)] + [{"spin": 5}]
    events += [{"bet": {"id": f"b{i}", **bet}} for i in range(3)] + [{"spin": 17}]
    doc = {"game": "roulette-french", "jurisdiction": "ES", "table": {"minimum": 100}, "events": events}
    answer = settle_document(doc)
    assert "error" not in answer, answer
    assert answer["bets"]["b2"]["status"] == "won"
    over = {**doc, "events": events[:4] + [{"bet": {"id": f"b{i}", **bet}} for i in range(4)]}
    assert settle_document(over)["error"]["code"] == "over-maximum"
    assert settle_by_steps(over) == settle_document(over)


def test_punto_banca_totals_per_coup_match_pure_steps() -> None:
    shoe = ["4S", "3H", "5D", "KC"] * 6
    events = []
    for coup in range(3):
        events += [{"bet": {"id": f"c{coup}b{i}", "player": f"p{i % 3}", "kind": ["player", "banker"][i % 2],
                            "amount": 1000}} for i in range(60)]
        events.append({"deal": {}})
    doc = {"game": "punto-banca", "jurisdiction": "ES", "table": {"minimum": 1000}, "events": events, "shoe": shoe}
    assert settle_document(doc) == settle_by_steps(doc)
    assert "error" not in settle_document(doc)


@pytest.mark.parametrize("doc", [d for d in golden_docs() if d.get("events")][::7], ids=lambda d: d.get("game"))
def test_run_events_and_step_never_change_the_callers_state(doc: Any) -> None:
    try:
        parsed = parse(doc)
    except TapeteError:
        return
    game = parsed.game
    try:
        state = game.open(parsed.jurisdiction, parsed.table, parsed.shoe)
    except TapeteError:
        return
    before = pickle.dumps(to_json(state))
    with contextlib.suppress(TapeteError):
        game.run_events(state, parsed.events)
    assert pickle.dumps(to_json(state)) == before
    for event in parsed.events:
        snapshot = pickle.dumps(to_json(state))
        try:
            new = game.step(state, event)
        except TapeteError:
            break
        assert pickle.dumps(to_json(state)) == snapshot
        assert new is not state
        state = new


def test_the_bet_index_is_not_part_of_the_state() -> None:
    """It lives beside the dataclass fields: a state round-trips through JSON and compares equal without it."""
    game = get_game("roulette-french")
    state = game.run_events(game.open("ES", {"minimum": 100}), [
        Bet("b1", "p1", "straight", 100, (17,)), Bet("b2", "p1", "straight", 100, (17,))])
    assert bet_index(state, state.bets).ids == {"b1", "b2"}
    again = from_json(type(state), json.loads(json.dumps(to_json(state))))
    assert again == state
    after_spin = game.run_events(state, [Outcome("spin", 17)])
    assert [b.phase for b in after_spin.bets] == ["done", "done"]
    assert [b.phase for b in state.bets] == ["riding", "riding"]
