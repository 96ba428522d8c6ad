"""Alembic migrations, shipped inside the package so that an installed `tapete serve` can migrate its
database without a checkout: `upgrade(db)` runs them to head on the database's own connection."""

from __future__ import annotations

from pathlib import Path
from typing import Any

HERE = Path(__file__).parent


def alembic_config(url: str | None = None) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    if url:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade(db: Any, revision: str = "heads") -> None:
    """Bring the database to `revision` (every head: branches that add independent tables need no merge
    revision); concurrent servers on PostgreSQL serialise on an advisory lock."""
    from alembic import command

    cfg = alembic_config(db.url)
    with db.engine.begin() as conn:
        if not db.is_sqlite:
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7411000)")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
