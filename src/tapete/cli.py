"""The `tapete` command: games, rules, diff, settle, edge, play."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from tapete import cli_args, cli_checks
from tapete.cli_boundary import EXIT_CODES, TapeteGroup
from tapete.cli_render import FittingConsole, progress
from tapete.core.errors import TapeteError
from tapete.core.jurisdictions import JURISDICTIONS, cite
from tapete.core.typed_json import rule_value

app = typer.Typer(cls=TapeteGroup, add_completion=False, no_args_is_help=True, epilog=EXIT_CODES,
                  help="The Spanish casino games catalogs, as software.")
console = FittingConsole()
err_console = Console(stderr=True)

JurisdictionOpt = Annotated[str, typer.Option("--jurisdiction", "-j", help="ES, ES-IB, ES-GA or ES-AN")]
LangOpt = Annotated[str | None, typer.Option("--lang", help="es or en (default: from LANG / LC_ALL)")]


def _speech(lang: str | None) -> str:
    """The language a command speaks in: --lang, else the locale's (as `tapete play`)."""
    from tapete import i18n

    speech = i18n.from_locale() if lang is None else lang
    if speech not in i18n.languages():
        raise TapeteError("bad-request", "--lang: " + i18n.render("en", "play.bad-lang", code=speech,
                                                                  langs=", ".join(i18n.languages())))
    return speech


def _fail(exc: TapeteError, as_json: bool = True) -> NoReturn:
    _say(exc, as_json)
    raise typer.Exit(2)


def _say(exc: TapeteError, as_json: bool) -> None:
    if as_json:
        print(json.dumps(exc.document(), ensure_ascii=False))
    else:   # one line, whatever the terminal's width; the message is text, not Rich markup
        err_console.print(f"[red]error[/red] [bold]{exc.code}[/bold]: {escape(exc.message)}", soft_wrap=True)


def _game(game_id: str, as_json: bool = False) -> Any:
    from tapete.catalog import get_game

    try:
        return get_game(game_id)
    except TapeteError as exc:
        _fail(exc, as_json)


def _show(value: Any) -> str:
    if isinstance(value, Fraction):
        return f"{value.numerator}:{value.denominator}" if value.denominator != 1 else f"{value.numerator}:1"
    if isinstance(value, dict):
        return ", ".join(f"{k}={_show(v)}" for k, v in value.items())
    if isinstance(value, tuple | list):
        return ", ".join(_show(v) for v in value) if value else "—"
    if value is None:
        return "—"
    return str(value)


@app.command()
def games(as_json: Annotated[bool, typer.Option("--json", help="docs/format.md's games document")] = False) -> None:
    """List every game, the jurisdictions that have it, its bets and table keys."""
    from tapete.catalog import all_games

    found = all_games()
    if as_json:
        print(json.dumps({"games": [g.info() for g in found]}, ensure_ascii=False, indent=1))
        return
    table = Table(title="tapete — games of the Spanish catalogs", show_lines=False)
    table.add_column("id", style="bold cyan")
    table.add_column("name")
    table.add_column("jurisdictions")
    table.add_column("bets")
    for g in found:
        info = g.info()
        kinds = ", ".join(f"{k['kind']} {k['pays']}" if k["pays"] else k["kind"] for k in info["kinds"])
        table.add_row(g.id, f"{g.name_es}\n[dim]{g.name_en}[/dim]", " ".join(info["jurisdictions"]), kinds)
    console.print(table)


