"""The `--database` option of the server's commands: a URL tapete can open, checked and reached, or one line
naming the option (moved from cli_args, which sits below the server and may not import it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tapete.cli_args import BAD, first_line
from tapete.core.errors import TapeteError


def database_url(url: str | None, option: str = "--database") -> str | None:
    """A database URL tapete can open (SQLite or PostgreSQL); None keeps $TAPETE_DATABASE_URL or the default,
    which are checked the same way (the error then names the variable)."""
    import os

    from tapete.server.storage.db import database_url as resolve
    from tapete.server.storage.db import normalise_url

    where = option if url else ("$TAPETE_DATABASE_URL" if os.environ.get("TAPETE_DATABASE_URL") else option)
    full = normalise_url(resolve(url))
    try:
        from sqlalchemy.engine import make_url

        parsed = make_url(full)
        backend = parsed.get_backend_name()
    except Exception:  # noqa: BLE001 - sqlalchemy raises ArgumentError and ValueError for malformed URLs
        raise TapeteError(BAD, f"{where}: {full!r} is not a database URL (sqlite:///FILE or "
                          "postgresql://USER@HOST/DB)") from None
    if backend not in ("sqlite", "postgresql"):
        raise TapeteError(BAD, f"{where}: {backend!r} databases are not supported (sqlite:///FILE or "
                          "postgresql://USER@HOST/DB)")
    try:
        parsed.get_dialect()
    except Exception:  # noqa: BLE001 - NoSuchModuleError or ImportError: the driver is missing
        raise TapeteError(BAD, f"{where}: no driver for {parsed.drivername} is installed "
                          "(PostgreSQL needs psycopg: pip install 'psycopg[binary]')") from None
    return url


def open_database(url: str | None, option: str = "--database", *, must_exist: bool = False) -> Any:
    """The server's `Database` for `url`, after checking the URL and that it answers (5 s at most).
    `must_exist`: a SQLite file is not created (a command that only reads)."""
    database_url(url, option)
    from sqlalchemy import text

    from tapete.server.storage.db import database_url as resolve
    from tapete.server.storage.db import normalise_url

    full = normalise_url(resolve(url))
    if must_exist and full.startswith("sqlite"):
        path = full.split("///", 1)[-1]
        if path and path != ":memory:" and not Path(path).is_file():
            raise TapeteError(BAD, f"{option}: no database file {path}")

    from tapete.server.storage.db import Database

    try:
        db = Database(url)
    except Exception as exc:  # noqa: BLE001 - a folder that cannot be made, a URL the driver refuses
        raise TapeteError(BAD, f"{option}: cannot open the database: {first_line(exc)}") from None
    if not db.is_sqlite:
        from sqlalchemy import create_engine

        probe = create_engine(db.url, connect_args={"connect_timeout": 5})
    else:
        probe = db.engine
    try:
        with probe.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:  # noqa: BLE001 - OperationalError and its drivers' kin
        raise TapeteError(BAD, f"{option}: cannot reach the database {db.url.split('@')[-1]}: "
                          f"{first_line(exc)}") from None
    finally:
        if probe is not db.engine:
            probe.dispose()
    return db
