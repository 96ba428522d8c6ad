"""Backup and restore of the casino's database (issue 29), and the explicit schema upgrade that backs up first.

- SQLite: the online backup API (`sqlite3.Connection.backup`), page by page under SQLite's own locking, so a
  running server keeps taking bets while the copy is made and the copy is one committed state.
- PostgreSQL: `pg_dump` in its custom format (a consistent snapshot, also while the server runs) and
  `pg_restore` into an empty database; both from Debian's PostgreSQL client, refused in one line where absent.

A restore is checked before any server may use it: the staged copy's schema, every table's hash chain and the
ledger (`verify_restored`). A SQLite copy that fails is never put in place; a PostgreSQL database that fails is
marked in `meta_kv` (`restore-unverified`) and every command and the server refuse it until it is fixed.
"""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tapete.core.errors import TapeteError
from tapete.server.storage.migrations import QUARANTINE

SQLITE_MAGIC = b"SQLite format 3\x00"
PGDUMP_MAGIC = b"PGDMP"


@dataclass
class Verification:
    """What a restore checked: each table's chain, the ledger; `problems` in sentences (empty: all holds)."""

    tables: int = 0
    records: int = 0
    transactions: int = 0
    bets: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def sqlite_path(db: Any) -> Path:
    path = db.url.split("///", 1)[-1]
    if not path or path == ":memory:":
        raise TapeteError("bad-option", "--database: an in-memory SQLite database has nothing to back up")
    return Path(path)


def pg_tool(name: str) -> str:
    """The newest Debian PostgreSQL client tool (`pg_dump`, `pg_restore`), or a one-line refusal."""
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=_version, reverse=True)
    tool = found[0] if found else shutil.which(name)
    if not tool:
        raise TapeteError("missing-tool", f"{name} is not installed: install PostgreSQL's client "
                          "(apt-get install postgresql-client) to back up or restore a PostgreSQL database")
    return tool


def _version(path: str) -> int:
    part = Path(path).parts[-3]
    return int(part) if part.isdigit() else 0


def _libpq_url(db: Any) -> str:
    """The URL as libpq's tools take it (without SQLAlchemy's `+psycopg`)."""
    return db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


def backup(db: Any, target: Path) -> Path:
    """Write a consistent copy of `db` to `target` (refused if it exists), while the server may be running."""
    if target.exists():
        raise TapeteError("bad-option", f"-o: {target} exists: a backup never overwrites a file")
    if not target.parent.is_dir():
        raise TapeteError("bad-option", f"-o: no folder {target.parent}")
    if db.is_sqlite:
        source = sqlite_path(db)
        if not source.is_file():
            raise TapeteError("bad-option", f"--database: no database file {source}")
        partial = target.with_name(target.name + ".partial")
        try:
            with sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30) as src, sqlite3.connect(partial) as dst:
                src.backup(dst, pages=1024)
                dst.execute("PRAGMA journal_mode=DELETE")     # one self-contained file (no -wal, -shm beside it)
            partial.replace(target)
        finally:
            partial.unlink(missing_ok=True)
        return target
    done = subprocess.run([pg_tool("pg_dump"), "--format=custom", "--no-owner", f"--file={target}", _libpq_url(db)],
                          capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        target.unlink(missing_ok=True)
        raise TapeteError("backup-failed", f"pg_dump: {(done.stderr.strip().splitlines() or ['failed'])[-1]}")
    return target


def default_name(db: Any, why: str) -> Path:
    """`<database>.<why>-<UTC time>.backup` beside a SQLite file, or in the working folder for PostgreSQL."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    if db.is_sqlite:
        path = sqlite_path(db)
        return path.with_name(f"{path.name}.{why}-{stamp}.backup")
    return Path.cwd() / f"tapete-{db.engine.url.database}.{why}-{stamp}.dump"


def kind_of(file: Path) -> str:
    """`sqlite` or `pg_dump` by the file's first bytes; a one-line refusal for anything else."""
    try:
        with file.open("rb") as f:
            head = f.read(16)
    except OSError as exc:
        raise TapeteError("bad-option", f"FILE: cannot read {file}: {exc.strerror}") from None
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PGDUMP_MAGIC):
        return "pg_dump"
    raise TapeteError("bad-document", f"FILE: {file} is not a backup of `tapete backup` (a SQLite database or a "
                      "pg_dump custom-format file)")


