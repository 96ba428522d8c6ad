"""Group commit (batch.py): the bets queued for a table are written in one transaction and answered together
after it commits, and every invariant of one bet, one transaction still holds (not timed: speed is in
benchmarks/bench_server.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, func, select

from tapete.core.errors import TapeteError
from tapete.server.money import ledger
from tapete.server.storage.db import bets, idempotency, ledger_tx, normalise_url, postings

from .conftest import casino_config  # type: ignore[import-not-found]

TABLE = {"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES", "auto": False, "table": {"minimum": 100}}
RED = [{"kind": "red", "amount": 500}]
PLAYERS = {"ana": 100_000, "luis": 100_000, "eva": 100_000, "pobre": 300}


def _open(make_casino: Any, url: str) -> tuple[Any, Any]:
    c = make_casino([TABLE], url, players=PLAYERS)
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    return c, c.client.app.state.server.service


def _one_transaction(service: Any, *bet_ids: str) -> bool:
    """The bets were written by one transaction: one clock reading stamps them all (each transaction takes
    its own; the table's version would also count a recovery the ownership thread may run meanwhile)."""
    with service.db.read() as conn:
        stamps = {r[0] for r in conn.execute(select(bets.c.placed_at).where(bets.c.bet_id.in_(bet_ids)))}
        return len(stamps) == 1 and conn.execute(select(func.count()).select_from(bets).where(bets.c.bet_id.in_(bet_ids))).scalar_one() == len(bet_ids)


def _answer(request: Any) -> Any:
    exc = request.future.exception(timeout=10)
    return exc if exc is not None else request.future.result()


def test_a_batch_is_one_transaction_answered_after_commit(make_casino: Any, database_url: str) -> None:
    c, service = _open(make_casino, database_url)
    queued = [service.batches.submit("ruleta", p, RED, (f"{p}:k", p)) for p in ("ana", "luis", "eva")]
    assert not any(r.future.done() for r in queued)          # nobody is told before the commit
    assert service.batches.flush("ruleta") == 3
    assert _one_transaction(service, "b1", "b2", "b3")
    answers = [_answer(r) for r in queued]
    assert [a["bets"][0]["id"] for a in answers] == ["b1", "b2", "b3"]
    assert [a["balance"] for a in answers] == [99_500] * 3
    assert all(c.balance(p) == 99_500 for p in ("ana", "luis", "eva"))
    c.ledger()


def test_idempotent_retries_inside_a_batch(make_casino: Any, database_url: str) -> None:
    c, service = _open(make_casino, database_url)
    first = service.batches.submit("ruleta", "ana", RED, ("ana:k1", "fp-red"))
    again = service.batches.submit("ruleta", "ana", RED, ("ana:k1", "fp-red"))        # the same request twice
    other = service.batches.submit("ruleta", "ana", RED, ("ana:k1", "fp-black"))      # the key, another body
    service.batches.flush("ruleta")
    assert _answer(first) == _answer(again) and _answer(first)["bets"][0]["id"] == "b1"
    assert isinstance(_answer(other), TapeteError) and _answer(other).code == "idempotency-key-reused"
    later = service.batches.submit("ruleta", "ana", RED, ("ana:k1", "fp-red"))        # a retry in a later batch
    fresh = service.batches.submit("ruleta", "luis", RED, ("luis:k1", "fp-red"))
    service.batches.flush("ruleta")
    assert _answer(later) == _answer(first)
    assert _answer(fresh)["bets"][0]["id"] == "b2"
    assert c.balance("ana") == 99_500                         # collected once
    with service.db.read() as conn:
        assert conn.execute(select(func.count()).select_from(bets)).scalar_one() == 2
    c.ledger()


def test_a_bet_refused_in_a_batch_does_not_fail_its_neighbours(make_casino: Any, database_url: str) -> None:
    c, service = _open(make_casino, database_url)
    good1 = service.batches.submit("ruleta", "ana", RED, ("ana:a", "x"))
    unreadable = service.batches.submit("ruleta", "luis", [{"kind": "red", "amount": 500, "extra": {"id": "b9"}}], ("luis:a", "x"))
    good2 = service.batches.submit("ruleta", "eva", RED, ("eva:a", "x"))
    service.batches.flush("ruleta")                           # refused before the engine took it: left out
    assert isinstance(_answer(unreadable), TapeteError)
    assert [_answer(r)["bets"][0]["id"] for r in (good1, good2)] == ["b1", "b2"]
    assert _one_transaction(service, "b1", "b2")              # still one transaction
    good3 = service.batches.submit("ruleta", "ana", RED, ("ana:b", "x"))
    broke = service.batches.submit("ruleta", "pobre", RED, ("pobre:b", "x"))             # 5 € on a 3 € wallet
    good4 = service.batches.submit("ruleta", "luis", RED, ("luis:b", "x"))
    nonsense = service.batches.submit("ruleta", "eva", [{"kind": "no-such-bet", "amount": 500}], ("eva:b", "x"))
    service.batches.flush("ruleta")                           # refused after the engine took them: written again without
    assert isinstance(_answer(broke), TapeteError) and _answer(broke).code == "insufficient-funds"
    assert isinstance(_answer(nonsense), TapeteError)
    assert [_answer(r)["bets"][0]["id"] for r in (good3, good4)] == ["b3", "b4"]
    assert _one_transaction(service, "b3", "b4")              # the neighbours still in one transaction
    assert c.balance("pobre") == 300 and c.balance("ana") == 99_000 and c.balance("luis") == 99_500
    assert c.balance("eva") == 99_500
    c.post("croupier", "/api/tables/ruleta/close")
    result = c.post("croupier", "/api/tables/ruleta/draw")
    assert set(result["bets"]) | set(result.get("pending", {})) == {"b1", "b2", "b3", "b4"}
    c.ledger()


def test_a_batch_checks_a_wallet_against_the_bets_before_it_in_the_batch(make_casino: Any, database_url: str) -> None:
    """The batch's ledger is checked in memory (ledger.Batch): a player's second bet in the batch sees the first
    one's debit, and one that the two together cannot cover is refused alone, the rest still one transaction."""
    c, service = _open(make_casino, database_url)
    two = [{"kind": "red", "amount": 200}]
    first = service.batches.submit("ruleta", "pobre", two, ("pobre:1", "x"))            # 2 € of 3 €
    ana = service.batches.submit("ruleta", "ana", RED, ("ana:1", "x"))
    second = service.batches.submit("ruleta", "pobre", two, ("pobre:2", "y"))           # 2 € more: 1 € left
    luis = service.batches.submit("ruleta", "luis", RED, ("luis:1", "x"))
    third = service.batches.submit("ruleta", "pobre", [{"kind": "red", "amount": 100}], ("pobre:3", "z"))
    service.batches.flush("ruleta")
    assert _answer(first)["balance"] == 100
    assert isinstance(_answer(second), TapeteError) and _answer(second).code == "insufficient-funds"
    assert _answer(third)["balance"] == 0                     # the refused bet took nothing from the wallet
    assert [_answer(r)["balance"] for r in (ana, luis)] == [99_500, 99_500]
    ids = [_answer(r)["bets"][0]["id"] for r in (first, ana, luis, third)]
    assert _one_transaction(service, *ids)                    # checked in memory, not by the fallback one by one
    assert c.balance("pobre") == 0 and c.balance("ana") == 99_500
    c.ledger()


def test_a_batch_books_one_ledger_transaction_per_request_with_its_postings(make_casino: Any, database_url: str) -> None:
    """Written together, the ledger still reads request by request: one balanced transaction per request, by
    its player, holding that request's postings (a layout's several bets in one)."""
    c, service = _open(make_casino, database_url)
    layout = [{"kind": "straight", "on": [n], "amount": 100} for n in (1, 2, 3)]
    queued = [service.batches.submit("ruleta", "ana", layout, ("ana:l", "x")),
              service.batches.submit("ruleta", "luis", RED, ("luis:l", "x")),
              service.batches.submit("ruleta", "ana", RED, ("ana:m", "x"))]
    statements: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        statements.append(" ".join(statement.split()).lower())

    event.listen(service.db.engine, "before_cursor_execute", seen)
    try:
        service.batches.flush("ruleta")
    finally:
        event.remove(service.db.engine, "before_cursor_execute", seen)
    # one set of ledger statements for the batch: the balances (one executemany), the transactions, the postings
    # (on PostgreSQL, clauses of the batch's one folded write: hot.Folded)
    assert [sum(x.count(s) for x in statements) for s in ("update accounts set", "insert into ledger_tx", "insert into postings")] == [1, 1, 1]
    assert [_answer(r)["balance"] for r in queued] == [99_700, 99_500, 99_200]
    with service.db.read() as conn:
        txs = conn.execute(select(ledger_tx.c.id, ledger_tx.c.actor).where(ledger_tx.c.kind == "bet").order_by(ledger_tx.c.id)).all()
        lines = {t: conn.execute(select(postings.c.account_id, postings.c.amount, postings.c.bet_id)
                                 .where(postings.c.tx_id == t)).all() for t, _ in txs}
    assert [a for _, a in txs] == ["ana", "luis", "ana"]
    assert [sorted({b for _, _, b in lines[t]}) for t, _ in txs] == [["b1", "b2", "b3"], ["b4"], ["b5"]]
    assert all(sum(m for _, m, _ in lines[t]) == 0 for t, _ in txs)
    assert c.balance("ana") == 99_200 and c.balance("luis") == 99_500
    c.ledger()


def test_no_va_mas_closes_the_open_batch_first(make_casino: Any, database_url: str) -> None:
    c, service = _open(make_casino, database_url)
    queued = service.batches.submit("ruleta", "ana", RED, ("ana:q", "x"))      # waiting for its batch
    c.post("croupier", "/api/tables/ruleta/close")                               # no va más
    assert queued.future.done() and _answer(queued)["bets"][0]["id"] == "b1"      # written before the close
    late = service.batches.submit("ruleta", "luis", RED, ("luis:q", "x"))
    service.batches.flush("ruleta")
    assert isinstance(_answer(late), TapeteError) and _answer(late).code == "bet-closed"
    result = c.post("croupier", "/api/tables/ruleta/draw")
    assert set(result["bets"]) | set(result.get("pending", {})) == {"b1"}
    assert c.balance("luis") == 100_000
    c.ledger()


CHILD = textwrap.dedent("""
    import json, os, signal, sys
    from fastapi.testclient import TestClient
    from tapete.server.http.app import create_app
    from tapete.server.config import CasinoConfig, validate

    config = validate(CasinoConfig.model_validate(json.loads(sys.argv[1])))
    with TestClient(create_app(config, sys.argv[2], clock=False)) as client:
        service = client.app.state.server.service
        service.batches.after_commit = lambda *_: os.kill(os.getpid(), signal.SIGKILL)   # committed, nobody told
        queued = [service.batches.submit("ruleta", p, [{"kind": "red", "amount": 500}], (p + ":crash", "fp"))
                  for p in ("ana", "luis", "eva")]
        service.batches.flush("ruleta")
        print("answered", flush=True)    # never reached
""")


def test_sigkill_between_a_batch_commit_and_its_answers_pays_nothing_twice(make_casino: Any, database_url: str) -> None:
    c, service = _open(make_casino, database_url)
    config = casino_config([TABLE], PLAYERS).model_dump(mode="json")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[2] / "src"), os.environ.get("PYTHONPATH", "")])}
    child = subprocess.run([sys.executable, "-c", CHILD, json.dumps(config), database_url], capture_output=True, env=env,
                           timeout=120)
    assert child.returncode == -9, child.stderr.decode()[-2000:]
    assert b"answered" not in child.stdout
    service.forget("ruleta")                                   # another process wrote the table
    engine = create_engine(normalise_url(database_url))
    try:
        with engine.connect() as conn:                         # the batch is there, once
            assert conn.execute(select(func.count()).select_from(bets)).scalar_one() == 3
            assert conn.execute(select(func.count()).select_from(idempotency).where(idempotency.c.key.like("%:crash"))).scalar_one() == 3
        # Each player retries his request, same key and body, as a client does when its answer was lost.
        retries = [service.batches.submit("ruleta", p, RED, (p + ":crash", "fp")) for p in ("ana", "luis", "eva")]
        service.batches.flush("ruleta")
        assert sorted(_answer(r)["bets"][0]["id"] for r in retries) == ["b1", "b2", "b3"]
        with engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(bets)).scalar_one() == 3
            collected = conn.execute(select(func.count()).select_from(postings).join(ledger_tx, ledger_tx.c.id == postings.c.tx_id)
                                     .where(ledger_tx.c.kind == "bet", postings.c.account_id.like("wallet:%"))).scalar_one()
            assert collected == 3                              # collected once each
            for p in ("ana", "luis", "eva"):
                assert ledger.balance(conn, ledger.wallet(p)) == 99_500
    finally:
        engine.dispose()
    c.post("croupier", "/api/tables/ruleta/close")
    c.post("croupier", "/api/tables/ruleta/draw")
    c.ledger()


