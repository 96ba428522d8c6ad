"""Alembic migrations, shipped inside the package so that an installed tapete can migrate its database without
a checkout. Upgrades are explicit (issue 29): `tapete db upgrade` runs them, after a backup; every other command
and the server call `ensure_current(db)`, which creates a new, empty database at the head revision and refuses
one behind (or ahead of) the code with one line saying what to run."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tapete.core.errors import TapeteError

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


@dataclass(frozen=True)
class SchemaState:
    """Where a database stands against the migrations this tapete ships."""

    current: frozenset[str]      # the database's revisions (empty: no alembic_version yet)
    heads: frozenset[str]        # the code's head revisions
    empty: bool                  # no table at all: a new database

    @property
    def status(self) -> str:
        """`current`, `new` (empty), `behind` (an upgrade is due) or `unknown` (a revision this code lacks)."""
        if self.current == self.heads:
            return "current"
        if self.empty:
            return "new"
        known = set(_all_revisions())
        if self.current - known:
            return "unknown"
        return "behind"


def _all_revisions() -> list[str]:
    from alembic.script import ScriptDirectory

    return [s.revision for s in ScriptDirectory.from_config(alembic_config()).walk_revisions()]


def state(db: Any) -> SchemaState:
    """The database's revisions against the code's heads (reads only)."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory
    from sqlalchemy import inspect

    heads = frozenset(ScriptDirectory.from_config(alembic_config()).get_heads())
    with db.engine.connect() as conn:
        current = frozenset(MigrationContext.configure(conn).get_current_heads())
        empty = not inspect(conn).get_table_names()
    return SchemaState(current, heads, empty)


def ensure_current(db: Any) -> SchemaState:
    """A new database is created at head; one at head passes; any other is refused in one line (what to run)."""
    found = state(db)
    if found.status == "new":
        upgrade(db)
        return state(db)
    if found.status == "behind":
        raise TapeteError("schema-behind", f"the database is at revision {_names(found.current)}, this tapete needs "
                          f"{_names(found.heads)}: run `tapete db upgrade` (it backs the database up first)")
    if found.status == "current":
        why = quarantined(db)
        if why:
            raise TapeteError("restore-unverified", f"this database was restored but failed its verification ({why[:300]}): "
                              "restore a good backup, or have the inspector examine it (`tapete audit export`)")
    if found.status == "unknown":
        raise TapeteError("schema-ahead", f"the database is at revision {_names(found.current)}, which this tapete "
                          f"does not know (it ships up to {_names(found.heads)}): run the newer tapete that wrote it")
    return found


def _names(revisions: frozenset[str]) -> str:
    return " + ".join(sorted(revisions)) or "none"


QUARANTINE = "restore-unverified"      # meta_kv key: a restored database that failed its verification (audit/backup.py)


def quarantined(db: Any) -> str | None:
    """Why a restored database must not be used (its verification failed), or None."""
    from sqlalchemy import text

    with db.read() as conn:     # plain SQL: the migrations do not import the schema module that calls them
        return conn.execute(text("SELECT value FROM meta_kv WHERE key = :k"), {"k": QUARANTINE}).scalar()