def verify_restored(db: Any) -> Verification:
    """The whole reconciliation of `tapete audit verify` (audit/verify.py): every table's hash chain, the ledger's
    chains, every posting, balance, bet and round record bound to them."""
    from tapete.server.audit.verify import verify_database

    report = verify_database(db)
    return Verification(tables=len(report.heads.get("tables", {})),
                        records=report.checked.get("log records", 0),
                        transactions=report.checked.get("ledger transactions", 0),
                        bets=report.checked.get("bets", 0), problems=list(report.problems))


def existing_sqlite(url: str | None) -> bool | None:
    """Whether the SQLite file of `url` exists (None: not a SQLite URL), asked before anything opens it."""
    from tapete.server.storage.db import database_url, normalise_url

    full = normalise_url(database_url(url))
    if not full.startswith("sqlite"):
        return None
    path = full.split("///", 1)[-1]
    return bool(path) and path != ":memory:" and Path(path).is_file() and Path(path).stat().st_size > 0


def restore(file: Path, db: Any, *, force: bool = False, existed: bool = True) -> Verification:
    """Restore `file` into `db`'s place after checking it; see the module's docstring for what is checked.
    `existed`: whether a SQLite target was there before this command opened it (an empty file it made is not)."""
    kind = kind_of(file)
    if kind == "sqlite" and not db.is_sqlite:
        raise TapeteError("bad-option", "FILE is a SQLite backup: restore it into a SQLite --database")
    if kind == "pg_dump" and db.is_sqlite:
        raise TapeteError("bad-option", "FILE is a PostgreSQL dump: restore it into a PostgreSQL --database")
    if kind == "sqlite":
        return _restore_sqlite(file, db, force, existed)
    return _restore_postgres(file, db, force)


def _restore_sqlite(file: Path, db: Any, force: bool, existed: bool) -> Verification:
    from tapete.server.storage.db import Database
    from tapete.server.storage.migrations import state, upgrade

    target = sqlite_path(db)
    if existed and not force:
        raise TapeteError("bad-option", f"--database: {target} exists: restore into a new file, or give --force "
                          "(the old file is kept beside it as .replaced-<time>)")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, staged_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".restoring", dir=target.parent)
    os.close(fd)
    staged = Path(staged_name)
    try:
        with sqlite3.connect(f"file:{file}?mode=ro", uri=True) as src, sqlite3.connect(staged) as dst:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")
        copy = Database(f"sqlite:///{staged}")
        try:
            if state(copy).status == "behind":
                upgrade(copy)                  # an older backup: its copy is brought to this tapete's schema
            found = verify_restored(copy)
        finally:
            copy.dispose()
        if not found.ok:                       # never put in place; an empty file opening the URL made goes too
            if not existed:
                db.dispose()
                target.unlink(missing_ok=True)
            return found
        db.dispose()
        if not existed:
            target.unlink(missing_ok=True)             # the empty file opening the URL made
        elif target.exists():
            target.replace(target.with_name(f"{target.name}.replaced-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}"))
        for suffix in ("-wal", "-shm"):
            Path(f"{target}{suffix}").unlink(missing_ok=True)
        staged.replace(target)
        return found
    finally:
        staged.unlink(missing_ok=True)


def _restore_postgres(file: Path, db: Any, force: bool) -> Verification:
    from sqlalchemy import inspect, text

    from tapete.server.storage.migrations import state, upgrade

    with db.engine.connect() as conn:
        tables = inspect(conn).get_table_names()
    if tables and not force:
        raise TapeteError("bad-option", f"--database: {db.engine.url.database} is not empty: restore into a new, empty "
                          "database (createdb), or give --force to drop its tables first")
    if tables:
        with db.engine.begin() as conn:
            conn.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    done = subprocess.run([pg_tool("pg_restore"), "--no-owner", "--exit-on-error", f"--dbname={_libpq_url(db)}", str(file)],
                          capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise TapeteError("restore-failed", f"pg_restore: {(done.stderr.strip().splitlines() or ['failed'])[-1]}")
    if state(db).status == "behind":
        upgrade(db)
    found = verify_restored(db)
    if not found.ok:
        with db.engine.begin() as conn:
            conn.execute(text("INSERT INTO meta_kv (key, value) VALUES (:k, :v)"),
                         {"k": QUARANTINE, "v": "; ".join(found.problems)[:2000]})
    return found
