"""The casino file: validated against each game's rules at start-up; opening hours; the example casino."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tapete.core.errors import TapeteError
from tapete.server.config import CasinoConfig, demo, load, validate

ROOT = Path(__file__).resolve().parents[2]


def config(**table: object) -> CasinoConfig:
    return CasinoConfig.model_validate({"tables": [{"id": "t1", "game": "roulette-french", "table": {"minimum": 100}, **table}]})


def test_the_engine_refuses_what_the_jurisdiction_does_not_allow() -> None:
    with pytest.raises(TapeteError) as exc:     # ES fixes its maxima: a casino may not set one (001:115-123)
        validate(config(jurisdiction="ES", table={"minimum": 100, "maximum-straight": 5000}))
    assert exc.value.code == "bad-config" and "t1" in exc.value.message and "001:" in exc.value.message
    with pytest.raises(TapeteError, match="unknown table key"):
        validate(config(table={"minimum": 100, "colour": "green"}))
    with pytest.raises(TapeteError, match="unknown game"):
        validate(CasinoConfig.model_validate({"tables": [{"id": "t1", "game": "parchis", "table": {"minimum": 100}}]}))
    with pytest.raises(ValueError):
        CasinoConfig.model_validate({"tables": [{"id": "t1", "game": "roulette-french", "timing": {"bets": -1}}]})
    with pytest.raises(ValueError):
        CasinoConfig.model_validate({"tables": [{"id": "t1", "game": "roulette-french", "hours": ["9-17"]}]})
    validate(config(jurisdiction="ES-AN", table={"minimum": 100, "maximum-straight": 5000}))   # ES-AN: the authorisation sets it


def test_opening_hours_span_midnight() -> None:
    c = config(hours=["20:00-04:00"])
    t = c.tables[0]
    madrid = ZoneInfo("Europe/Madrid")
    assert c.is_open(t, datetime(2025, 3, 1, 23, 30, tzinfo=madrid))
    assert c.is_open(t, datetime(2025, 3, 2, 3, 59, tzinfo=madrid))
    assert not c.is_open(t, datetime(2025, 3, 2, 4, 0, tzinfo=madrid))
    assert not c.is_open(t, datetime(2025, 3, 2, 12, 0, tzinfo=madrid))
    assert config().is_open(config().tables[0], datetime(2025, 3, 2, 12, 0, tzinfo=madrid))


def test_example_and_demo_casinos_validate() -> None:
    example = load(ROOT / "examples" / "casino.toml")
    assert {t.game for t in example.tables} >= {"roulette-french"}
    assert validate(demo()).tables


def test_serve_refuses_a_bad_casino_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[[tables]]\nid = "t1"\ngame = "roulette-french"\njurisdiction = "ES"\ntable = {minimum = 100, tier = 9}\n')
    run = subprocess.run([sys.executable, "-m", "tapete.cli", "serve", "--config", str(bad)], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 2 and "bad-config" in run.stderr and "tier" in run.stderr


def test_migrations_build_the_schema_the_code_uses(tmp_path: Path) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from tapete.server.storage.db import Database, metadata

    db = Database(f"sqlite:///{tmp_path / 'm.db'}")
    db.migrate()
    db.migrate()                                   # idempotent: already at head
    with db.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    db.dispose()


def test_the_staff_log_head_migration_fills_the_head_of_an_existing_log(tmp_path: Path) -> None:
    """A database whose staff log was written before the head was stored gets its head from the log as it stands
    (migration 0004): the check against the head then passes, and catches the next tampering."""
    from sqlalchemy import delete

    from tapete.server.audit import staff_log
    from tapete.server.storage.db import Database, meta_kv
    from tapete.server.storage.migrations import upgrade

    db = Database(f"sqlite:///{tmp_path / 'm.db'}")
    upgrade(db, "0003")
    with db.write() as conn:
        staff_log.record(conn, "config", "account-created", "ana", {})
        staff_log.record(conn, "cajero", "deposit", "ana", {"amount": 500})
        conn.execute(delete(meta_kv).where(meta_kv.c.key == staff_log.HEAD_KEY))     # as before the head existed
    upgrade(db)
    with db.read() as conn:
        head = staff_log.head(conn)
        assert head[0] == 2 and staff_log.verify(staff_log.rows(conn), head)["ok"]
    db.dispose()
