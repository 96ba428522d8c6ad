"""`tapete serve`, `tapete verify ROUND.json`, `tapete audit export`, `tapete users`: the server's commands.

Registered on the main Typer app by one line in tapete/cli.py; heavy imports stay inside the commands.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
from typing import Annotated, Any, NoReturn

import typer

from tapete.server.storage.opening import open_database

audit_app = typer.Typer(help="The tables' hash-chained event logs.", no_args_is_help=True)


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port")] = 8000,
    config: Annotated[str | None, typer.Option("--config", "-c", help="casino TOML file (default: the demo casino)")] = None,
    database: Annotated[str | None, typer.Option(help="database URL (default: $TAPETE_DATABASE_URL or sqlite:///tapete.db)")] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "info",
    node: Annotated[str | None, typer.Option(envvar="TAPETE_NODE", help="this process's node of the casino file's "
                                             "[cluster] (PostgreSQL): tables owned one node each, writes routed")] = None,
) -> None:
    """Run the table server: live tables, wallets, ledger, audit (FastAPI + uvicorn)."""
    import uvicorn

    from tapete import cli_args
    from tapete.core.errors import TapeteError
    from tapete.server import config as casino_config
    from tapete.server.http.app import create_app
    from tapete.server.storage.db import Database
    from tapete.server.tables.adapters import check_live_tables

    try:
        cli_args.at_least(port, 0, "--port")
        cli_args.at_most(port, 65535, "--port")
        if log_level.lower() not in LOG_LEVELS:
            raise TapeteError("bad-option", f"--log-level is one of {', '.join(LOG_LEVELS)} (got {log_level!r})")
        if config is None and not _loopback(host):     # the demo's passwords are published: never beyond this host
            raise TapeteError("bad-option", f"--host {host}: the demo casino (no --config) listens on loopback only "
                              "(127.0.0.1, ::1, localhost); give a casino file to listen there")
        if config is not None:
            cli_args.read_text(config, "--config", allow_stdin=False, code="bad-config")
            from tapete.server.config_check import check_file

            problems = check_file(config)      # the whole file, one line per problem (tapete config check)
            if problems:
                for line in problems:
                    typer.echo(f"error bad-config: --config {config}: {line}", err=True)
                raise typer.Exit(2)
        casino = casino_config.load(config)
        if node is not None:
            casino.cluster.node(node)            # a node the casino file names, or one line saying which it has
        check_live_tables(casino)
        checked = open_database(database)
        checked.ensure_schema()                  # an older database is refused here, in one line (tapete db upgrade)
        checked.dispose()
    except TapeteError as exc:
        _error(exc.code, f"--config: {exc.message}" if exc.code == "bad-config" and config else exc.message)
    except ValueError as exc:      # pydantic: the first problem, on one line
        _error("bad-config", f"--config {config}: {str(exc).splitlines()[0]}"
               + (f" ({str(exc).splitlines()[1].strip()}: {str(exc).splitlines()[2].strip()})"
                  if len(str(exc).splitlines()) > 2 else ""))
    from tapete.server.storage.memory import freeze_startup_heap, keep_trimming, limit_malloc_arenas

    limit_malloc_arenas()          # before the server's threads: RSS stays flat (tapete/server/storage/memory.py)
    keep_trimming()                # RSS follows the memory in use, not malloc's high-water mark
    try:
        sock = listen(host, port)       # bound here: the real port of --port 0, and a port in use in one line
    except TapeteError as exc:
        _error(exc.code, exc.message)
    port = sock.getsockname()[1]
    try:
        app = create_app(casino, database, node=node)
    except TapeteError as exc:
        _error(exc.code, exc.message)
    url = Database(database).url
    where = f"[{host}]" if ":" in host else host
    typer.echo(f"tapete: {casino.casino.name}, {len(casino.tables)} tables, database {url.split('@')[-1]}")
    typer.echo(f"tapete: http://{where}:{port}/   (the lobby; API: /api/tables, docs: http://{where}:{port}/docs)")
    if config is None:
        typer.echo("tapete: demo logins: " + ", ".join(f"{u.username}/{u.password} ({'+'.join(u.roles)})"
                                                      for u in casino.users))
    # proxy_headers off: uvicorn would take X-Forwarded-For from any local peer; the app's edge honours it
    # only from security.trusted_proxies (tapete/server/http/security.py)
    # ws_per_message_deflate off: a stream record is a few hundred bytes, and compressing it once per watcher
    # cost more than serialising it (docs/performance.md, the 1,000-watcher broadcast)
    from tapete.server.http.sockets import uvicorn_settings

    settings = uvicorn.Config(app, host=host, port=port, log_level=log_level, access_log=False,
                              timeout_graceful_shutdown=3, proxy_headers=False, ws_per_message_deflate=False,
                              **uvicorn_settings(casino.security))    # deadlines, a connection cap, small WebSocket frames
    _stop_on_sigterm()
    freeze_startup_heap()          # what exists now lives as long as the process: out of the collector's passes
    with contextlib.suppress(KeyboardInterrupt):   # uvicorn re-raises Ctrl-C once stopped: a stop asked for is exit 0
        uvicorn.Server(settings).run(sockets=[sock])
    typer.echo("tapete: stopped")


def _stop_on_sigterm() -> None:
    """uvicorn captures SIGINT and SIGTERM while it runs and re-raises them once stopped: SIGTERM then reads as
    Ctrl-C (a clean exit 0), not a kill."""
    import signal

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    with contextlib.suppress(ValueError):     # not the main thread (a test's runner): nothing to install
        signal.signal(signal.SIGTERM, stop)


def listen(host: str, port: int) -> Any:
    """The server's listening socket on host:port (0: a free port the system picks), or one sentence saying why
    not (a port in use, a port below 1024 without the right, an address this machine does not have)."""
    import errno
    import socket

    from tapete.core.errors import TapeteError

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                              flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise TapeteError("bad-option", f"--host: {host!r} is not an address of this machine "
                          f"({getattr(exc, 'strerror', None) or exc})") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            why = "it is in use (another tapete serve, or another program); choose another --port, or --port 0"
        elif exc.errno == errno.EACCES:
            why = "ports below 1024 need administrator rights; choose another --port"
        else:
            why = exc.strerror or type(exc).__name__
        raise TapeteError("bad-option", f"--port: cannot listen on {host}:{port}: {why}") from None
    sock.listen(2048)          # held from now on: a second server on this port is refused even while this one starts
    sock.set_inheritable(True)
    return sock


def verify(file: Annotated[str, typer.Argument(help="a round record (GET /api/rounds/ID), or - for stdin")]) -> None:
    """Recompute a round's fairness: SHA-256(seed) = commitment, every drawn outcome, the settlement.

    Exit 0: every check holds; 1: a check fails (the JSON's checks, and one line on stderr naming what differs);
    2: FILE is not a round record, e.g. a round document (an error document on stdout)."""
    from tapete import cli_args
    from tapete.core.errors import TapeteError
    from tapete.server.tables.fairness import verify_round

    try:
        record = _json(cli_args.read_text(file, "FILE"), "FILE")
        if not isinstance(record, dict):
            raise TapeteError("bad-document", "FILE: a round record is a JSON object (GET /api/rounds/ID)")
        missing = [k for k in ROUND_KEYS if k not in record]
        if missing and record.get("status") not in (None, "settled"):
            raise TapeteError("bad-document", f"FILE: round {record.get('round')} is {record['status']}, not settled: "
                              "its record (and seed) come when it is settled")
        if missing:
            raise TapeteError("bad-document", f"FILE: not a round record (GET /api/rounds/ID): no {', '.join(missing)}")
        if not any(k in record for k in RECORD_KEYS):
            raise TapeteError("bad-document", "FILE is a round document (what `tapete settle` takes), not a round "
                              "record: verify takes a settled round's record from the server, GET /api/rounds/ID")
        result = verify_round(record)
        if not result["checks"]:
            raise TapeteError("bad-document", f"FILE: round {record.get('round')} has nothing to recompute (no drawn "
                              "outcome, no shuffled shoe, no settlement from a fresh table)")
    except TapeteError as exc:
        _document(exc)
    except (KeyError, ValueError, TypeError, AttributeError, IndexError) as exc:
        what = f"no {exc.args[0]!r}" if isinstance(exc, KeyError) and exc.args else "a field of the wrong shape"
        _document(TapeteError("bad-document", f"FILE: the round record is incomplete or malformed ({what})"))
    print(json.dumps(result, ensure_ascii=False, indent=1))
    failed = [f"{c['check']} ({c['detail']})" for c in result["checks"] if not c["ok"]]
    if failed:                  # the JSON above has it all; one line on stderr says what failed
        typer.echo(f"verify: round {result.get('round')} fails: {'; '.join(failed)}", err=True)
    raise typer.Exit(0 if result["ok"] else 1)


@audit_app.command("export")
def audit_export(
    out: Annotated[str, typer.Option("--out", "-o", help="file to write (default: stdout)")] = "-",
    table: Annotated[str | None, typer.Option(help="one table only")] = None,
    database: Annotated[str | None, typer.Option(help="database URL")] = None,
) -> None:
    """Write the event logs as JSON lines (verified up to each table's stored head: exit 1 if a hash link
    is broken or the log does not end at the head)."""
    from sqlalchemy import select
    from sqlalchemy.exc import SQLAlchemyError

    from tapete import cli_args
    from tapete.core.errors import TapeteError
    from tapete.server.audit import chains as audit
    from tapete.server.storage.db import events

    try:
        if out != "-":
            cli_args.writable_file(out, "--out")
        db = open_database(database, must_exist=True)
        with db.snapshot() as conn:
            try:
                known = sorted(r[0] for r in conn.execute(select(events.c.table_id).distinct()))
            except SQLAlchemyError:
                raise TapeteError("bad-option", "--database: no tapete event log in this database (has "
                                  "`tapete serve` run on it?)") from None
            if table is not None and table not in known:
                raise TapeteError("bad-option", f"--table: no table {table!r} in the event log "
                                  f"({', '.join(known) if known else 'the log is empty'})")
            heads = audit.heads(conn, table)
            records = list(audit.iter_rows(conn, table))
    except TapeteError as exc:
        _error(exc.code, exc.message)
    chain = audit.verify_chain(records, heads)
    lines = (audit.canonical(r) + "\n" for r in records)
    if out == "-":
        sys.stdout.writelines(lines)
    else:
        try:
            with open(out, "w", encoding="utf-8") as fh:
                fh.writelines(lines)
        except OSError as exc:      # /proc/x, /dev/full, a read-only disk: one line naming --out (issue 28)
            _error("bad-option", f"--out: cannot write {out}: {exc.strerror or type(exc).__name__}")
    typer.echo(json.dumps(chain), err=True)
    raise typer.Exit(0 if chain["ok"] else 1)


@audit_app.command("verify")
def audit_verify(
    file: Annotated[str | None, typer.Argument(help="a JSON-lines export; none: the database (--database)")] = None,
    head: Annotated[list[str] | None, typer.Option(
        "--head", help="the expected hash of a table's last record (the inspector page, /api/health's log_heads), "
                       "as HASH for a one-table export or TABLE=HASH; with a database also staff-log=HASH and "
                       "ledger:LANE=HASH (the heads this command prints); repeatable")] = None,
    database: Annotated[str | None, typer.Option(help="database URL (default: TAPETE_DATABASE_URL, tapete.db)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="the database's report as JSON")] = False,
) -> None:
    """Re-check an exported log's hash chain, and that it ends at the expected head: a cut-off or
    rewritten tail links up perfectly, only the head gives it away (exit 1: a broken chain; 2: FILE is not an
    export). Without FILE, reconcile the database's books with its chained logs (docs/server.md § Audit): the
    ledger's chains, every posting, balance, round record and bet; each discrepancy one sentence, exit 1."""
    from tapete import cli_args
    from tapete.core.errors import TapeteError
    from tapete.server.audit import chains as audit

    if file is None:
        _verify_database(database, head or [], as_json)
    try:
        records = []
        for n, line in enumerate(cli_args.read_text(file, "FILE").splitlines(), 1):
            if not line.strip():
                continue
            record = _json(line, f"FILE line {n}")
            if not isinstance(record, dict):
                raise TapeteError("bad-document", f"FILE line {n}: an event record is a JSON object")
            missing = [k for k in AUDIT_KEYS if k not in record]
            if missing:
                raise TapeteError("bad-document", f"FILE line {n}: not an event record of `tapete audit export` "
                                  f"(no {', '.join(missing)})")
            if (not isinstance(record["seq"], int) or not isinstance(record["ts"], int | float)
                    or not all(isinstance(record[k], str) for k in AUDIT_TEXT)):
                raise TapeteError("bad-document", f"FILE line {n}: seq and ts are numbers; table_id, prev_hash, "
                                  "hash, kind are text")
            records.append(record)
        tables = sorted({r["table_id"] for r in records})
        expected: dict[str, str | tuple[int, str]] = {}
        for item in head or []:
            name, _, digest = item.rpartition("=")
            if not name:
                if len(tables) > 1:
                    raise TapeteError("bad-option", "--head: the export holds several tables: give --head TABLE=HASH")
                name = tables[0] if tables else ""
            if not re.fullmatch(r"[0-9a-fA-F]{64}", digest.strip()):
                raise TapeteError("bad-option", f"--head: {digest.strip()[:80]!r} is not a SHA-256 hash (64 hex digits)")
            expected[name] = digest.strip().lower()
        chain = audit.verify_chain(records, expected)
    except TapeteError as exc:
        _document(exc)
    except (TypeError, ValueError) as exc:
        _document(TapeteError("bad-document", f"FILE: an event record of the wrong shape ({type(exc).__name__})"))
    print(json.dumps(chain))
    raise typer.Exit(0 if chain["ok"] else 1)


def _verify_database(database: str | None, head: list[str], as_json: bool) -> NoReturn:
    from tapete.core.errors import TapeteError
    from tapete.server.audit.verify import verify_database

    try:
        expected: dict[str, str | tuple[int, str]] = {}
        for item in head:
            name, _, digest = item.rpartition("=")
            if not name:
                raise TapeteError("bad-option", "--head: with a database, give NAME=HASH (a table, staff-log, ledger:LANE)")
            if not re.fullmatch(r"[0-9a-fA-F]{64}", digest.strip()):
                raise TapeteError("bad-option", f"--head: {digest.strip()[:80]!r} is not a SHA-256 hash (64 hex digits)")
            expected[name] = digest.strip().lower()
        db = open_database(database, must_exist=True)
        try:
            report = verify_database(db, expected)
        except Exception as exc:  # noqa: BLE001 - one line, never a traceback (an older or foreign schema)
            raise TapeteError("bad-option", f"--database: not a tapete database at the current schema "
                                            f"(`tapete db status` says where it stands; `tapete db upgrade` migrates it): {type(exc).__name__}") from None
        finally:
            db.dispose()
    except TapeteError as exc:
        _document(exc)        # as the export's verification refuses: the error document, exit 2
    if as_json:
        print(json.dumps(report.as_dict()))
    else:
        for sentence in report.problems:
            print(sentence)
        counts = ", ".join(f"{n} {what}" for what, n in report.checked.items())
        print(f"{'the books hold' if report.ok else f'{len(report.problems)} discrepancies'}: checked {counts}")
    raise typer.Exit(0 if report.ok else 1)


def _loopback(host: str) -> bool:
    import ipaddress

    try:
        return host == "localhost" or ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")
ROUND_KEYS = ("game", "jurisdiction")
RECORD_KEYS = ("commitment", "draws", "shoe", "settlement")     # what a round record has and a round document not
AUDIT_KEYS = ("table_id", "seq", "prev_hash", "ts", "kind", "actor", "data", "hash")
AUDIT_TEXT = ("table_id", "prev_hash", "hash", "kind")


def _error(code: str, message: str) -> NoReturn:
    """One line on stderr, exit 2 (issue 16: no traceback at the command line)."""
    from tapete import cli_args

    cli_args.refuse(code, message)


def _document(exc: Any) -> NoReturn:
    """The error document on stdout (the command speaks JSON), exit 2."""
    print(json.dumps(exc.document(), ensure_ascii=False))
    raise typer.Exit(2)


def _json(text: str, what: str) -> Any:
    from tapete.conformance.document import _number
    from tapete.core.errors import TapeteError

    try:
        return json.loads(text, parse_int=_number)
    except json.JSONDecodeError as exc:
        raise TapeteError("bad-document", f"{what}: malformed JSON: {exc.msg} at line {exc.lineno} "
                          f"column {exc.colno}") from None


users_app = typer.Typer(help="Accounts, on the server's host: staff are created here or in the casino file, "
                        "never through the API.", no_args_is_help=True)
Database_ = Annotated[str | None, typer.Option("--database", help="database URL (default: $TAPETE_DATABASE_URL or sqlite:///tapete.db)")]
Config_ = Annotated[str | None, typer.Option("--config", "-c", help="casino TOML file (its [security] hashing parameters)")]
Role_ = Annotated[list[str], typer.Option("--role", "-r", help="player, croupier, chief, cashier or inspector (repeat)")]
Table_ = Annotated[list[str] | None, typer.Option("--table", "-t", help="a table the staff member works (repeat; none: all)")]
Stdin_ = Annotated[bool, typer.Option("--password-stdin", help="read the password from the first line of stdin")]


def _auth(config: str | None, database: str | None, *, must_exist: bool = False):  # type: ignore[no-untyped-def]
    """The accounts service on the checked database (`storage.opening.open_database`: a bad URL is one line, exit 2)."""
    from tapete import cli_args
    from tapete.core.errors import TapeteError
    from tapete.server import config as casino_config
    from tapete.server.http.auth import Auth

    security = casino_config.Security()
    if config:
        try:
            security = casino_config.load(cli_args.read_text(config, "--config") and config).security
        except TapeteError:
            raise
        except Exception as exc:  # noqa: BLE001 - TOML or the casino file's own checks
            raise TapeteError("bad-option", f"--config: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
    db = open_database(database, must_exist=must_exist)
    db.ensure_schema()
    return Auth(db, security)


def _password(stdin: bool) -> str:
    """--password-stdin: the first line of standard input; else asked twice at the terminal, never echoed. Without
    a terminal there is nowhere to ask without echoing it: refused, pointing to --password-stdin (issue 28)."""
    from tapete.core.errors import TapeteError

    if stdin:
        return sys.stdin.readline().rstrip("\n")
    if not _is_terminal(sys.stdin):
        raise TapeteError("bad-request", "standard input is not a terminal, so the password cannot be asked without "
                          "echoing it: send it on the first line of standard input with --password-stdin")
    return typer.prompt("password", hide_input=True, confirmation_prompt=True)


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (ValueError, OSError):      # a closed stream
        return False


def _run(fn) -> None:  # type: ignore[no-untyped-def]
    from tapete import cli_args
    from tapete.core.errors import TapeteError

    try:
        fn()
    except TapeteError as exc:
        cli_args.refuse(exc.code, exc.message)


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
    from tapete.server.http.auth import check_password

    def go() -> None:
        if not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", username):
            raise TapeteError("bad-request", "a username is 1-64 letters, digits, '_', '.' or '-'")
        roles = _roles(role)
        accounts = _auth(config, database)          # the options first: a bad URL never asks for a password
        password = _password(password_stdin)
        check_password(password, username)
        if not accounts.create_user(username, password=password, roles=roles, tables=table or None,
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
    def go() -> None:
        from tapete.server.http.auth import check_password

        accounts = _auth(config, database)
        password = _password(password_stdin)
        check_password(password, username)
        accounts.set_password(username, password, actor="operator")
        typer.echo(f"{username}: password set")

    _run(go)


@users_app.command("list")
def users_list(database: Database_ = None) -> None:
    """Every account with its roles and tables (JSON lines)."""
    users: list[Any] = []
    _run(lambda: users.extend(_auth(None, database, must_exist=True).list_users()))
    for u in users:
        print(json.dumps(u))


def register(app: typer.Typer) -> None:
    app.command()(serve)
    app.command()(verify)
    app.add_typer(audit_app, name="audit")
    app.add_typer(users_app, name="users")
    from tapete.server.players_cli import excluded_app

    app.add_typer(excluded_app, name="excluded")
    from tapete.server import ops_cli, shift_cli

    ops_cli.register(app)
    app.command("shift")(shift_cli.shift)      # the jornada report (issue 30)
