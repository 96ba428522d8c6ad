"""Crash recovery with a real `tapete serve` (uvicorn) on 127.0.0.1, killed with SIGKILL mid-round under load.

Players keep betting (each request with its Idempotency-Key, retried with the same key after a failure) on an
electronic roulette whose clock runs rounds of under a second; the server is killed, restarted on the same
database, and the load goes on. Then: every bet a player was told about exists exactly once, none was
collected or paid twice, every wallet equals its chips minus its stakes plus its returns, the ledger sums to
zero, and the audit chain holds.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, func, select

from tapete.server.audit import chains as audit
from tapete.server.money import ledger
from tapete.server.storage.db import bets, casino_tables, ledger_tx, normalise_url, postings

from .conftest import PASSWORD, Player, ServerProcess, write_config  # type: ignore[import-not-found]

PLAYERS = {f"p{i}": 50_000 for i in range(8)}
FAST = {"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES", "auto": True,
        "table": {"minimum": 100}, "timing": {"bets": 0.35, "spin": 0.05, "pause": 0.05}}


def wait_settled(url: str, timeout: float = 20.0) -> None:
    engine = create_engine(normalise_url(url))
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            with engine.connect() as conn:
                if conn.execute(select(func.count()).select_from(bets).where(bets.c.status == "open")).scalar_one() == 0:
                    return
            time.sleep(0.2)
        with engine.connect() as conn:          # what is still open, and where its table stands: the failure says it
            still = conn.execute(select(bets.c.table_id, bets.c.round_id, func.count()).where(bets.c.status == "open")
                                 .group_by(bets.c.table_id, bets.c.round_id)).all()
            tables = conn.execute(select(casino_tables.c.id, casino_tables.c.phase, casino_tables.c.round_no,
                                         casino_tables.c.round_id, casino_tables.c.deadline)).all()
    finally:
        engine.dispose()
    raise AssertionError(f"bets still open (table, round id, bets): {still}; tables (id, phase, round, round id, "
                         f"deadline - now): {[(*t[:4], t[4] and round(t[4] - time.time(), 1)) for t in tables]}")


def check_books(url: str, players: list[Player]) -> dict[str, Any]:
    engine = create_engine(normalise_url(url))
    try:
        with engine.connect() as conn:
            report = ledger.check(conn)
            assert report["ok"], report
            rows = {r["bet_id"]: dict(r) for r in conn.execute(select(bets)).mappings()}
            for p in players:                  # no bet lost, none invented
                mine = {b: r["amount"] for b, r in rows.items() if r["player"] == p.name_}
                told = {bet: amount for (_, bet), amount in p.known.items()}
                assert mine == told, (p.name_, set(mine) ^ set(told))
            per_bet = conn.execute(
                select(postings.c.bet_id, ledger_tx.c.kind, func.count())
                .join(ledger_tx, ledger_tx.c.id == postings.c.tx_id)
                .where(postings.c.account_id.like("wallet:%"), postings.c.bet_id.is_not(None))
                .group_by(postings.c.bet_id, ledger_tx.c.kind)).all()
            for bet_id, kind, count in per_bet:   # collected once, paid at most once
                assert count == 1, (bet_id, kind, count)
            assert {b for b, k, _ in per_bet if k == "bet"} == set(rows)
            for p in players:
                returned = sum(r["returned"] for r in rows.values() if r["player"] == p.name_)
                staked = sum(r["collected"] for r in rows.values() if r["player"] == p.name_)
                assert ledger.balance(conn, ledger.wallet(p.name_)) == PLAYERS[p.name_] - staked + returned
            chain = audit.verify_chain(audit.iter_rows(conn))
            assert chain["ok"], chain
            kinds = [r["kind"] for r in audit.iter_rows(conn, "ruleta")]
    finally:
        engine.dispose()
    from tapete.server.audit.verify import verify_database  # and the books reconcile with the chained logs
    from tapete.server.storage.db import Database

    db = Database(url)
    try:
        books = verify_database(db)
        assert books.ok, books.problems
    finally:
        db.dispose()
    return {"bets": len(rows), "recovered": kinds.count("recovered"), "report": report}


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_sigkill_mid_round_under_load(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    url = f"sqlite:///{tmp_path / 'casino.db'}" if backend == "sqlite" else request.getfixturevalue("postgres").create_database()
    config = write_config(tmp_path / "casino.toml", [FAST], PLAYERS)
    server = ServerProcess(config, url).start()
    base = [server.base]
    stop = threading.Event()
    players = [Player(name, "ruleta", base, stop, timeout=3.0) for name in PLAYERS]
    try:
        for p in players:
            p.start()
        time.sleep(1.5)
        server.kill()                          # SIGKILL, mid-round: bets open or a spin in flight
        time.sleep(0.3)
        server.start()
        time.sleep(1.5)
        stop.set()
        for p in players:
            p.join(30)
        wait_settled(url)
    finally:
        stop.set()
        server.stop()
    assert not any(p.errors for p in players), [p.errors for p in players]
    assert sum(p.sent for p in players) > 20
    assert sum(p.retried for p in players) > 0          # requests were in flight when the server died
    books = check_books(url, players)
    print(f"crash test {backend}: {books['bets']} bets, {books['report']['transactions']} transactions, "
          f"{books['recovered']} recoveries")
    assert books["recovered"] >= 2             # the first start and the restart each recovered the table


def test_restart_voids_an_open_round_where_the_table_says_so(tmp_path: Path) -> None:
    """recovery = "void": a round caught open by the crash is voided and every stake handed back."""
    url = f"sqlite:///{tmp_path / 'casino.db'}"
    table = {"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES", "auto": False, "recovery": "void",
             "table": {"minimum": 100}}
    config = write_config(tmp_path / "casino.toml", [table], {"ana": 10_000})
    server = ServerProcess(config, url).start()
    try:
        with httpx.Client(base_url=server.base, timeout=5) as c:
            def login(user: str) -> dict[str, str]:
                return {"Authorization": "Bearer " + c.post("/api/login", json={"username": user, "password": PASSWORD}).json()["token"]}

            crou, ana = login("croupier"), login("ana")
            assert c.post("/api/tables/ruleta/open", headers=crou).status_code == 200
            r = c.post("/api/tables/ruleta/bets", json={"bets": [{"kind": "dozen", "on": [1], "amount": 3000}]},
                       headers={**ana, "Idempotency-Key": "k1"})
            assert r.status_code == 200 and r.json()["balance"] == 7000
            assert c.post("/api/tables/ruleta/close", json={}, headers={**crou, "Idempotency-Key": "k2"}).status_code == 200
        server.kill()
        server.start()
        with httpx.Client(base_url=server.base, timeout=5) as c:
            ana = {"Authorization": "Bearer " + c.post("/api/login", json={"username": "ana", "password": PASSWORD}).json()["token"]}
            assert c.get("/api/me", headers=ana).json()["balance"] == 10_000
            tables = c.get("/api/tables").json()["tables"]
            assert tables[0]["phase"] == "settled"
    finally:
        server.stop()
    engine = create_engine(url)
    with engine.connect() as conn:
        assert [r[0] for r in conn.execute(select(bets.c.status))] == ["void"]
        assert ledger.check(conn)["ok"]
    engine.dispose()


def outcomes(seen: list[dict[str, Any]]) -> set[int]:
    """The rounds whose outcome a stream has delivered (polled against a deadline, never a fixed sleep)."""
    return {r["data"]["round"] for r in list(seen) if r.get("kind") == "outcome"}


def health(base: str) -> dict[str, Any]:
    return httpx.get(f"{base}/api/health", timeout=3).json()


def wait_for(predicate: Any, timeout: float = 15.0, what: str = "") -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if predicate():
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def test_two_processes_share_postgres_and_take_over(postgres: Any, tmp_path: Path) -> None:
    """Two `tapete serve` on one PostgreSQL: one owns the table (advisory lock) and runs its clock, both take
    bets, a stream on the other sees the owner's events (LISTEN/NOTIFY); SIGKILL the owner and the other
    takes the table over, resumes the round, and no bet is lost or paid twice."""
    from websockets.sync.client import connect

    url = postgres.create_database()
    config = write_config(tmp_path / "casino.toml", [{**FAST, "timing": {"bets": 0.4, "spin": 0.05, "pause": 0.05}}], PLAYERS)
    first = ServerProcess(config, url).start()
    wait_for(lambda: health(first.base)["owned_tables"] == ["ruleta"], what="the first process to own the table")
    second = ServerProcess(config, url).start()
    seen: list[dict[str, Any]] = []
    stop = threading.Event()
    try:
        time.sleep(1.2)
        assert health(second.base)["owned_tables"] == []          # the lock is held by the first
        token = httpx.post(f"{second.base}/api/login", json={"username": "p0", "password": PASSWORD}).json()["token"]

        def watch() -> None:
            import json

            with connect(f"ws://127.0.0.1:{second.port}/api/tables/ruleta/stream?token={token}", open_timeout=5) as ws:
                while not stop.is_set():
                    try:
                        seen.append(json.loads(ws.recv(timeout=0.5)))
                    except TimeoutError:
                        continue
                    except Exception as exc:  # noqa: BLE001 - the server went away at the end
                        seen.append({"closed": repr(exc)})
                        return

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        bases = {name: [first.base if i % 2 else second.base] for i, name in enumerate(PLAYERS)}
        players = [Player(name, "ruleta", bases[name], stop, timeout=3.0) for name in PLAYERS]
        for p in players:
            p.start()
        wait_for(lambda: outcomes(seen), timeout=60, what="the stream on the second process to see the first one's spins")
        before = outcomes(seen)
        first.kill()
        for name in PLAYERS:
            bases[name][0] = second.base                      # the players reconnect to the survivor
        wait_for(lambda: health(second.base)["owned_tables"] == ["ruleta"], what="the takeover")
        wait_for(lambda: max(outcomes(seen), default=0) > max(before), timeout=60, what="a round under the new owner")
        stop.set()
        for p in players:
            p.join(30)
        wait_settled(url)
        watcher.join(5)
    finally:
        stop.set()
        first.stop()
        second.stop()
    assert not any(p.errors for p in players), [p.errors for p in players]
    assert max(outcomes(seen)) > max(before), seen[-5:]              # rounds went on under the new owner
    books = check_books(url, players)
    assert books["recovered"] >= 2
