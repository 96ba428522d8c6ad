"""What a player sees of others (docs/server.md § What is public, § Fairness and audit).

The found leak: GET /api/rounds/{id} gave any logged-in player a circle hand's dealt cards (folded and unshown
hole cards) and its seed, while the table's view showed `??`; round events and the stream named every player
by his login. At circle poker a card never shown is never served to a player, nor the seed that rebuilds it,
until the table's session (or the table's `seed_delay`) has ended; the inspector reads it at once. Others are
shown by a display name.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tapete.server.tables.fairness import verify_round

HOLDEM = {"id": "p", "name": "Hold'em", "game": "holdem", "jurisdiction": "ES-AN", "auto": False,
          "table": {"minimum": 200, "forced": "blinds"}}
RULETA = {"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES-AN", "auto": False, "table": {"minimum": 100}}
PLAYERS = {"ana": 100_000, "luis": 100_000, "eva": 100_000}
CARD = re.compile(r'"([2-9TJQKA][SHDC])"')


def folded_hand(c: Any) -> int:
    """ana and luis sit; luis folds his blind before the flop: four cards dealt, none shown. The round's id."""
    c.post("ana", "/api/tables/p/seats", {"seat": 1, "buy_in": 10_000})
    c.post("luis", "/api/tables/p/seats", {"seat": 3, "buy_in": 10_000})
    answer = c.post("croupier", "/api/tables/p/open", key=None)
    owners = {b["id"]: b["player"] for b in c.get("croupier", "/api/tables/p")["open_bets"]}
    while answer["phase"] == "acting":
        player = owners[answer["due"][0]["bet"]]
        mine = [d for d in c.get(player, "/api/tables/p/actions")["decisions"] if d["mine"]]
        verbs = {d["do"] for d in mine}
        answer = c.post(player, "/api/tables/p/acts", {"bet": mine[0]["bet"], "do": "fold" if "fold" in verbs else "check"})
    return c.get("inspector", "/api/rounds?table=p")["rounds"][0]["id"]


@pytest.fixture
def casino(make_casino: Any, database_url: str) -> Any:
    return make_casino([HOLDEM, RULETA], database_url, players=PLAYERS)


def test_unshown_cards_and_seed_never_reach_a_player(casino: Any) -> None:
    c = casino
    rid = folded_hand(c)
    full = c.get("inspector", f"/api/rounds/{rid}")              # the inspector: everything, at once
    dealt = full["shoe"]["dealt"]
    assert len(dealt) == 4 and full["shoe"]["seed"]
    assert verify_round(full)["ok"]
    for player in ("ana", "luis", "eva"):
        record = c.get(player, f"/api/rounds/{rid}")
        text = json.dumps(record)
        assert "seed" not in record and "seed" not in record["shoe"] and "dealt" not in record["shoe"]
        assert full["shoe"]["seed"] not in text
        assert not set(CARD.findall(text)) & set(dealt), player       # not one of the four cards
        assert record["sealed"]["until"]
        assert verify_round(record)["ok"] is False                    # nothing to verify before the seed is public
        listing = json.dumps(c.get(player, "/api/rounds?table=p"))
        assert full["shoe"]["seed"] not in listing


def test_the_stream_never_carries_a_circle_seed(casino: Any) -> None:
    c = casino
    token = c.login("eva")["Authorization"].split()[1]
    with c.client.websocket_connect(f"/api/tables/p/stream?token={token}") as ws:
        ws.receive_json()
        rid = folded_hand(c)
        seed = c.get("inspector", f"/api/rounds/{rid}")["shoe"]["seed"]
        seen = []
        while "settlement" not in [m.get("kind") for m in seen]:
            seen.append(ws.receive_json())
    text = json.dumps(seen)
    assert seed not in text and '"seed"' not in text
    assert [m for m in seen if m.get("kind") == "act"]                   # a player's act: its actor too
    assert '"ana"' not in text and '"luis"' not in text                 # others by seat, never by login
    assert "Seat 1" in text and "Seat 3" in text


