"""No va más and the draw apply their events to the transaction's state in place (no copy of the round's
bets, docs/performance.md, third pass): an event the engine refuses after it began changing the state, or a
transaction that fails after the event, must leave nothing half-applied — the state is dropped, rebuilt from
the database, and the round goes on from what the database holds."""

from __future__ import annotations

from typing import Any

import pytest

from tapete.core.errors import TapeteError
from tapete.engine.events import Close, Outcome
from tapete.engine.serialize import to_json
from tapete.games.roulette.game import RouletteGame
from tapete.server.tables.service import TableService
from tapete.server.tables.table_ctx import load_state

TABLE = {"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES", "auto": False, "table": {"minimum": 100}}


def refuse_after_applying(monkeypatch: pytest.MonkeyPatch, event_type: type) -> None:
    """The engine changes the state for `event_type`, then refuses it (a half-applied event)."""
    real = RouletteGame.apply

    def apply(self: RouletteGame, state: Any, event: Any) -> None:
        real(self, state, event)
        if isinstance(event, event_type):
            raise TapeteError("bad-document", "refused after the state was changed")

    monkeypatch.setattr(RouletteGame, "apply", apply)


def as_the_database_has_it(service: TableService) -> Any:
    spec = service.spec("ruleta")
    with service.db.read() as conn:
        row = service.state_of(conn, "ruleta")[0]
        return row, to_json(load_state(conn, service.game(spec), "ruleta"))


def served(service: TableService) -> Any:
    with service.db.read() as conn:
        return to_json(service.state_of(conn, "ruleta")[1])


