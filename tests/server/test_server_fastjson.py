"""orjson in the server's JSON (server/storage/fastjson.py) stores and reads back exactly what the stdlib did: the
engine states of every game's golden documents, values with non-str keys, and the log records whose hash chain
is computed over the stdlib's canonical text."""

from __future__ import annotations

import json
from typing import Any

from tapete.catalog import get_game
from tapete.conformance.document import parse_event
from tapete.core.errors import TapeteError
from tapete.engine.serialize import from_json, to_json
from tapete.lab.cases import golden_path
from tapete.server.storage import fastjson

GOLDEN = golden_path()


def golden_states() -> Any:
    """Every state reached by every golden document, event after event (up to its first refusal)."""
    for path in sorted(GOLDEN.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip().startswith("{"):      # comments
                continue
            doc = json.loads(line)["doc"]
            try:
                game = get_game(doc["game"])
                state = game.open(doc["jurisdiction"], doc["table"], doc.get("shoe"))
            except (TapeteError, KeyError, TypeError, ValueError):
                continue
            yield game, state
            for i, raw in enumerate(doc["events"]):
                try:
                    game.apply(state, parse_event(game, raw, i))
                except (TapeteError, KeyError, TypeError, ValueError):
                    break
                yield game, state


def test_a_state_snapshot_is_the_engine_walk_of_every_golden_state() -> None:
    seen = set()
    for game, state in golden_states():
        want = json.loads(json.dumps(to_json(state)))
        assert fastjson.state_doc(state) == want, game.id
        assert from_json(game.state_type(), fastjson.loads(fastjson.state_text(state))) == \
            from_json(game.state_type(), want), game.id
        seen.add(game.id)
    assert len(seen) >= 25          # every game of the catalogs has golden documents


def test_a_column_value_reads_back_as_the_stdlib_stored_it() -> None:
    values = [
        {"bets": {"b1": {"staked": 100, "returned": 3600}}, "house": {"net": -3500}},
        {1: "one", 2: [1.5, 1e-7, 123456789.125], "nested": {3: {4: None}}, "say": "no va más — ¡ñ!"},
        [2**70, -(2**65)],                      # beyond orjson's 64-bit ints: the stdlib's way
        ("a", ("tuple", 1)),
        {"deadline": 1764201600.123456, "ts": 0.1 + 0.2},
    ]
    for value in values:
        assert fastjson.loads(fastjson.dumps(value)) == json.loads(json.dumps(value))
    assert fastjson.loads(json.dumps({"x": float("inf")})) == {"x": float("inf")}   # a text the stdlib wrote


def test_the_log_written_through_orjson_verifies_against_its_chain(make_casino: Any, database_url: str) -> None:
    c = make_casino([{"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES", "auto": False,
                      "table": {"minimum": 100}}], database_url)
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.bet("ana", "ruleta", {"kind": "straight", "on": [17], "amount": 500}, {"kind": "red", "amount": 500})
    c.post("croupier", "/api/tables/ruleta/close")          # 'no va más': not ASCII, stored as orjson writes it
    c.post("croupier", "/api/tables/ruleta/draw")
    log = c.get("inspector", "/api/tables/ruleta/log?after=0")
    assert log["chain"]["ok"], log["chain"]
    assert any(r["data"].get("say") == "no va más" for r in log["records"])
    c.ledger()


def test_a_raw_event_is_written_back_as_the_database_held_it() -> None:
    raw = fastjson.RawJSON('{"bet": {"id": "b1", "player": "ana", "on": [17], "say": "más"}}')
    want = {"bet": {"id": "b1", "player": "ana", "on": [17], "say": "más"}}
    assert fastjson.loads(fastjson.dumps({"events": [raw], "n": 1})) == {"events": [want], "n": 1}
    assert fastjson.loads(fastjson.dumps({"events": [raw], "n": 2**70})) == {"events": [want], "n": 2**70}   # stdlib way
