"""`tapete serve`, `tapete verify ROUND.json`, `tapete audit export`, `tapete users`: the server's commands.

Registered on the main Typer app by one line in tapete/cli.py; heavy imports stay inside the commands.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

audit_app = typer.Typer(help="The tables' hash-chained event logs.", no_args_is_help=True)


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port")] = 8000,
    config: Annotated[str | None, typer.Option("--config", "-c", help="casino TOML file (default: the demo casino)")] = None,
    database: Annotated[str | None, typer.Option(help="database URL (default: $TAPETE_DATABASE_URL or sqlite:///tapete.db)")] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "info",
) -> None:
    """Run the table server: live tables, wallets, ledger, audit (FastAPI + uvicorn)."""
    import uvicorn

    from tapete.core.errors import TapeteError
    from tapete.server import config as casino_config
    from tapete.server.app import create_app
    from tapete.server.db import Database

    try:
        casino = casino_config.load(config)
    except TapeteError as exc:
        typer.echo(f"error {exc.code}: {exc.message}", err=True)
        raise typer.Exit(2) from None
    except ValueError as exc:
        typer.echo(f"error bad-config: {exc}", err=True)
        raise typer.Exit(2) from None
    app = create_app(casino, database)
    url = Database(database).url
    typer.echo(f"tapete: {casino.casino.name}, {len(casino.tables)} tables, database {url.split('@')[-1]}")
    typer.echo(f"tapete: http://{host}:{port}/   (the lobby; API: /api/tables, docs: http://{host}:{port}/docs)")
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=False, timeout_graceful_shutdown=3)


def verify(file: Annotated[str, typer.Argument(help="a round record (GET /api/rounds/ID), or - for stdin")]) -> None:
    """Recompute a round's fairness: SHA-256(seed) = commitment, every drawn outcome, the settlement."""
    from tapete.core.errors import TapeteError
    from tapete.server.fairness import verify_round

    text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    try:
        result = verify_round(json.loads(text))
    except (TapeteError, json.JSONDecodeError, KeyError, ValueError, TypeError) as exc:
        result = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    print(json.dumps(result, ensure_ascii=False, indent=1))
    raise typer.Exit(0 if result["ok"] else 1)


@audit_app.command("export")
def audit_export(
    out: Annotated[str, typer.Option("--out", "-o", help="file to write (default: stdout)")] = "-",
    table: Annotated[str | None, typer.Option(help="one table only")] = None,
    database: Annotated[str | None, typer.Option(help="database URL")] = None,
) -> None:
    """Write the event logs as JSON lines (verified: exit 1 if a hash link is broken)."""
    from tapete.server import audit
    from tapete.server.db import Database

    db = Database(database)
    with db.read() as conn:
        records = list(audit.iter_rows(conn, table))
    chain = audit.verify_chain(records)
    lines = (audit.canonical(r) + "\n" for r in records)
    if out == "-":
        sys.stdout.writelines(lines)
    else:
        with open(out, "w", encoding="utf-8") as fh:
            fh.writelines(lines)
    typer.echo(json.dumps(chain), err=True)
    raise typer.Exit(0 if chain["ok"] else 1)


@audit_app.command("verify")
def audit_verify(file: Annotated[str, typer.Argument(help="a JSON-lines export")]) -> None:
    """Re-check an exported log's hash chain."""
    from tapete.server import audit

    records = [json.loads(line) for line in Path(file).read_text(encoding="utf-8").splitlines() if line.strip()]
    chain = audit.verify_chain(records)
    print(json.dumps(chain))
    raise typer.Exit(0 if chain["ok"] else 1)


users_app = typer.Typer(help="Accounts, on the server's host: staff are created here or in the casino file, "
                        "never through the API.", no_args_is_help=True)
