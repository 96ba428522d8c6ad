"""Disputes (issue 30, items 5-7; server/tables/disputes.py): the table's chief or the inspector records a player's
dispute about a round — a record in the table's hash-chained log and a staff-log line, no money moved — and closes
it once, upheld or dismissed, with a note; the readers (the incidents, the staff log, the shift report) show them;
the players watching the table learn that there is one, never who complained, why or for how much. Every refusal
is the project's error document, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

RNG = {"id": "rng", "game": "roulette-french", "source": "rng", "auto": False, "table": {"minimum": 100}}
OTHER = {"id": "otra", "game": "roulette-french", "source": "rng", "auto": False, "table": {"minimum": 100}}
JEFA = [{"username": "jefa", "roles": ["chief", "croupier"], "tables": ["otra"]}]


def play_round(c: Any, bettor: str = "ana", amount: int = 500) -> None:
    c.post("croupier", "/api/tables/rng/open")
    c.bet(bettor, "rng", {"kind": "red", "amount": amount})
    c.post("croupier", "/api/tables/rng/close")
    c.post("croupier", "/api/tables/rng/draw")


def error(c: Any, user: str, path: str, body: Any, status: int, code: str) -> str:
    r = c.client.post(path, json=body, headers=c.login(user))
    assert r.status_code == status, (path, body, r.status_code, r.text)
    assert r.json()["error"]["code"] == code, r.text
    return str(r.json()["error"]["message"])


def test_a_chief_records_a_dispute_and_the_inspector_closes_it_once(make_casino: Any, database_url: str) -> None:
    c = make_casino([RNG], database_url)
    play_round(c)
    before = c.balance("ana")
    money = c.get("inspector", "/api/ledger")["house_accounts"]
    with c.client.websocket_connect("/api/tables/rng/stream", headers=c.login("luis")) as ws:
        d = c.post("jefe", "/api/tables/rng/disputes",
                   {"round": 1, "player": "ana", "reason": "  the ball jumped after no va más  ", "claim": 2_500})
        seen = ws.receive_json()
        while seen.get("kind") != "dispute":
            seen = ws.receive_json()
    assert d["status"] == "open" and d["round"] == 1 and d["player"] == "ana" and d["claim"] == 2_500
    assert d["reason"] == "the ball jumped after no va más"                      # trimmed
    number = d["dispute"]
    # another player watching the table learns there is a dispute on round 1, not who, why or for how much
    assert seen["data"]["dispute"] == number and seen["data"]["round"] == 1
    assert not {"player", "reason", "claim"} & set(seen["data"]), seen
    # no money moved
    assert c.balance("ana") == before and c.get("inspector", "/api/ledger")["house_accounts"] == money
    # in the table's chain, signed by the chief, and in the staff log
    chain = c.get("jefe", "/api/audit/tables/rng?kind=dispute")["items"]
    assert [(r["actor"], r["data"]["dispute"], r["data"]["reason"], r["data"]["claim"]) for r in chain] == \
        [("jefe", number, "the ball jumped after no va más", 2_500)]
    opened = c.get("inspector", "/api/audit/incidents")["items"]
    assert [(r["action"], r["actor"], r["seq"], r["status"], r["closed"]) for r in opened] == \
        [("dispute", "jefe", number, "open", None)]
    # ana reads on her account page that it is recorded (never the staff's reason); luis has none
    mine = c.get("ana", "/api/me/disputes")["disputes"]
    assert [(d["dispute"], d["table"], d["round"], d["claim"], d["status"], d["closed"]) for d in mine] == \
        [(number, "Ruleta francesa", 1, 2_500, "open", None)] and "reason" not in mine[0]
    assert c.get("luis", "/api/me/disputes")["disputes"] == []
    c.get("jefe", "/api/me/disputes", expect=403)
    # closed by the inspector, upheld, with a note
    shut = c.post("inspector", f"/api/tables/rng/disputes/{number}/close", {"outcome": "upheld", "note": "the camera shows it"})
    assert shut == {"table": "rng", "dispute": number, "round": 1, "outcome": "upheld", "note": "the camera shows it",
                    "player": "ana", "claim": 2_500, "status": "upheld"}
    mine = c.get("ana", "/api/me/disputes")["disputes"]
    assert mine[0]["status"] == "upheld" and mine[0]["closed"] and "note" not in mine[0]
    item = c.get("jefe", "/api/audit/incidents")["items"][0]
    assert item["status"] == "upheld" and item["closed"]["by"] == "inspector" and item["closed"]["note"] == "the camera shows it"
    assert item["data"] == {"round": 1, "player": "ana", "reason": "the ball jumped after no va más", "claim": 2_500}
    closing = c.get("inspector", "/api/audit/staff?kind=dispute-close")["items"]
    assert [(r["actor"], r["subject"], r["data"]["dispute"], r["data"]["outcome"]) for r in closing] == \
        [("inspector", "rng", number, "upheld")]
    assert c.get("inspector", "/api/audit/tables/rng?kind=dispute-close")["items"][0]["actor"] == "inspector"
    # once: a second closing (either outcome, anyone) is refused and records nothing
    says = error(c, "jefe", f"/api/tables/rng/disputes/{number}/close", {"outcome": "dismissed", "note": "no"}, 409, "dispute-closed")
    assert "upheld by inspector" in says
    assert len(c.get("inspector", "/api/audit/staff?kind=dispute-close")["items"]) == 1
    assert c.balance("ana") == before
    c.ledger()                              # the chains (tables' and staff log) and the books verify


def test_a_dispute_from_the_floor_and_a_retried_request(make_casino: Any, database_url: str) -> None:
    c = make_casino([RNG], database_url)
    play_round(c)
    c.post("croupier", "/api/tables/rng/open")                    # round 2 in play: it may be disputed too
    first = c.post("inspector", "/api/tables/rng/disputes", {"round": 2, "reason": "a chip fell on the layout"}, key="k-1")
    again = c.post("inspector", "/api/tables/rng/disputes", {"round": 2, "reason": "a chip fell on the layout"}, key="k-1")
    assert first == again and "player" not in first and "claim" not in first
    assert len(c.get("inspector", "/api/audit/incidents")["items"]) == 1            # recorded once
    c.post("jefe", f"/api/tables/rng/disputes/{first['dispute']}/close", {"outcome": "dismissed", "note": "nobody claims it"})
    assert c.get("inspector", "/api/audit/incidents")["items"][0]["status"] == "dismissed"
    c.ledger()


def test_every_refusal_is_an_error_document(make_casino: Any, database_url: str) -> None:
    c = make_casino([RNG, OTHER], database_url, staff=JEFA)
    play_round(c)
    path = "/api/tables/rng/disputes"
    ok = {"round": 1, "player": "ana", "reason": "short paid"}
    error(c, "jefe", path, {**ok, "round": 9}, 404, "unknown-round")                   # a round never played
    error(c, "jefe", path, {**ok, "round": 0}, 422, "bad-request")
    error(c, "jefe", "/api/tables/nada/disputes", ok, 404, "unknown-table")
    for who in ("croupier", "ana", "cajero", "jefa"):                                  # jefa: chief of another table
        error(c, who, path, ok, 403, "forbidden")
    error(c, "jefe", path, {"round": 1, "player": "ana"}, 422, "bad-request")          # no reason
    error(c, "jefe", path, {**ok, "reason": "   "}, 422, "bad-request")                # only blanks
    error(c, "jefe", path, {**ok, "reason": "x" * 201}, 422, "bad-request")            # a void's bound: 200
    error(c, "jefe", path, {**ok, "claim": -1}, 422, "bad-request")
    error(c, "jefe", path, {**ok, "claim": 10**11 + 1}, 422, "bad-request")
    error(c, "jefe", path, {**ok, "claim": "25.00"}, 422, "bad-request")               # cents, an integer
    error(c, "jefe", path, {**ok, "player": "nadie"}, 404, "unknown-user")
    error(c, "jefe", path, {**ok, "player": "croupier"}, 422, "bad-request")           # staff never play
    assert c.post("jefe", path, {**ok, "reason": "x" * 200}, key=None)["dispute"]     # the bound itself is fine
    assert c.get("inspector", "/api/audit/incidents")["items"][0]["data"]["reason"] == "x" * 200
    number = c.get("inspector", "/api/audit/incidents")["items"][0]["seq"]
    close = f"/api/tables/rng/disputes/{number}/close"
    for who in ("croupier", "ana", "jefa"):
        error(c, who, close, {"outcome": "upheld", "note": "n"}, 403, "forbidden")
    error(c, "jefe", "/api/tables/rng/disputes/99999/close", {"outcome": "upheld", "note": "n"}, 404, "unknown-dispute")
    error(c, "jefe", f"/api/tables/otra/disputes/{number}/close", {"outcome": "upheld", "note": "n"}, 404, "unknown-dispute")
    error(c, "jefe", close, {"outcome": "maybe", "note": "n"}, 422, "bad-request")
    error(c, "jefe", close, {"outcome": "upheld"}, 422, "bad-request")                 # a note is required
    error(c, "jefe", close, {"outcome": "upheld", "note": "y" * 201}, 422, "bad-request")
    assert c.get("inspector", "/api/audit/incidents")["items"][0]["status"] == "open"
    c.post("jefe", close, {"outcome": "upheld", "note": "paid at the cage"}, key=None)
    error(c, "inspector", close, {"outcome": "upheld", "note": "again"}, 409, "dispute-closed")
    # a chief restricted to other tables reads none of it
    c.get("jefa", "/api/audit/incidents?table=rng", expect=403)
    assert c.get("jefa", "/api/audit/incidents")["items"] == []
    c.ledger()


def test_who_receives_a_disputes_particulars_on_the_stream() -> None:
    """visibility.stream_record: the table's staff and the inspector receive who, why and how much; the player who
    disputes, another player, a visitor and a restricted chief of another table receive the bare fact."""
    from tapete.server.tables.visibility import TableFacts, Viewer, stream_record

    table = TableFacts("rng", "roulette-french", hidden=False, circle=False, player_banked=False)
    opened = {"kind": "dispute", "actor": "jefe", "data": {"round": 3, "phase": "betting", "dispute": 7, "player": "ana",
                                                            "reason": "paid short", "claim": 500}}
    closed = {"kind": "dispute-close", "actor": "jefe", "data": {"round": 3, "phase": "betting", "dispute": 7, "player": "ana",
                                                                 "claim": 500, "outcome": "upheld", "note": "recounted"}}
    for viewer in (Viewer("jefe", frozenset({"chief"})), Viewer("croupier", frozenset({"croupier"})),
                   Viewer("inspector", frozenset({"inspector"}))):
        assert stream_record(opened, viewer, table) == opened and stream_record(closed, viewer, table) == closed
    for viewer in (Viewer("ana", frozenset({"player"})), Viewer("luis", frozenset({"player"})), Viewer(),
                   Viewer("jefa", frozenset({"chief"}), ("otra",))):
        assert stream_record(opened, viewer, table)["data"] == {"round": 3, "phase": "betting", "dispute": 7}
        assert stream_record(closed, viewer, table)["data"] == {"round": 3, "phase": "betting", "dispute": 7, "outcome": "upheld"}
