"""The lab's commands: `tapete conformance export|run|serve` and `tapete rng test|stream` (docs/lab.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from tapete.core.errors import TapeteError

if TYPE_CHECKING:
    from tapete.lab.rng_sources import SimulationSource, TableSource

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
    failing = {a: c for a, c in summary["articles"].items() if c["fail"] + c["error"]}
    if failing:
        typer.echo("articles of the cases that did not pass (cases: fail + error):")
        for article, c in failing.items():
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

    if not 0 <= port <= 65535:
        _refuse(TapeteError("bad-option", f"--port {port}: a TCP port is 0 to 65535 (0 picks a free one)"))
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


# -- the RNG battery ------------------------------------------------------------------------------------------------
rng_app = typer.Typer(no_args_is_help=True, help="Certify the random generators: the battery, and the raw stream "
                      "for outside batteries such as dieharder (docs/lab.md).")
SourceOpt = Annotated[str, typer.Option("--source", help="table (the CSPRNG the tables deal from) or simulation "
                                        "(the simulators' PCG64 streams)")]
SeedOpt = Annotated[str | None, typer.Option("--seed", help="hexadecimal seed (at least 16 bytes for the table): a "
                                             "reproducible run; without it, seeds from the operating system")]


def _source(source: str, seed: str | None) -> TableSource | SimulationSource:
    from tapete.lab.rng_sources import SimulationSource, TableSource

    if source not in ("table", "simulation"):
        raise TapeteError("bad-option", f"--source {source!r}: table or simulation")
    try:
        raw = bytes.fromhex(seed) if seed is not None else None
    except ValueError:
        raise TapeteError("bad-option", f"--seed {seed!r} is not hexadecimal") from None
    if source == "table":
        if raw is not None and len(raw) < 16:
            raise TapeteError("bad-option", "--seed: a table seed has at least 16 bytes (32 hexadecimal digits)")
        return TableSource(raw)
    return SimulationSource(int.from_bytes(raw, "big") if raw is not None else None)


@rng_app.command("test")
def rng_test(
    source: SourceOpt = "table",
    draws: Annotated[int, typer.Option("--draws", help="roulette spins; every other sample scales with it "
                                       "(37,000 is the documented full run)")] = 37_000,
    seed: SeedOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="the report as JSON")] = False,
    html_file: Annotated[Path | None, typer.Option("--html", help="write the report with its histograms here")] = None,
) -> None:
    """Run the certification battery: exit 0 when the generator passes, 1 when it fails, 2 on bad input."""
    from tapete.lab.battery import Sizes, run_battery
    from tapete.lab.rng_report import html_report, json_report, print_report

    try:
        sizes = Sizes.for_draws(draws)
        src = _source(source, seed)
    except ValueError as exc:
        _refuse(TapeteError("bad-option", str(exc)))
    except TapeteError as exc:
        _refuse(exc)
    report = run_battery(src, sizes, seed=seed)
    if html_file is not None:
        html_file.parent.mkdir(parents=True, exist_ok=True)
        html_file.write_text(html_report(report), encoding="utf-8")
    if as_json:
        print(json_report(report))
    else:
        print_report(report, console)
    raise typer.Exit(0 if report.passed else 1)


@rng_app.command("stream")
def rng_stream(
    source: SourceOpt = "table",
    seed: SeedOpt = None,
    count: Annotated[int | None, typer.Option("--bytes", help="stop after this many bytes (default: until the "
                                              "reader stops)")] = None,
) -> None:
    """Write the generator's raw output to standard output, for dieharder (-g 200) or NIST SP 800-22."""
    import os
    import sys

    from tapete.core.rng import TableRng
    from tapete.lab.rng_sources import TableSource

    try:
        src = _source(source, seed)
    except TapeteError as exc:
        _refuse(exc)
    if count is not None and count < 1:
        _refuse(TapeteError("bad-option", "--bytes is a positive number"))
    if isinstance(src, TableSource):
        rng = TableRng(src.seed)

        def chunk(n: int) -> bytes:
            return rng.bytes(n)
    else:
        gen = src.generator

        def chunk(n: int) -> bytes:
            return gen.bytes(n)
    out = sys.stdout.buffer
    left = count
    try:
        while left is None or left > 0:
            n = 4096 if left is None else min(4096, left)
            out.write(chunk(n))
            left = None if left is None else left - n
        out.flush()
    except BrokenPipeError:          # the reader (dieharder) has read enough: a normal end
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