Database_ = Annotated[str | None, typer.Option("--database", help="database URL (default: $TAPETE_DATABASE_URL or sqlite:///tapete.db)")]
Config_ = Annotated[str | None, typer.Option("--config", "-c", help="casino TOML file (its [security] hashing parameters)")]
Role_ = Annotated[list[str], typer.Option("--role", "-r", help="player, croupier, chief, cashier or inspector (repeat)")]
Table_ = Annotated[list[str] | None, typer.Option("--table", "-t", help="a table the staff member works (repeat; none: all)")]
Stdin_ = Annotated[bool, typer.Option("--password-stdin", help="read the password from the first line of stdin")]


def _auth(config: str | None, database: str | None):  # type: ignore[no-untyped-def]
    from tapete.server import config as casino_config
    from tapete.server.auth import Auth
    from tapete.server.db import Database

    db = Database(database)
    db.migrate()
    security = casino_config.load(config).security if config else casino_config.Security()
    return Auth(db, security)


def _password(stdin: bool) -> str:
    if stdin:
        return sys.stdin.readline().rstrip("\n")
    return typer.prompt("password", hide_input=True, confirmation_prompt=True)


def _run(fn) -> None:  # type: ignore[no-untyped-def]
    from tapete.core.errors import TapeteError

    try:
        fn()
    except TapeteError as exc:
        typer.echo(f"error {exc.code}: {exc.message}", err=True)
        raise typer.Exit(2) from None


def _roles(role: list[str]) -> list[str]:
    from tapete.core.errors import TapeteError
    from tapete.server.config import ROLES

    bad = [r for r in role if r not in ROLES]
    if bad or not role:
        raise TapeteError("bad-request", f"roles are {', '.join(ROLES)} (got {', '.join(bad) or 'none'})")
    return sorted(set(role))


@users_app.command("add")
def users_add(username: Annotated[str, typer.Argument()], role: Role_, table: Table_ = None, password_stdin: Stdin_ = False,
              config: Config_ = None, database: Database_ = None) -> None:
    """Create an account (staff or player) with a password of at least 10 characters, not a common one."""
    import re

    from tapete.core.errors import TapeteError
    from tapete.server.auth import check_password

    def go() -> None:
        if not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", username):
            raise TapeteError("bad-request", "a username is 1-64 letters, digits, '_', '.' or '-'")
        roles = _roles(role)
        password = _password(password_stdin)
        check_password(password, username)
        if not _auth(config, database).create_user(username, password=password, roles=roles, tables=table or None,
                                                   actor="operator"):
            raise TapeteError("user-exists", f"the name {username} is taken")
        typer.echo(f"created {username}: {', '.join(roles)}" + (f" at {', '.join(table)}" if table else ""))

    _run(go)


@users_app.command("roles")
def users_roles(username: Annotated[str, typer.Argument()], role: Role_, table: Table_ = None,
                config: Config_ = None, database: Database_ = None) -> None:
    """Set an account's roles and tables (a grant or a withdrawal, in the staff log); its sessions end."""
    def go() -> None:
        roles = _roles(role)
        _auth(config, database).set_roles(username, roles, table or None, actor="operator")
        typer.echo(f"{username}: {', '.join(roles)}" + (f" at {', '.join(table)}" if table else ""))

    _run(go)


@users_app.command("password")
def users_password(username: Annotated[str, typer.Argument()], password_stdin: Stdin_ = False,
                   config: Config_ = None, database: Database_ = None) -> None:
    """Set an account's password; its sessions end."""
    _run(lambda: (_auth(config, database).set_password(username, _password(password_stdin), actor="operator"),
                  typer.echo(f"{username}: password set")))


@users_app.command("list")
def users_list(database: Database_ = None) -> None:
    """Every account with its roles and tables (JSON lines)."""
    for u in _auth(None, database).list_users():
        print(json.dumps(u))


def register(app: typer.Typer) -> None:
    app.command()(serve)
    app.command()(verify)
    app.add_typer(audit_app, name="audit")
    app.add_typer(users_app, name="users")
