"""The lab's commands: `tapete conformance export|run|serve` and `tapete rng test|stream` (docs/lab.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from tapete.core.errors import TapeteError

conformance_app = typer.Typer(no_args_is_help=True, help="The conformance kit: export it, run another system "
                              "against it, serve tapete as its reference endpoint (docs/lab.md).")
console = Console()
err_console = Console(stderr=True)


def _refuse(exc: TapeteError) -> NoReturn:
    err_console.print(f"[red]error[/red] [bold]{exc.code}[/bold]: {escape(exc.message)}", soft_wrap=True)
    raise typer.Exit(2)


@conformance_app.command("export")
def export_command(
    directory: Annotated[Path, typer.Argument(help="the kit's folder (created)")],
    game: Annotated[str | None, typer.Option("--game", "-g", help="one game's cases only")] = None,
    jurisdiction: Annotated[str | None, typer.Option("--jurisdiction", "-j", help="one jurisdiction's cases only")] = None,
) -> None:
    """Write the golden suites, the JSON Schemas and the lab's README to DIRECTORY."""
    from tapete.lab.kit import export

    try:
        manifest = export(directory, game, jurisdiction)
    except TapeteError as exc:
        _refuse(exc)
    except OSError as exc:
        _refuse(TapeteError("bad-option", f"{directory}: {exc.strerror}"))
    suites = sum(1 for f in manifest["files"] if f.startswith("cases/"))
    typer.echo(f"{manifest['cases']} cases of {len(manifest['games'])} games in {suites} files "
               f"(one per game and jurisdiction), {len(manifest['files']) - suites - 1} schemas and README.md "
               f"written to {directory}")


@conformance_app.command("run")
def run_command(
    kit: Annotated[Path, typer.Argument(help="a kit folder (tapete conformance export) or one of its .jsonl files")],
    against: Annotated[str, typer.Option("--against", help="a command (round document on stdin, answer on stdout) "
                                         "or an http(s) URL taking the document by POST")],
    timeout: Annotated[float, typer.Option("--timeout", help="seconds each case may take")] = 10.0,
    jobs: Annotated[int, typer.Option("--jobs", help="cases run at the same time")] = 1,
    junit_file: Annotated[Path | None, typer.Option("--junit", help="write JUnit XML here")] = None,
    name: Annotated[str | None, typer.Option("--case", help="only the cases whose name contains this")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="every case's verdict and the summary as JSON")] = False,
) -> None:
    """Run every case of KIT against another system: exit 0 when all pass, 1 when any fails or errs, 2 on bad input."""
    from tapete.lab import runner

    if timeout <= 0 or jobs < 1:
        _refuse(TapeteError("bad-option", "--timeout is a positive number of seconds and --jobs at least 1"))
    try:
        adapter = runner.adapter_for(against)
        cases = runner.load(kit, name)
    except TapeteError as exc:
        _refuse(exc)
    results = runner.run(adapter, cases, timeout, jobs)
    summary = runner.summary(results)
    if junit_file is not None:
        runner.junit(results, junit_file)
    if as_json:
        print(json.dumps({"summary": summary, "cases": [r.document() for r in results]}, ensure_ascii=False, indent=1))
    else:
        _print_run(results, summary)
    raise typer.Exit(0 if summary["total"]["pass"] == len(results) else 1)


def _print_run(results: list, summary: dict) -> None:
    for r in results:
        if r.verdict.status == "pass":
            continue
        typer.echo(f"{r.verdict.status.upper()} {r.suite} {r.case.name}")
        for line in [d.text() for d in r.verdict.diffs] or [r.verdict.message]:
            typer.echo(f"    {line}")
    table = Table(title="per game", show_edge=False)
    for col in ("game", "cases", "pass", "fail", "error"):
        table.add_column(col, justify="left" if col == "game" else "right")
    for game, c in summary["games"].items():
        table.add_row(game, str(c["cases"]), str(c["pass"]), str(c["fail"]), str(c["error"]))
    console.print(table)
    if summary["articles"]:
        typer.echo("articles of the cases that did not pass (cases: fail + error):")
        for article, c in summary["articles"].items():
            typer.echo(f"    {article}: {c['fail'] + c['error']} of {c['cases']}")
    t = summary["total"]
    typer.echo(f"{t['cases']} cases: {t['pass']} pass, {t['fail']} fail, {t['error']} error")


@conformance_app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option("--host")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port")] = 8765,
) -> None:
    """Serve tapete as the reference endpoint: POST a round document to /settle, get its answer."""
    from tapete.lab.serve import make_server

    try:
        server = make_server(host, port)
    except OSError as exc:
        _refuse(TapeteError("bad-option", f"cannot listen on {host}:{port}: {exc.strerror}"))
    typer.echo(f"tapete reference endpoint: POST round documents to http://{host}:{server.server_address[1]}/settle "
               "(Ctrl-C stops it)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
