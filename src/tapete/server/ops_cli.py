"""The operator's commands for the database (issue 29): `tapete backup`, `tapete restore`, `tapete db status`
and `tapete db upgrade`. Each answers in sentences; a refusal is one line on stderr with exit 2; a restore whose
verification fails exits 1 and says what failed."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from tapete.server.storage.opening import open_database

db_app = typer.Typer(help="The database's schema: where it stands, and the explicit upgrade (after a backup).",
                     no_args_is_help=True)
Database_ = Annotated[str | None, typer.Option("--database", help="database URL (default: $TAPETE_DATABASE_URL or "
                                                                   "sqlite:///tapete.db)")]


def _fail(exc: Any) -> None:
    from tapete import cli_args

    cli_args.refuse(exc.code, exc.message)


def _open(database: str | None) -> Any:

    return open_database(database, must_exist=True)


def backup(out: Annotated[str | None, typer.Option("--output", "-o", help="the backup file to write (never overwritten); "
                                                   "default: beside the SQLite file, or in this folder")] = None,
           database: Database_ = None) -> None:
    """Copy the database to a file, while the server runs (SQLite's online backup; pg_dump for PostgreSQL)."""
    from tapete.core.errors import TapeteError
    from tapete.server.audit import backup as backups

    try:
        db = _open(database)
        target = backups.backup(db, Path(out) if out else backups.default_name(db, "backup"))
    except TapeteError as exc:
        _fail(exc)
    typer.echo(f"tapete backup: {target} ({target.stat().st_size:,} bytes); restore it with `tapete restore {target}`")


def restore(file: Annotated[str, typer.Argument(help="a file `tapete backup` wrote")],
            database: Database_ = None,
            force: Annotated[bool, typer.Option("--force", help="replace an existing database (SQLite: the old file is "
                                                "kept beside it; PostgreSQL: its tables are dropped)")] = False) -> None:
    """Restore a backup into --database, after checking every table's hash chain and the ledger on the copy.
    Stop the server first. Exit 0: restored and verified; 1: the backup failed its checks (SQLite: not put in
    place; PostgreSQL: marked, and refused by every command until replaced); 2: bad input."""
    from tapete.core.errors import TapeteError
    from tapete.server.audit import backup as backups

    try:
        backups.kind_of(Path(file))
        existed = backups.existing_sqlite(database)       # before opening: opening a SQLite URL creates the file
        db = open_database(database)
        found = backups.restore(Path(file), db, force=force, existed=existed is not False)
    except TapeteError as exc:
        _fail(exc)
    if not found.ok:
        typer.echo(f"tapete restore: {file} FAILED its verification: nothing of it is to be used", err=True)
        for problem in found.problems:
            typer.echo(f"  - {problem}", err=True)
        raise typer.Exit(1)
    typer.echo(f"tapete restore: {file} restored and verified: {found.tables} tables' hash chains "
               f"({found.records:,} records) intact, {found.transactions:,} ledger transactions balanced, "
               f"{found.bets:,} bets")


@db_app.command("status")
def db_status(database: Database_ = None) -> None:
    """The database's schema revision against this tapete's (exit 0 when current, 1 when an upgrade is due)."""
    from tapete.core.errors import TapeteError
    from tapete.server.storage.migrations import state

    try:
        found = state(_open(database))
    except TapeteError as exc:
        _fail(exc)
    current = " + ".join(sorted(found.current)) or "none"
    heads = " + ".join(sorted(found.heads))
    sentence = {"current": "current", "new": "empty (the server creates its schema at first start)",
                "behind": "behind: run `tapete db upgrade` (it backs up first)",
                "unknown": "written by a newer tapete: run that version"}[found.status]
    typer.echo(f"schema revision: {current}; this tapete: {heads}; {sentence}")
    raise typer.Exit(0 if found.status in ("current", "new") else 1)


@db_app.command("upgrade")
def db_upgrade(database: Database_ = None,
               backup_to: Annotated[str | None, typer.Option("--backup", help="where to write the backup taken "
                                                             "before the upgrade (default: beside the database)")] = None,
               no_backup: Annotated[bool, typer.Option("--no-backup", help="upgrade without a backup (you took one)")] = False,
               ) -> None:
    """Bring the schema to this tapete's revision, after a backup: the one command that migrates."""
    from tapete.core.errors import TapeteError
    from tapete.server.audit import backup as backups
    from tapete.server.storage.migrations import state, upgrade

    try:
        db = _open(database)
        before = state(db)
        if before.status == "unknown":
            raise TapeteError("schema-ahead", "the database was written by a newer tapete: this one cannot upgrade it")
        if before.status == "current":
            typer.echo(f"schema revision {' + '.join(sorted(before.current))}: already current, nothing to do")
            return
        saved = None
        if not no_backup and before.status == "behind":
            saved = backups.backup(db, Path(backup_to) if backup_to else backups.default_name(db, "before-upgrade"))
        upgrade(db)
        after = state(db)
    except TapeteError as exc:
        _fail(exc)
    was = " + ".join(sorted(before.current)) or "empty"
    typer.echo(f"schema upgraded: {was} -> {' + '.join(sorted(after.current))}"
               + (f"; backup first: {saved}" if saved else ""))


config_app = typer.Typer(help="The casino file.", no_args_is_help=True)


@config_app.command("check")
def config_check(file: Annotated[str, typer.Argument(help="a casino file (TOML)")]) -> None:
    """Check a casino file whole: one line per problem, the key path and what is expected (exit 0: good; 2: not)."""
    from tapete.server.config_check import check_file, check_file_warnings

    problems = check_file(file)
    for line in problems:
        typer.echo(line, err=True)
    if problems:
        raise typer.Exit(2)
    warnings = check_file_warnings(file)
    for line in warnings:
        typer.echo(f"warning: {line}", err=True)
    typer.echo(f"{file}: good" + (f", with {len(warnings)} warning{'s' * (len(warnings) != 1)}" if warnings else ""))


def register(app: typer.Typer) -> None:
    app.command()(backup)
    app.command()(restore)
    app.add_typer(db_app, name="db")
    app.add_typer(config_app, name="config")