def test_bets_queued_while_the_draw_is_written_are_refused_without_waiting(make_casino: Any, sqlite_url: str) -> None:
    c, service = _open(make_casino, sqlite_url)
    c.post("croupier", "/api/tables/ruleta/close")
    held, release = threading.Event(), threading.Event()

    def draw_being_written() -> None:
        with service.batches.table_lock("ruleta"):
            held.set()
            release.wait(30)

    holder = threading.Thread(target=draw_being_written)
    holder.start()
    held.wait(10)
    service._closed_busy["ruleta"] = 1                        # as _run marks a transaction begun after no va más
    try:
        late = service.batches.submit("ruleta", "ana", RED, ("ana:late", "x"))
        flusher = threading.Thread(target=service.batches.flush, args=("ruleta",))
        flusher.start()
        flusher.join(10)
        assert not flusher.is_alive()                         # answered without waiting for the table's lock
    finally:
        service._closed_busy.pop("ruleta", None)
        release.set()
        holder.join(10)
    assert isinstance(_answer(late), TapeteError) and _answer(late).code == "bet-closed"


def test_a_broadcast_is_made_and_serialised_once_per_view() -> None:
    import asyncio

    from tapete.server.http.fanout import Fanout

    fanout, made = Fanout(), []

    def make() -> dict[str, Any]:
        made.append(1)
        return {"seq": 7, "data": {"number": 17, 3: "int key"}}

    async def watchers() -> list[str]:
        return await asyncio.gather(*(fanout.text(("ruleta", 7, ""), make) for _ in range(1000)))

    texts = asyncio.run(watchers())
    assert len(made) == 1 and len(set(texts)) == 1
    assert json.loads(texts[0]) == {"seq": 7, "data": {"number": 17, "3": "int key"}}
    record = {"seq": 8, "kind": "bet", "data": {"player": "ana", "event": {"bet": {"player": "ana"}}}}
    assert fanout.named("ruleta", record) == {"ana"}          # ana sees her own view, everyone else the shared one


def test_the_bet_lane_and_the_endpoint_fingerprint_a_retry_alike(make_casino: Any, sqlite_url: str) -> None:
    c, service = _open(make_casino, sqlite_url)
    body = {"bets": [{"kind": "straight", "on": [17], "amount": 100}]}
    first = c.bet("ana", "ruleta", *body["bets"], key="same-key")            # the lane: a cached bearer session
    c.client.app.state.server.auth._cache.clear()                             # the retry misses the cache: the endpoint
    again = c.bet("ana", "ruleta", *body["bets"], key="same-key")
    assert again == first and c.balance("ana") == 99_900
    other = c.bet("ana", "ruleta", {"kind": "red", "amount": 100}, key="same-key", expect=422)
    assert other["error"]["code"] == "idempotency-key-reused"
    unreadable = c.bet("ana", "ruleta", {"kind": "red", "amount": "cien"}, expect=422)   # the model's own answer
    assert unreadable["error"]["code"] == "bad-request"