@app.command()
def rules(game: str, jurisdiction: JurisdictionOpt = "ES", as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Every rule of GAME in a jurisdiction, with the article it comes from."""
    g = _game(game, as_json)
    try:
        r = g.rules_for(jurisdiction)
    except TapeteError as exc:
        _fail(exc, as_json)
    rows = [(name, value, source) for name, value, source in r.items()]
    if as_json:
        print(json.dumps({"game": g.id, "jurisdiction": jurisdiction, "rules": [
            {"rule": n, "value": rule_value(n, v), "source": s, "cite": cite(s)} for n, v, s in rows]}, ensure_ascii=False, indent=1))
        return
    j = JURISDICTIONS[jurisdiction]
    table = Table(title=f"{g.name_es} — {j.name} ({j.instrument})", show_lines=True)
    table.add_column("rule", style="bold")
    table.add_column("value")
    table.add_column("source", style="green")
    for name, value, source in rows:
        table.add_row(name, _show(value), source)
    console.print(table)
    console.print("[dim]Sources are seed:line (docs/sources.md; tapete cite 001:81); readings of silent texts (R) are in "
                  "docs/rulings.md (tapete cite rulings#ANCHOR).[/dim]")


@app.command()
def diff(game: str, as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """What differs between the jurisdictions that have GAME, side by side."""
    g = _game(game, as_json)
    if len(g.rules) < 2:
        _fail(cli_checks.nothing_to_compare(g), as_json)
    codes = list(g.rules)
    per = {c: {name: (value, source) for name, value, source in g.rules[c].items()} for c in codes}
    names = list(per[codes[0]])
    differing = [n for n in names if len({_show(per[c][n][0]) for c in codes}) > 1]
    if as_json:
        print(json.dumps({"game": g.id, "differences": [
            {"rule": n, **{c: {"value": rule_value(n, per[c][n][0]), "source": per[c][n][1]} for c in codes}}
            for n in differing]},
            ensure_ascii=False, indent=1))
        return
    if not differing:        # no empty table: a sentence
        console.print(f"{g.name_es}: every rule is the same in {', '.join(codes)}")
        return
    table = Table(title=f"{g.name_es}: what differs between jurisdictions", show_lines=True)
    table.add_column("rule", style="bold")
    for c in codes:
        table.add_column(c)
    for n in differing:
        table.add_row(n, *[f"{_show(per[c][n][0])}\n[green]{per[c][n][1]}[/green]" for c in codes])
    console.print(table)
    same = [n for n in names if n not in differing]
    console.print(f"[dim]The same everywhere: {', '.join(same)}[/dim]")


@app.command("cite")
def cite_command(citation: Annotated[str, typer.Argument(help="NNN:LINE or NNN:FIRST-LAST (003:1735), rulings#ANCHOR, "
                                                       "or any source tapete prints")]) -> None:
    """What a citation points to: the instrument, where to obtain it, the game and the article (docs/sources.md);
    a ruling's or a vocabulary section's text."""
    from tapete.core.citing import resolve as describe

    try:
        lines = describe(citation)
    except ValueError as exc:
        cli_args.refuse("bad-option", str(exc))
    for line in lines:
        typer.echo(line)


@app.command()
def settle(
    file: Annotated[str, typer.Argument(help="a round document, or - for standard input")] = "-",
    jsonl: Annotated[bool, typer.Option("--jsonl", help="one document per line in, one answer per line out")] = False,
) -> None:
    """Settle round documents (docs/format.md): exit 0 with a settlement, 2 with an error document."""
    from tapete.conformance.document import settle_text

    try:
        text = cli_args.read_text(file, "FILE")
    except TapeteError as exc:
        _fail(exc)
    if not jsonl:
        answer = _safe(settle_text, text)
        print(json.dumps(answer, ensure_ascii=False))
        raise typer.Exit(2 if "error" in answer else 0)
    refused = False
    for line in text.splitlines():
        if not line.strip():
            continue
        answer = _safe(settle_text, line)
        refused |= "error" in answer
        print(json.dumps(answer, ensure_ascii=False))
    raise typer.Exit(2 if refused else 0)


def _safe(fn: Any, text: str) -> dict[str, Any]:
    """An engine bug must still answer with a document, never a traceback on stdout, nor Python's own words
    (TAPETE_DEBUG=1 lets the exception through, for a developer)."""
    try:
        return fn(text)
    except RecursionError:
        return TapeteError("bad-document", "document nested too deeply").document()
    except Exception:  # noqa: BLE001 - last line of defence: report, don't crash
        if _debug():
            raise
        return {"error": {"code": "internal-error", "message": "tapete failed on this document: a bug in tapete, "
                                                              "please report it with the document"}}


def _debug() -> bool:
    import os

    return os.environ.get("TAPETE_DEBUG", "") not in ("", "0")


@app.command()
def edge(game: str, jurisdiction: JurisdictionOpt = "ES", as_json: Annotated[bool, typer.Option("--json")] = False,
         jackpot_share: Annotated[str | None, typer.Option("--jackpot-share", help="the carousel's share of each stake "
                                                           "into its meter, e.g. 0.8 or 4/5 (the long-run line)")] = None,
         jackpot_seed: Annotated[str | None, typer.Option("--jackpot-seed", help="the meter's seed after a royal "
                                                          "flush, x the stake (e.g. 5000)")] = None) -> None:
    """The house edge of every bet, from the same rules code that settles rounds; each line says how it is known."""
    from tapete.analysis.edges import edges, with_carousel

    g = _game(game, as_json)
    try:
        g.rules_for(jurisdiction)
        with progress(err_console, f"{g.id} {jurisdiction}: exact edges", as_json=as_json):
            results = edges(g, jurisdiction)
        if not results:
            raise cli_checks.no_house_edge(g, jurisdiction, "edge")
        if jackpot_share is not None or jackpot_seed is not None:
            results = with_carousel(g.id, jurisdiction, results, jackpot_share, jackpot_seed)
    except TapeteError as exc:
        _fail(exc, as_json)
    with_on = True
    if as_json:
        print(json.dumps({"game": g.id, "jurisdiction": jurisdiction, "bets": [r.document(with_on) for r in results]},
                         ensure_ascii=False, indent=1))
        return
    table = Table(title=f"{g.name_en} ({jurisdiction}): house edge per unit bet")
    for col in ("bet", "on", "option", "house edge", "%", "RTP %", "method"):
        table.add_column(col, justify="right" if col in ("house edge", "%", "RTP %") else "left")
    for r in results:
        table.add_row(r.kind, _show(r.on), r.option or "—", r.edge_text(), r.percent_text(), r.percent_text(True),
                      _method_text(r))
    console.print(table)
    _per_unit_lines(results)


def _per_unit_lines(results: list[Any]) -> None:
    """Below the table: each multi-stake bet's two per-unit figures, each model's minimum and what it breaks."""
    for r in results:
        label = r.kind + (f" @{r.option}" if r.option else "")
        if r.stakes is not None:
            initial, risk = r.per_unit()
            console.print(f"{label}: house edge per unit of the initial bet ({_units(r.stakes.initial)}) "
                          f"{r.percent_text(value=initial)} %; element of risk per unit wagered "
                          f"{r.percent_text(value=risk)} % (average wager {_units(r.stakes.wagered)})")
        if r.minimum_return is not None:
            floor, source = r.minimum_return
            console.print(f"{label}: minimum return {float(floor):.0%} ({source}): "
                          + ("[green]met[/green]" if not r.breaks_minimum() else "[red]NOT met[/red]"))
        for problem in r.problems:
            console.print(f"[red]{label}: {escape(problem)}[/red]")


def _units(x: Fraction) -> str:
    return f"{float(x):.4f} units" if x.denominator != 1 else f"{x.numerator} unit{'s' if x != 1 else ''}"


def _method_text(r: Any) -> str:
    """How the figure was obtained, as `tapete edge`'s table says it (docs/edge.md)."""
    if r.method == "enumerated-float":
        return f"enumerated (float), error ≤ {r.error_bound:.0e}" + (" (approximate model)" if r.approximation else "")
    if r.method == "simulated":
        low, high = r.interval
        return f"simulated, {r.rounds:,} rounds, 99% [{low * 100:.4f}, {high * 100:.4f}] %"
    if r.method == "model":
        return "model"          # its assumptions: the --json note (docs/edge.md)
    return "exact"


@app.command()
def play(
    game: str,
    jurisdiction: JurisdictionOpt = "ES",
    minimum: Annotated[float, typer.Option(help="table minimum in euros")] = 1.0,
    balance: Annotated[float, typer.Option(help="your chips in euros")] = 500.0,
    seed: Annotated[str | None, typer.Option(help="hex seed to replay a session")] = None,
    lang: Annotated[str | None, typer.Option("--lang", help="es or en (default: from LANG / LC_ALL)")] = None,
) -> None:
    """Sit at a table at the terminal, in one language (docs/terminal.md)."""
    from tapete.terminal import play_game, session_settings

    g = _game(game)
    try:
        seed = cli_args.hex_seed(seed)
        cli_args.not_negative(minimum, "--minimum")
        cli_args.not_negative(balance, "--balance")
        cli_args.at_most(max(minimum, balance), 10**12, "--minimum and --balance")
        g.rules_for(jurisdiction)
        speech, cents, floor = session_settings(lang, balance, minimum)
        play_game(g, jurisdiction, minimum=floor, balance=cents, seed=seed, console=console, lang=speech)
    except TapeteError as exc:
        _fail(exc, as_json=False)


@app.command()
def simulate(
    game: str,
    jurisdiction: JurisdictionOpt = "ES",
    rounds: Annotated[int, typer.Option("--rounds", "-n", help="rounds to simulate")] = 1_000_000,
    seed: Annotated[int, typer.Option(help="the same seed gives the same result, whatever the workers")] = 1,
    bets: Annotated[str | None, typer.Option(help="e.g. 'straight:17,split:17-20,red@prison' (default: one unit on each kind)")] = None,
    strategy: Annotated[str | None, typer.Option(help="the decision policy of the bets that take one (default: the derived "
                                                      "or optimal strategy the exact edge uses, e.g. basic-strategy)")] = None,
    workers: Annotated[int, typer.Option(help="local worker processes")] = 1,
    cluster: Annotated[str | None, typer.Option(help="a Dask scheduler address, e.g. tcp://10.0.0.5:8786")] = None,
    chunk: Annotated[int, typer.Option(help="rounds per chunk (one random stream each)")] = 1 << 22,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Monte Carlo simulation: per bet the RTP with its 99% interval, beside the exact edge."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from tapete.analysis.simulate import default_specs, parse_bets
    from tapete.analysis.simulate import simulate as run_simulation

    g = _game(game, as_json)
    try:
        g.rules_for(jurisdiction)
        for value, option in ((rounds, "--rounds"), (chunk, "--chunk"), (workers, "--workers")):
            cli_args.at_least(value, 1, option)
        cli_args.at_most(rounds, 10**13, "--rounds")
        cli_args.at_least(seed, 0, "--seed")
        specs = parse_bets(bets) if bets else None
        if specs:
            cli_checks.check_bet_options(g, jurisdiction, specs)
        elif not default_specs(g, jurisdiction):
            raise cli_checks.no_house_edge(g, jurisdiction, "simulate")
        if strategy is not None:
            _check_strategy(g, jurisdiction, strategy)
        if cluster:
            cli_args.dask_scheduler(cluster)
    except TapeteError as exc:
        _fail(exc, as_json)
    mapper = None
    if cluster:
        from tapete.analysis.distributed import dask_mapper

        try:
            mapper = dask_mapper(cluster)
        except (OSError, TimeoutError) as exc:
            _fail(TapeteError("bad-option", f"--cluster: cannot use the Dask scheduler at {cluster} "
                              f"({type(exc).__name__})"), as_json)
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("{task.fields[rate]}"), TimeRemainingColumn(), console=err_console,
                        disable=as_json or rounds < 10 * chunk)
    with progress:
        task = progress.add_task(f"{g.id} {jurisdiction}", total=rounds, rate="")

        def advance(n: int) -> None:
            progress.advance(task, n)
            elapsed = progress.tasks[0].elapsed or 0
            if elapsed:
                progress.update(task, rate=f"{progress.tasks[0].completed / elapsed / 1e6:.1f} M rounds/s")

        try:
            result = run_simulation(g.id, jurisdiction, rounds, seed, specs, workers=workers, chunk=chunk,
                                    progress=advance, map_chunks=mapper, strategy=strategy)
        except TapeteError as exc:
            _fail(exc, as_json)
    doc = result.document()
    if as_json:
        print(json.dumps(doc, ensure_ascii=False, indent=1))
        return
    table = Table(title=f"{g.name_en} ({jurisdiction}): {rounds:,} rounds, seed {seed}, "
                        f"{doc['rounds_per_second'] or 0:,} rounds/s")
    for col in ("bet", "option", "RTP", "99% interval", "sd/round", "edge's RTP", "inside"):
        table.add_column(col, justify="right" if col not in ("bet", "option") else "left")
    for b in doc["bets"]:
        exact = b.get("rtp_reference")
        inside = "" if exact is None else ("[green]yes[/green]" if b["ci_low"] <= exact <= b["ci_high"] else "[red]no[/red]")
        label = b["kind"] + (" " + "-".join(map(str, b["on"])) if "on" in b else "")
        table.add_row(label, b.get("option", "—"), f"{b['rtp']:.5f}", f"[{b['ci_low']:.5f}, {b['ci_high']:.5f}]",
                      f"{b['sd']:.3f}", "—" if exact is None else f"{exact:.5f}", inside)
    console.print(table)


def _check_strategy(g: Any, jurisdiction: str, strategy: str) -> None:
    """--strategy names a policy the game's simulation plays, or one of its verbs."""
    from tapete.analysis.simulate import kernel_for

    kinds = getattr(kernel_for(g, jurisdiction), "strategies", {})
    known = sorted({s for names in kinds.values() for s in names} | set(g.verbs()))
    if strategy not in known:
        offer = ", ".join(known) if known else "none: it has no decisions to make"
        raise TapeteError("unknown-strategy", f"--strategy: {g.id} plays {offer}; not {strategy!r}")


@app.command()
def risk(
    game: str,
    bets: Annotated[str, typer.Option(help="the layout each round, e.g. 'straight:17,red@prison' (1 € each)")],
    jurisdiction: JurisdictionOpt = "ES",
    rounds_per_session: Annotated[int, typer.Option("--rounds-per-session", help="rounds in one session")] = 1000,
    sessions: Annotated[int, typer.Option(help="sessions simulated")] = 10_000,
    tables: Annotated[int, typer.Option(help="tables the casino runs (for the guarantee)")] = 1,
    seed: Annotated[int, typer.Option()] = 1,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """The house's result per session, and the table float and guarantee that cover the players' wins."""
    from tapete.analysis.risk import simulate_risk
    from tapete.analysis.simulate import parse_bets

    g = _game(game, as_json)
    try:
        g.rules_for(jurisdiction)
        for value, option in ((rounds_per_session, "--rounds-per-session"), (sessions, "--sessions"), (tables, "--tables")):
            cli_args.at_least(value, 1, option)
        cli_args.at_most(rounds_per_session * sessions, 10**11, "--rounds-per-session x --sessions")
        cli_args.at_most(tables, 10**6, "--tables")
        cli_args.at_least(seed, 0, "--seed")
        layout = parse_bets(bets)
        cli_checks.check_bet_options(g, jurisdiction, layout)
        result = simulate_risk(g.id, jurisdiction, layout, rounds_per_session, sessions, tables, seed)
    except TapeteError as exc:
        _fail(exc, as_json)
    doc = result.document()
    if as_json:
        print(json.dumps(doc, ensure_ascii=False, indent=1))
        return
    h = doc["house_result_per_session"]
    table = Table(title=f"{g.name_en} ({jurisdiction}): {sessions:,} sessions of {rounds_per_session:,} rounds, "
                        f"{doc['stake_per_session']:,.2f} € staked per session")
    table.add_column("house result per table-session", style="bold")
    table.add_column("€", justify="right")
    for label, key in (("mean", "mean"), ("standard deviation", "sd"), ("1st percentile", "p01"),
                       ("median", "p50"), ("99th percentile", "p99")):
        table.add_row(label, f"{h[key]:,.2f}")
    if "sd_exact" in h:
        table.add_row("mean (exact)", f"{h['mean_exact']:,.2f}")
        table.add_row("standard deviation (exact variance)", f"{h['sd_exact']:,.2f}")
    table.add_row("probability the house loses a session", f"{h['probability_house_loses']:.2%}")
    e = doc["house_edge"]
    table.add_row("house edge per unit staked (99% interval)", f"{e['estimate']:.4%} [{e['interval'][0]:.4%}, "
                  f"{e['interval'][1]:.4%}]")
    if "reference" in e:
        table.add_row(f"`tapete edge` ({e['reference_method']})", f"{float(Fraction(e['reference'])):.4%}"
                      + ("" if e["inside"] else " [red](outside)[/red]"))
    for c, v in doc["float"].items():
        table.add_row(f"[cyan]table float (anticipo) at {c}[/cyan]", f"[cyan]{v:,.2f}[/cyan]")
    for c, v in doc["guarantee"].items():
        table.add_row(f"[magenta]guarantee for {tables} table(s) at {c}[/magenta]", f"[magenta]{v:,.2f}[/magenta]")
    console.print(table)


@app.command()
def report(
    codes: Annotated[list[str] | None, typer.Argument(help="with --compare: the jurisdictions to compare")] = None,
    jurisdiction: JurisdictionOpt = "ES",
    out: Annotated[Path, typer.Option(help="folder for index.html and the PNG figures")] = Path("report"),
    rounds: Annotated[int, typer.Option(help="simulated rounds per game")] = 1_000_000,
    seed: Annotated[int, typer.Option()] = 1,
    compare: Annotated[bool, typer.Option("--compare", help="add charts comparing jurisdictions (all four if none named)")] = False,
    game: Annotated[list[str] | None, typer.Option("--game", help="only these games (repeatable); default all")] = None,
) -> None:
    """An HTML report: every game's exact edges, simulated RTPs, convergence and jurisdiction comparison plots.

    tapete report -j ES-AN --out report/      tapete report --compare ES ES-AN
    """
    from tapete.analysis.report import build_report

    chosen = list(codes or [])
    for code in [jurisdiction, *chosen]:
        if code not in JURISDICTIONS:
            _fail(TapeteError("unknown-jurisdiction", f"unknown jurisdiction {code!r}"), as_json=False)
    if chosen and not compare:
        _fail(TapeteError("bad-option", "name jurisdictions only with --compare"), as_json=False)
    try:
        cli_args.at_least(rounds, 1, "--rounds")
        cli_args.at_most(rounds, 10**10, "--rounds")
        cli_args.at_least(seed, 0, "--seed")
        for gid in game or []:
            from tapete.catalog import get_game

            get_game(gid).rules_for(jurisdiction)
        if out.exists() and not out.is_dir():
            raise TapeteError("bad-option", f"--out: {out} is a file; the report is a folder (index.html and figures)")
    except TapeteError as exc:
        _fail(exc, as_json=False)
    # a bar on the terminal while the games simulate; quiet when stderr is not a terminal (a pipe, a log)
    with progress(err_console, "report", bar=True) as update:

        def step(name: str, done: int, total: int) -> None:
            update(description=f"report: {name}", completed=done, total=total)

        try:
            page = build_report(jurisdiction, out, rounds=rounds, seed=seed,
                                compare=(chosen or list(JURISDICTIONS)) if compare else None, games=game, progress=step)
        except OSError as exc:
            _fail(TapeteError("bad-option", f"--out: cannot write the report in {out}: {exc.strerror or exc}"),
                  as_json=False)
    console.print(f"report written to [bold]{page}[/bold]")


@app.command()
def par(
    game: str,
    jurisdiction: JurisdictionOpt = "ES",
    out: Annotated[Path, typer.Option(help="folder for the sheet, par-GAME-J.html")] = Path("par"),
    rounds: Annotated[int, typer.Option(help="simulated rounds per bet for the simulation check")] = 200_000,
    seed: Annotated[int, typer.Option()] = 1,
) -> None:
    """The PAR sheet of GAME: per bet the outcomes, RTP, hold, SD, hit frequency, rules and a simulation check."""
    from tapete import cli_args
    from tapete.analysis.par import write_par

    g = _game(game)
    try:
        g.rules_for(jurisdiction)
        cli_args.at_least(rounds, 1, "--rounds")
        cli_args.at_most(rounds, 10**9, "--rounds")
        cli_args.at_least(seed, 0, "--seed")
        if out.exists() and not out.is_dir():
            raise TapeteError("bad-option", f"--out: {out} is a file; the PAR sheet goes into a folder")
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise TapeteError("bad-option", f"--out: cannot make the folder {out} ({exc.strerror})") from None
        with progress(err_console, f"{g.id} {jurisdiction}: PAR sheet"):
            page = write_par(g.id, jurisdiction, out, rounds=rounds, seed=seed)
    except TapeteError as exc:
        _fail(exc, as_json=False)
    console.print(f"PAR sheet written to [bold]{page}[/bold]")


from tapete.server.cli import register as _register_server  # noqa: E402 - serve, verify, audit

_register_server(app)


@app.command("bingo")
def bingo_game(
    cards: Annotated[int, typer.Option("--cards", "-n", help="cards sold for the game")] = 100,
    seed: Annotated[str | None, typer.Option(help="hex seed: the cards and the draw replay from it")] = None,
    price: Annotated[str, typer.Option(help="face value of a card, euros")] = "1",
    line: Annotated[str | None, typer.Option(help="line prize, euros (default: 10 % of sales, a demo plan)")] = None,
    prize: Annotated[str | None, typer.Option("--bingo", help="bingo prize, euros (default: 50 % of sales)")] = None,
    jurisdiction: JurisdictionOpt = "ES",
    delay: Annotated[float, typer.Option(help="seconds between balls on the live board")] = 0.15,
    as_json: Annotated[bool, typer.Option("--json", help="print the game's record (round document, settlement) as JSON")] = False,
    lang: LangOpt = None,
) -> None:
    """A game of bingo at the terminal: CSPRNG cards and draw, a live board, claims checked for every card."""
    from tapete.terminal.bingo import run_bingo
    from tapete.terminal.pools import euros_to_cents

    try:
        cli_args.at_least(cards, 1, "--cards", code="bad-document")     # the code bingo's own check answered
        cli_args.at_most(cards, 100_000, "--cards", code="bad-document")
        cli_args.not_negative(delay, "--delay")
        cli_args.at_most(delay, 60, "--delay")
        seed = cli_args.hex_seed(seed)
        get = euros_to_cents
        record = run_bingo(cards=cards, seed=seed, price=get(price, "--price") or 0, line=get(line, "--line"),
                           bingo=get(prize, "--bingo"), jurisdiction=jurisdiction, console=console, delay=delay,
                           quiet=as_json, lang=_speech(lang))
    except (TapeteError, ValueError) as exc:
        _fail(exc if isinstance(exc, TapeteError) else TapeteError("bad-document", str(exc)), as_json)
    if as_json:
        print(json.dumps(record, ensure_ascii=False))


pool_app = typer.Typer(no_args_is_help=True, help="Pari-mutuel pools: a day's prizes from its tickets and result.")
app.add_typer(pool_app, name="pool")

from tapete.lab.cli import conformance_app, rng_app  # noqa: E402 - the lab's commands (docs/lab.md)

app.add_typer(conformance_app, name="conformance")
app.add_typer(rng_app, name="rng")


@pool_app.command("lototrot")
def pool_lototrot(
    tickets: Annotated[str, typer.Option(help="the day's tickets: JSON list, JSON Lines or a round document")],
    result: Annotated[str, typer.Option(help="the official result: {races: [...], pool?: {...}}")],
    jackpot: Annotated[str | None, typer.Option(help="7/7 amount brought into the day, euros")] = None,
    reserve: Annotated[str | None, typer.Option(help="7/7 reserve fund brought in, euros")] = None,
    percentage: Annotated[str | None, typer.Option(help="share of the stakes to prizes, percent (at least 60)")] = None,
    day: Annotated[str | None, typer.Option("--date", help="race day YYYY-MM-DD: payment dates and expiry")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    lang: LangOpt = None,
) -> None:
    """Lototrot: grade the tickets, split the pool into 7/7, 6/7, 5/7, 4/7, carry the jackpot and reserve."""
    from tapete.terminal import pools

    try:
        for path, option in ((tickets, "--tickets"), (result, "--result")):
            cli_args.read_text(path, option, allow_stdin=False)      # missing, folder, binary, not UTF-8: named
        race_day = _race_day(day)
        speech = _speech(lang)
        given = (("jackpot", pools.euros_to_cents(jackpot, "--jackpot")),
                 ("reserve", pools.euros_to_cents(reserve, "--reserve")),
                 ("prize-percentage", pools.percent_number(percentage)))
        table, bets = pools.load_tickets(tickets)
        for key, value in given:
            if value is not None:
                table[key] = value
        doc = pools.pool_document(table, bets, pools.load_result(result))
        state, settlement = pools.run_pool(doc)
    except TapeteError as exc:
        _fail(exc, as_json)
    report = pools.pool_report(state, settlement, race_day)
    if as_json:
        print(json.dumps(pools.pool_json(report, doc), ensure_ascii=False))
        return
    pools.render_pool(console, report, pools.local_notes(state, speech), speech)


def _race_day(day: str | None) -> Any:
    from datetime import date

    try:
        return date.fromisoformat(day) if day else None
    except ValueError:
        raise TapeteError("bad-document", f"--date is a day YYYY-MM-DD (got {day!r})") from None


@app.command()
def strategy(game: str, jurisdiction: JurisdictionOpt = "ES", as_json: Annotated[bool, typer.Option("--json")] = False,
             lang: LangOpt = None) -> None:
    """The strategy the engine derives for GAME: blackjack's chart (hard totals, soft totals, pairs), póquer sin
    descarte's optimal call/fold chart."""
    from tapete.terminal.blackjack import print_chart
    from tapete.terminal.sin_descarte_strategy import print_strategy

    g = _game(game, as_json)
    try:
        g.rules_for(jurisdiction)
        speech = _speech(lang)
        if g.id not in ("blackjack", "poker-sin-descarte"):
            raise TapeteError("unknown-game", f"{g.id} has no strategy chart (blackjack and poker-sin-descarte have)")
        show = print_strategy if g.id == "poker-sin-descarte" else print_chart
        with progress(err_console, f"{g.id} {jurisdiction}: deriving the strategy", as_json=as_json):
            show(jurisdiction, console, as_json=as_json, lang=speech)
    except TapeteError as exc:
        _fail(exc, as_json)


def main() -> None:
    """The console script. The commands check their own input (cli_args); what escapes them is answered by the
    one boundary, tapete/cli_boundary.py: one line and exit 2, 141 for a closed pipe, never a traceback."""
    app()


if __name__ == "__main__":
    main()
