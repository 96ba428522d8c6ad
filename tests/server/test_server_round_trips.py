"""Issue 33, point 1: a batch of bets on PostgreSQL takes two round trips — ONE read with the BEGIN (the table's row
and the accounts locked, the committed keys: hot.lock_for_batch), ONE write with the COMMIT (every row: hot.Folded,
in the driver's pipeline mode: hot.pipelined) — whatever the number of requests; it took 11-12, then 4. Counted
from the driver (each statement is one round trip, the BEGIN and COMMIT sent with them), not timed. The money and idempotency invariants through the folded statements: a
key committed by another process between the batch's read and its write fails the whole write, nothing of the
batch is kept, and every request is answered once."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import create_engine, event, func, select, text

from tapete.server.storage.db import bets, idempotency, ledger_tx, normalise_url

from .test_server_batch import RED, _answer, _open  # type: ignore[import-not-found]
from .test_server_health import metric  # type: ignore[import-not-found]


def _statements(service: Any, run: Any) -> list[str]:
    seen: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(" ".join(statement.split()).lower())

    event.listen(service.db.engine, "before_cursor_execute", count)
    try:
        run()
    finally:
        event.remove(service.db.engine, "before_cursor_execute", count)
    return seen


@pytest.mark.parametrize("requests", [1, 3, 12])
def test_a_batch_is_two_statements_and_two_round_trips_on_postgresql(make_casino: Any, database_url: str, requests: int) -> None:
    c, service = _open(make_casino, database_url)
    players = ["ana", "luis", "eva"]
    queued = [service.batches.submit("ruleta", players[i % 3], RED, (f"{players[i % 3]}:r{i}", "x")) for i in range(requests)]
    before = service.batches.stats.snapshot()
    sent = _statements(service, lambda: service.batches.flush("ruleta"))
    after = service.batches.stats.snapshot()
    assert all("bets" in _answer(r) for r in queued)
    assert after["batches"] - before["batches"] == 1 and after["requests"] - before["requests"] == requests
    if database_url.startswith("postgresql"):
        assert len(sent) == 2, sent
        assert sent[0].startswith("with p as materialized (select cast(%s as jsonb)") and "for update" in sent[0]
        assert sent[1].startswith("with ") and all(clause in sent[1] for clause in (
            "update accounts set", "insert into ledger_tx", "insert into postings", "insert into bets",
            "insert into events", "insert into idempotency", "update casino_tables set", "pg_notify"))
        assert after["statements"] - before["statements"] == 2 and after["round_trips"] - before["round_trips"] == 2
    else:      # SQLite, in process: what it was (no round trips); its BEGIN IMMEDIATE precedes the batch's count
        assert sent[0] == "begin immediate" and after["statements"] - before["statements"] == len(sent) - 1
        assert after["round_trips"] == 0
    assert c.balance("ana") == 100_000 - 500 * len([i for i in range(requests) if i % 3 == 0])
    c.ledger()
    scraped = {line.split()[0]: float(line.split()[1]) for line in c.client.get("/metrics").text.splitlines()
               if line.startswith("tapete_bet_")}           # the profile the bench reads (bet_stats.py)
    assert scraped["tapete_bet_batches_total"] >= 1 and scraped["tapete_bet_requests_total"] >= requests
    assert scraped["tapete_bet_statements_total"] == service.batches.stats.snapshot()["statements"]


def test_a_key_committed_between_the_read_and_the_folded_write_keeps_nothing_of_the_batch(make_casino: Any, postgres: Any) -> None:
    """PostgreSQL (SQLite has one writer: nobody commits inside a batch). Another process commits `luis:k` after the batch read the keys and before its folded write: the write fails
    as a whole (a duplicate key), the batch is rolled back and each request goes alone — luis's is answered from
    the other process's record, the others are written once; no money moves twice."""
    database_url = postgres.create_database()
    c, service = _open(make_casino, database_url)
    other = create_engine(normalise_url(database_url), isolation_level="AUTOCOMMIT")
    queued = [service.batches.submit("ruleta", p, RED, (f"{p}:k", "fp")) for p in ("ana", "luis", "eva")]
    recorded = {"status": 200, "response": {"bets": [{"id": "elsewhere"}], "balance": 1}}
    fired: list[bool] = []

    def race(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if not fired and "insert into idempotency" in statement.lower():
            fired.append(True)
            with other.connect() as o:
                o.execute(idempotency.insert().values(key="luis:k", fingerprint="fp", status=200,
                                                      response=recorded["response"], created_at=0.0))

    event.listen(service.db.engine, "before_cursor_execute", race)
    try:
        service.batches.flush("ruleta")
    finally:
        event.remove(service.db.engine, "before_cursor_execute", race)
        other.dispose()
    assert fired
    assert _answer(queued[1]) == recorded["response"]                  # the other process's answer, once
    assert [_answer(r)["balance"] for r in (queued[0], queued[2])] == [99_500, 99_500]
    assert c.balance("luis") == 100_000                                   # nothing taken from him here
    with service.db.read() as conn:
        assert conn.execute(select(func.count()).select_from(bets)).scalar_one() == 2
        assert conn.execute(select(func.count()).select_from(ledger_tx).where(ledger_tx.c.kind == "bet")).scalar_one() == 2
        assert conn.execute(text("SELECT count(*) FROM idempotency WHERE key IN ('ana:k', 'luis:k', 'eva:k')")).scalar_one() == 3
    c.ledger()


def test_the_metrics_wrapper_caches_routes_within_a_bound(make_casino: Any, sqlite_url: str) -> None:
    """The per-request counting on the event loop (issue 33: ≈ 16 → 3 µs a request): routes remembered by path,
    at most ROUTE_CACHE of them whatever paths arrive, and the counts the same as before."""
    from tapete.server.http import metrics as m

    c = make_casino([{"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES", "auto": False, "table": {"minimum": 100}}], sqlite_url)
    app = c.client.app
    for i in range(m.ROUTE_CACHE + 50):
        c.client.get(f"/no/such/page/{i}")
    assert len(app.metrics._routes) <= m.ROUTE_CACHE
    for _ in range(3):
        c.client.get("/api/tables/ruleta")
    body = c.client.get("/metrics").text
    assert metric(body, "tapete_http_request_seconds_count", route="/api/tables/{table}") == 3
    assert metric(body, "tapete_http_requests_total", route="other", method="GET", status="404") == m.ROUTE_CACHE + 50
