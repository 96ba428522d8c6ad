"""Backup, restore and explicit upgrades (issue 29): a backup taken while bets are being written restores to a
database whose every chain, ledger transaction, bet and wallet checks; a tampered backup is not put in place; a
database behind the code is refused by the server and by `tapete users` until `tapete db upgrade`, which backs up
first."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from typer.testing import CliRunner

from tapete.cli import app as cli
from tapete.server.audit import backup as backups
from tapete.server.storage.db import Database, bets
from tapete.server.storage.migrations import quarantined

ROULETTE = {"id": "ru", "game": "roulette-french", "jurisdiction": "ES", "auto": False, "table": {"minimum": 100}}


def tapete(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def play_under_load(c: Any, take_backup: Any) -> tuple[int, int, Any]:
    """Rounds at the roulette while a thread keeps betting; `take_backup()` runs in the middle of it.
    Returns (bets before the backup, bets after it, what take_backup returned)."""
    stop = threading.Event()

    def bettor() -> None:
        while not stop.is_set():
            for player in ("ana", "luis"):
                c.post(player, "/api/tables/ru/bets", {"bets": [{"kind": "red", "amount": 100}]}, expect=None)

    def count() -> int:
        with c.client.app.state.server.db.read() as conn:
            return conn.execute(select(func.count()).select_from(bets)).scalar_one()

    c.post("croupier", "/api/tables/ru/open", key=None)
    worker = threading.Thread(target=bettor, daemon=True)
    worker.start()
    try:
        for _ in range(3):                                   # settled rounds before the backup
            landed = count()
            deadline = time.monotonic() + 30
            while count() == landed and time.monotonic() < deadline:   # a loaded machine: the bettor's turn comes
                time.sleep(0.02)
            c.post("croupier", "/api/tables/ru/close", expect=None)
            c.post("croupier", "/api/tables/ru/draw", expect=None)
            c.post("croupier", "/api/tables/ru/open", key=None, expect=None)
        before = count()
        taken = take_backup()
        after = count()
    finally:
        stop.set()
        worker.join(10)
    return before, after, taken


def restored_facts(db: Database) -> dict[str, Any]:
    from tapete.server.money import ledger

    with db.read() as conn:
        return {"bets": conn.execute(select(func.count()).select_from(bets)).scalar_one(),
                "balances": ledger.balances(conn)}


def test_sqlite_backup_under_load_restores_every_bet_wallet_and_chain(make_casino: Any, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'casino.db'}"
    c = make_casino([ROULETTE], url)
    target = tmp_path / "casino.backup"
    before, after, _ = play_under_load(c, lambda: tapete("backup", "--database", url, "-o", str(target)))
    assert before > 0 and target.is_file()
    restored_url = f"sqlite:///{tmp_path / 'restored.db'}"
    answer = tapete("restore", str(target), "--database", restored_url)
    assert answer.exit_code == 0, answer.output
    assert "restored and verified" in answer.output
    db = Database(restored_url)
    found = backups.verify_restored(db)
    assert found.ok and found.tables == 1 and found.records > 0, found
    facts = restored_facts(db)
    assert before <= facts["bets"] <= after                 # one committed state between the two counts
    assert sum(facts["balances"].values()) == 0
    db.dispose()


def test_postgres_backup_under_load_restores_every_bet_wallet_and_chain(make_casino: Any, postgres: Any, tmp_path: Path) -> None:
    url = postgres.create_database()
    c = make_casino([ROULETTE], url)
    target = tmp_path / "casino.dump"
    before, after, answer = play_under_load(c, lambda: tapete("backup", "--database", url, "-o", str(target)))
    assert answer.exit_code == 0, answer.output
    fresh = postgres.create_database()
    answer = tapete("restore", str(target), "--database", fresh)
    assert answer.exit_code == 0, answer.output
    db = Database(fresh)
    facts = restored_facts(db)
    assert before <= facts["bets"] <= after and sum(facts["balances"].values()) == 0
    assert quarantined(db) is None
    db.dispose()
    refused = tapete("restore", str(target), "--database", fresh)            # never over a database in use
    assert refused.exit_code == 2 and "not empty" in refused.output


def test_a_tampered_sqlite_backup_is_not_put_in_place(make_casino: Any, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'casino.db'}"
    c = make_casino([ROULETTE], url)
    c.post("croupier", "/api/tables/ru/open", key=None)
    c.bet("ana", "ru", {"kind": "red", "amount": 500})
    target = tmp_path / "casino.backup"
    assert tapete("backup", "--database", url, "-o", str(target)).exit_code == 0
    with sqlite3.connect(target) as conn:                    # someone moves 5,000.00 into a wallet in the copy
        conn.execute("UPDATE postings SET amount = amount + 500000 WHERE account_id = 'wallet:ana'")
    answer = tapete("restore", str(target), "--database", f"sqlite:///{tmp_path / 'restored.db'}")
    assert answer.exit_code == 1, answer.output
    assert "FAILED its verification" in answer.output and "does not balance" in answer.output
    assert not (tmp_path / "restored.db").exists()


def test_a_tampered_postgres_restore_is_refused_until_replaced(make_casino: Any, postgres: Any, tmp_path: Path) -> None:
    import psycopg

    url = postgres.create_database()
    c = make_casino([ROULETTE], url)
    c.post("croupier", "/api/tables/ru/open", key=None)
    c.bet("ana", "ru", {"kind": "red", "amount": 500})
    with psycopg.connect(url, autocommit=True) as conn:      # the database itself was edited before the backup
        conn.execute("UPDATE postings SET amount = amount + 500000 WHERE account_id = 'wallet:ana'")
    target = tmp_path / "casino.dump"
    assert tapete("backup", "--database", url, "-o", str(target)).exit_code == 0
    fresh = postgres.create_database()
    answer = tapete("restore", str(target), "--database", fresh)
    assert answer.exit_code == 1 and "does not balance" in answer.output, answer.output
    users = tapete("users", "list", "--database", fresh)
    assert users.exit_code == 2 and "failed its verification" in users.output, users.output
    with pytest.raises(Exception, match="failed its verification"):
        make_casino([ROULETTE], fresh)


def old_database(url: str) -> Database:
    from tapete.server.storage.migrations import upgrade

    db = Database(url)
    upgrade(db, "0003")
    return db


def test_an_old_database_is_refused_until_db_upgrade(make_casino: Any, database_url: str, tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)                 # a PostgreSQL upgrade's backup lands in the working folder
    old_database(database_url).dispose()
    status = tapete("db", "status", "--database", database_url)
    assert status.exit_code == 1 and "schema revision: 0003" in status.output and "tapete db upgrade" in status.output
    users = tapete("users", "list", "--database", database_url)
    assert users.exit_code == 2, users.output
    line = users.output.strip()
    assert "\n" not in line and "0003" in line and "tapete db upgrade" in line, line
    with pytest.raises(Exception, match="tapete db upgrade"):
        make_casino([ROULETTE], database_url)
    upgraded = tapete("db", "upgrade", "--database", database_url)
    if database_url.startswith("postgresql") and "missing-tool" in upgraded.output:
        pytest.skip("pg_dump is not installed here")
    assert upgraded.exit_code == 0, upgraded.output
    assert "schema upgraded: 0003 ->" in upgraded.output and "backup first:" in upgraded.output
    saved = Path(upgraded.output.rsplit("backup first: ", 1)[1].strip())
    assert saved.is_file() and saved.stat().st_size > 0
    assert tapete("db", "status", "--database", database_url).exit_code == 0
    assert tapete("users", "list", "--database", database_url).exit_code == 0
    c = make_casino([ROULETTE], database_url)
    assert c.get(None, "/api/tables")["tables"][0]["id"] == "ru"


def test_serve_refuses_an_old_database_in_one_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    old_database(url).dispose()
    answer = tapete("serve", "--database", url, "--port", "0")
    assert answer.exit_code == 2
    assert "tapete db upgrade" in answer.output and len(answer.output.strip().splitlines()) == 1, answer.output


def test_backup_and_restore_refusals_are_one_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'casino.db'}"
    assert tapete("users", "add", "bob", "-r", "player", "--password-stdin", "--database", url,
                  ).exit_code in (0, 2)         # creates the database (or refuses the empty stdin password)
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"not a backup" * 10)
    for args, words in (
        (("backup", "--database", f"sqlite:///{tmp_path / 'none.db'}", "-o", str(tmp_path / "x")), "no database file"),
        (("restore", str(junk), "--database", f"sqlite:///{tmp_path / 'r.db'}"), "is not a backup"),
        (("restore", str(tmp_path / "missing"), "--database", f"sqlite:///{tmp_path / 'r.db'}"), "cannot read"),
        (("db", "upgrade", "--database", f"sqlite:///{tmp_path / 'none.db'}"), "no database file"),
    ):
        answer = tapete(*args)
        assert answer.exit_code == 2, (args, answer.output)
        assert words in answer.output and len(answer.output.strip().splitlines()) == 1, (args, answer.output)
    assert not (tmp_path / "r.db").exists()