def test_a_close_refused_after_closing_in_place_leaves_bets_open(make_casino: Any, database_url: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    c = make_casino([TABLE], database_url)
    service = c.client.app.state.server.service
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.bet("ana", "ruleta", {"kind": "red", "amount": 500})
    refuse_after_applying(monkeypatch, Close)
    with pytest.raises(TapeteError):
        service.close("ruleta", "croupier")
    monkeypatch.undo()
    assert "ruleta" not in service._states                 # the closed-in-place state is not kept
    row, state = as_the_database_has_it(service)
    assert row["phase"] == "betting" and state["closed"] is False
    assert served(service) == state
    assert c.bet("luis", "ruleta", {"kind": "black", "amount": 500})["bets"][0]["id"] == "b2"   # bets still taken
    c.post("croupier", "/api/tables/ruleta/close")
    result = c.post("croupier", "/api/tables/ruleta/draw")
    assert set(result["bets"]) | set(result["pending"]) == {"b1", "b2"}
    c.ledger()


def test_a_draw_refused_after_spinning_in_place_settles_nothing_and_the_next_draw_settles_once(
        make_casino: Any, database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    c = make_casino([TABLE], database_url)
    service = c.client.app.state.server.service
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.bet("ana", "ruleta", {"kind": "straight", "on": [17], "amount": 500}, {"kind": "red", "amount": 500})
    c.bet("luis", "ruleta", {"kind": "dozen", "on": [2], "amount": 300})
    c.post("croupier", "/api/tables/ruleta/close")
    before = as_the_database_has_it(service)
    refuse_after_applying(monkeypatch, Outcome)
    with pytest.raises(TapeteError):
        service.draw("ruleta", "croupier")
    monkeypatch.undo()
    assert "ruleta" not in service._states
    row, state = as_the_database_has_it(service)
    assert (row, state) == before                          # nothing of the refused spin was written
    assert row["phase"] == "closed" and state["history"] == []
    assert all(b["phase"] == "riding" for b in state["bets"])
    assert served(service) == state
    result = c.post("croupier", "/api/tables/ruleta/draw")
    assert set(result["bets"]) | set(result["pending"]) == {"b1", "b2", "b3"}
    settled = [r for r in c.get("inspector", "/api/tables/ruleta/log?after=0")["records"] if r["kind"] == "settlement"]
    assert len(settled) == 1
    c.ledger()


def test_a_draw_whose_transaction_fails_after_the_spin_leaves_the_round_closed(
        make_casino: Any, database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    c = make_casino([TABLE], database_url)
    service = c.client.app.state.server.service
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.bet("ana", "ruleta", {"kind": "red", "amount": 500})
    c.post("croupier", "/api/tables/ruleta/close")
    before = as_the_database_has_it(service)
    real = TableService._persist

    def persist_then_fail(self: TableService, ctx: Any) -> Any:
        real(self, ctx)
        raise RuntimeError("the database went away after the settlement's statements")

    monkeypatch.setattr(TableService, "_persist", persist_then_fail)
    with pytest.raises(RuntimeError):
        service.draw("ruleta", "croupier")
    monkeypatch.undo()
    assert "ruleta" not in service._states
    assert as_the_database_has_it(service) == before
    result = c.post("croupier", "/api/tables/ruleta/draw")
    assert set(result["bets"]) | set(result["pending"]) == {"b1"}
    c.ledger()


def test_the_round_record_holds_every_event_of_the_round_as_the_log_has_it(make_casino: Any, database_url: str) -> None:
    """The bets' events go into the round record as the database's text (round_end.round_records_raw): equal to
    the events of the log's records, in order, after the round's opening."""
    from sqlalchemy import select

    from tapete.server.storage.db import rounds

    c = make_casino([TABLE], database_url)
    service = c.client.app.state.server.service
    opened = c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.bet("ana", "ruleta", {"kind": "straight", "on": [17], "amount": 500}, {"kind": "red", "amount": 500})
    c.bet("luis", "ruleta", {"kind": "split", "on": [0, 3], "amount": 200})
    c.post("croupier", "/api/tables/ruleta/close")
    c.post("croupier", "/api/tables/ruleta/draw")
    log = c.get("inspector", "/api/tables/ruleta/log?after=0")["records"]
    start = next(r["seq"] for r in log if r["kind"] == "open")
    want = [r["data"]["event"] for r in log if r["seq"] > start and r["kind"] in ("bet", "close", "outcome")]
    with service.db.read() as conn:
        record = conn.execute(select(rounds.c.record).where(rounds.c.id == opened["round_id"])).scalar_one()
    assert record["events"] == want and len(want) == 5
    assert record["events"][0] == {"bet": {"id": "b1", "player": "ana", "kind": "straight", "on": [17], "amount": 500}}


def test_a_reader_holding_an_earlier_row_rebuilds_that_rows_state(make_casino: Any, database_url: str) -> None:
    """A read outside a locked transaction (the lobby, a view) reads the row, then the state: on PostgreSQL's
    read-committed another process may commit rounds between the two. The state is rebuilt from the row it
    read (its snapshot, its bets up to its log's head), never a later snapshot with the earlier bets replayed
    onto it (the lobby answered 409 behind HAProxy while the other node played the table)."""
    c = make_casino([TABLE], database_url)
    service = c.client.app.state.server.service
    spec = service.spec("ruleta")
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.bet("ana", "ruleta", {"kind": "red", "amount": 500})
    with service.db.read() as conn:
        earlier = service.state_of(conn, "ruleta")[0]              # the row as a reader saw it
        service.forget("ruleta")
        expected = to_json(service._cached_or_load(conn, spec, service.game(spec), dict(earlier)))
    c.bet("luis", "ruleta", {"kind": "black", "amount": 500})
    c.post("croupier", "/api/tables/ruleta/close")
    c.post("croupier", "/api/tables/ruleta/draw")
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.bet("ana", "ruleta", {"kind": "even", "amount": 500})
    with service.db.read() as conn:
        service.forget("ruleta")
        assert to_json(service._cached_or_load(conn, spec, service.game(spec), dict(earlier))) == expected
    assert c.bet("luis", "ruleta", {"kind": "odd", "amount": 500})["bets"]    # the table plays on
