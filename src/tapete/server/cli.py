"""`tapete serve`, `tapete verify ROUND.json`, `tapete audit export`: the server's commands.

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
    # proxy_headers off: uvicorn would take X-Forwarded-For from any local peer; the app's edge honours it
    # only from security.trusted_proxies (tapete/server/security.py)
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=False, timeout_graceful_shutdown=3,
                proxy_headers=False)


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
    """Write the event logs as JSON lines (verified up to each table's stored head: exit 1 if a hash link
    is broken or the log does not end at the head)."""
    from tapete.server import audit
    from tapete.server.db import Database

    db = Database(database)
    with db.snapshot() as conn:
        heads = audit.heads(conn, table)
        records = list(audit.iter_rows(conn, table))
    chain = audit.verify_chain(records, heads)
    lines = (audit.canonical(r) + "\n" for r in records)
    if out == "-":
        sys.stdout.writelines(lines)
    else:
        with open(out, "w", encoding="utf-8") as fh:
            fh.writelines(lines)
    typer.echo(json.dumps(chain), err=True)
    raise typer.Exit(0 if chain["ok"] else 1)


@audit_app.command("verify")
def audit_verify(
    file: Annotated[str, typer.Argument(help="a JSON-lines export")],
    head: Annotated[list[str] | None, typer.Option(
        "--head", help="the expected hash of a table's last record (the inspector page, /api/health's log_heads), "
                       "as HASH for a one-table export or TABLE=HASH; repeatable")] = None,
) -> None:
    """Re-check an exported log's hash chain, and that it ends at the expected head: a cut-off or
    rewritten tail links up perfectly, only the head gives it away."""
    from tapete.server import audit

    records = [json.loads(line) for line in Path(file).read_text(encoding="utf-8").splitlines() if line.strip()]
    tables = sorted({r["table_id"] for r in records})
    expected: dict[str, str | tuple[int, str]] = {}
    for item in head or []:
        name, _, digest = item.rpartition("=")
        if not name:
            if len(tables) > 1:
                typer.echo("error: the export holds several tables: give --head TABLE=HASH", err=True)
                raise typer.Exit(2)
            name = tables[0] if tables else ""
        expected[name] = digest.strip().lower()
    chain = audit.verify_chain(records, expected)
    print(json.dumps(chain))
    raise typer.Exit(0 if chain["ok"] else 1)


def register(app: typer.Typer) -> None:
    app.command()(serve)
    app.command()(verify)
    app.add_typer(audit_app, name="audit")