def test_the_seed_is_public_after_the_delay_and_verifies(make_casino: Any, database_url: str) -> None:
    c = make_casino([{**HOLDEM, "seed_delay": 0}], database_url, players=PLAYERS)
    rid = folded_hand(c)
    record = c.get("eva", f"/api/rounds/{rid}")
    assert record["shoe"]["seed"] and len(record["shoe"]["dealt"]) == 4 and "sealed" not in record
    assert verify_round(record)["ok"]                                   # `tapete verify` on what a player got


def test_the_seed_is_public_once_the_session_ended(casino: Any) -> None:
    import time

    from tapete.server.tables import privacy

    c = casino
    rid = folded_hand(c)
    assert "sealed" in c.get("ana", f"/api/rounds/{rid}")
    with c.client.app.state.server.db.write() as conn:           # what the clock does when the table closes for the day
        privacy.end_session(conn, "p", time.time())
    record = c.get("ana", f"/api/rounds/{rid}")
    assert "sealed" not in record and verify_round(record)["ok"]


def test_house_banked_rounds_reveal_as_before(casino: Any) -> None:
    c = casino
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.bet("ana", "ruleta", {"kind": "red", "amount": 500})
    c.post("croupier", "/api/tables/ruleta/close")
    c.post("croupier", "/api/tables/ruleta/draw")
    rid = c.get("ana", "/api/rounds?table=ruleta")["rounds"][0]["id"]
    record = c.get("luis", f"/api/rounds/{rid}")
    assert record["seed"] and verify_round(record)["ok"]


def test_other_players_by_display_name(casino: Any) -> None:
    c = casino
    assert c.post("ana", "/api/me/name", {"name": "luis"}, key=None, expect=409)["error"]["code"] == "user-exists"
    assert c.post("ana", "/api/me/name", {"name": "Seat 3"}, key=None, expect=409)["error"]["code"] == "user-exists"
    assert c.post("ana", "/api/me/name", {"name": "La Rubia"}, key=None)["display_name"] == "La Rubia"
    assert c.get("ana", "/api/me")["display_name"] == "La Rubia"
    token = c.login("luis")["Authorization"].split()[1]
    with c.client.websocket_connect(f"/api/tables/ruleta/stream?token={token}") as ws:
        ws.receive_json()
        c.post("croupier", "/api/tables/ruleta/open", key=None)
        c.bet("ana", "ruleta", {"kind": "red", "amount": 500})
        c.bet("eva", "ruleta", {"kind": "black", "amount": 500})
        c.bet("luis", "ruleta", {"kind": "odd", "amount": 500})
        c.post("croupier", "/api/tables/ruleta/close")
        c.post("croupier", "/api/tables/ruleta/draw")
        seen = []
        while "settlement" not in [m.get("kind") for m in seen]:
            seen.append(ws.receive_json())
    text = json.dumps(seen)
    assert "La Rubia" in text and '"ana"' not in text and '"eva"' not in text
    assert re.search(r'"Player [0-9A-F]{4}"', text)                     # eva chose no name
    assert '"luis"' in text                                              # the viewer sees his own login
    rid = c.get("ana", "/api/rounds?table=ruleta")["rounds"][0]["id"]
    record = json.dumps(c.get("luis", f"/api/rounds/{rid}"))
    assert '"ana"' not in record and "La Rubia" in record
    assert '"ana"' in json.dumps(c.get("croupier", f"/api/rounds/{rid}"))   # the table's staff see logins


def test_a_players_act_names_him_by_display_name(casino: Any) -> None:
    """A record whose only mention of the player is its actor (a prison or half decision at roulette)."""
    from tapete.server.tables.visibility import by_display_name

    aliases = casino.client.app.state.server.aliases
    record = {"table": "ruleta", "kind": "act", "actor": "ana", "data": {"event": {"act": {"do": "prison", "bet": "b1"}}}}
    shown = by_display_name(record, "luis", aliases)
    assert shown["actor"].startswith("Player ") and "ana" not in json.dumps(shown)
    assert by_display_name({**record, "actor": "croupier"}, "luis", aliases)["actor"] == "croupier"     # staff keep their names
