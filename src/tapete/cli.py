"""The `tapete` command: games, rules, diff, settle, edge, play."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from tapete.core.errors import TapeteError
from tapete.core.jurisdictions import JURISDICTIONS, cite

app = typer.Typer(add_completion=False, no_args_is_help=True, help="The Spanish casino games catalogs, as software.")
console = Console()
err_console = Console(stderr=True)

JurisdictionOpt = Annotated[str, typer.Option("--jurisdiction", "-j", help="ES, ES-IB, ES-GA or ES-AN")]


def _fail(exc: TapeteError, as_json: bool = True) -> None:
    if as_json:
        print(json.dumps(exc.document(), ensure_ascii=False))
    else:
        err_console.print(f"[red]error[/red] [bold]{exc.code}[/bold]: {exc.message}")
    raise typer.Exit(2)


def _game(game_id: str, as_json: bool = False) -> Any:
    from tapete.engine.registry import get_game

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
def games(as_json: Annotated[bool, typer.Option("--json", help="FORMAT.md's games document")] = False) -> None:
    """List every game, the jurisdictions that have it, its bets and table keys."""
    from tapete.engine.registry import all_games

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
            {"rule": n, "value": _show(v), "source": s, "cite": cite(s)} for n, v, s in rows]}, ensure_ascii=False, indent=1))
        return
    j = JURISDICTIONS[jurisdiction]
    table = Table(title=f"{g.name_es} — {j.name} ({j.instrument})", show_lines=True)
    table.add_column("rule", style="bold")
    table.add_column("value")
    table.add_column("source", style="green")
    for name, value, source in rows:
        table.add_row(name, _show(value), source)
    console.print(table)
    console.print("[dim]Sources are seed:line in ../shared/seeds; readings of silent texts (R) are in docs/rulings.md.[/dim]")


@app.command()
def diff(game: str, as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """What differs between the jurisdictions that have GAME, side by side."""
    g = _game(game, as_json)
    codes = list(g.rules)
    per = {c: {name: (value, source) for name, value, source in g.rules[c].items()} for c in codes}
    names = list(per[codes[0]])
    differing = [n for n in names if len({_show(per[c][n][0]) for c in codes}) > 1]
    if as_json:
        print(json.dumps({"game": g.id, "differences": [
            {"rule": n, **{c: {"value": _show(per[c][n][0]), "source": per[c][n][1]} for c in codes}} for n in differing]},
            ensure_ascii=False, indent=1))
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


@app.command()
def settle(
    file: Annotated[str, typer.Argument(help="a round document, or - for standard input")] = "-",
    jsonl: Annotated[bool, typer.Option("--jsonl", help="one document per line in, one answer per line out")] = False,
) -> None:
    """Settle round documents (FORMAT.md): exit 0 with a settlement, 2 with an error document."""
    from tapete.conformance.document import settle_text

    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    except OSError as exc:
        _fail(TapeteError("bad-document", f"cannot read {file}: {exc.strerror}"))
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
    """An engine bug must still answer with a document, never a traceback on stdout."""
    try:
        return fn(text)
    except RecursionError:
        return TapeteError("bad-document", "document nested too deeply").document()
    except Exception as exc:  # noqa: BLE001 - last line of defence: report, don't crash
        return {"error": {"code": "internal-error", "message": f"{type(exc).__name__}: {exc}"}}


@app.command()
def edge(game: str, jurisdiction: JurisdictionOpt = "ES", as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """The exact house edge of every bet, from the same rules code that settles rounds."""
    from tapete.analysis.exact import edges

    g = _game(game, as_json)
    try:
        g.rules_for(jurisdiction)
        results = edges(g, jurisdiction)
    except TapeteError as exc:
        _fail(exc, as_json)
    with_on = True
    if as_json:
        print(json.dumps({"game": g.id, "jurisdiction": jurisdiction, "bets": [r.document(with_on) for r in results]},
                         ensure_ascii=False, indent=1))
        return
    table = Table(title=f"{g.name_en} ({jurisdiction}): house edge per unit staked")
    table.add_column("bet", style="bold")
    table.add_column("on")
    table.add_column("option")
    table.add_column("house edge", justify="right")
    table.add_column("%", justify="right", style="cyan")
    table.add_column("RTP %", justify="right")
    for r in results:
        table.add_row(r.kind, _show(r.on), r.option or "—", f"{r.house_edge.numerator}/{r.house_edge.denominator}",
                      f"{float(r.house_edge) * 100:.4f}", f"{(1 - float(r.house_edge)) * 100:.4f}")
    console.print(table)
    if not results:
        console.print("[yellow]no exact edge for this game yet[/yellow]")


@app.command()
def play(
    game: str,
    jurisdiction: JurisdictionOpt = "ES",
    minimum: Annotated[float, typer.Option(help="table minimum in euros")] = 1.0,
    balance: Annotated[float, typer.Option(help="your chips in euros")] = 500.0,
    seed: Annotated[str | None, typer.Option(help="hex seed to replay a session")] = None,
) -> None:
    """Sit at a table at the terminal."""
    from tapete.terminal import play_game

    g = _game(game)
    try:
        g.rules_for(jurisdiction)
        play_game(g, jurisdiction, minimum=round(minimum * 100), balance=round(balance * 100), seed=seed, console=console)
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

    from tapete.analysis.simulate import parse_bets
    from tapete.analysis.simulate import simulate as run_simulation

    g = _game(game, as_json)
    try:
        g.rules_for(jurisdiction)
    except TapeteError as exc:
        _fail(exc, as_json)
    specs = parse_bets(bets) if bets else None
    mapper = None
    if cluster:
        from tapete.analysis.distributed import dask_mapper

        mapper = dask_mapper(cluster)
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
    for col in ("bet", "option", "RTP", "99% interval", "sd/round", "exact RTP", "inside"):
        table.add_column(col, justify="right" if col not in ("bet", "option") else "left")
    for b in doc["bets"]:
        exact = b.get("rtp_exact")
        inside = "" if exact is None else ("[green]yes[/green]" if b["ci_low"] <= exact <= b["ci_high"] else "[red]no[/red]")
        label = b["kind"] + (" " + "-".join(map(str, b["on"])) if "on" in b else "")
        table.add_row(label, b.get("option", "—"), f"{b['rtp']:.5f}", f"[{b['ci_low']:.5f}, {b['ci_high']:.5f}]",
                      f"{b['sd']:.3f}", "—" if exact is None else f"{exact:.5f}", inside)
    console.print(table)


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
        result = simulate_risk(g.id, jurisdiction, parse_bets(bets), rounds_per_session, sessions, tables, seed)
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
    table.add_row("probability the house loses a session", f"{h['probability_house_loses']:.2%}")
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
        _fail(TapeteError("bad-document", "name jurisdictions only with --compare"), as_json=False)
    page = build_report(jurisdiction, out, rounds=rounds, seed=seed,
                        compare=(chosen or list(JURISDICTIONS)) if compare else None, games=game)
    console.print(f"report written to [bold]{page}[/bold]")


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
) -> None:
    """A game of bingo at the terminal: CSPRNG cards and draw, a live board, claims checked for every card."""
    from tapete.terminal.bingo import run_bingo
    from tapete.terminal.pools import euros_to_cents

    try:
        get = euros_to_cents
        record = run_bingo(cards=cards, seed=seed, price=get(price, "--price") or 0, line=get(line, "--line"),
                           bingo=get(prize, "--bingo"), jurisdiction=jurisdiction, console=console, delay=delay,
                           quiet=as_json)
    except (TapeteError, ValueError) as exc:
        _fail(exc if isinstance(exc, TapeteError) else TapeteError("bad-document", str(exc)), as_json)
    if as_json:
        print(json.dumps(record, ensure_ascii=False))


pool_app = typer.Typer(no_args_is_help=True, help="Pari-mutuel pools: a day's prizes from its tickets and result.")
app.add_typer(pool_app, name="pool")


@pool_app.command("lototrot")
def pool_lototrot(
    tickets: Annotated[str, typer.Option(help="the day's tickets: JSON list, JSON Lines or a round document")],
    result: Annotated[str, typer.Option(help="the official result: {races: [...], pool?: {...}}")],
    jackpot: Annotated[str | None, typer.Option(help="7/7 amount brought into the day, euros")] = None,
    reserve: Annotated[str | None, typer.Option(help="7/7 reserve fund brought in, euros")] = None,
    percentage: Annotated[str | None, typer.Option(help="share of the stakes to prizes, percent (at least 60)")] = None,
    day: Annotated[str | None, typer.Option("--date", help="race day YYYY-MM-DD: payment dates and expiry")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Lototrot: grade the tickets, split the pool into 7/7, 6/7, 5/7, 4/7, carry the jackpot and reserve."""
    from datetime import date

    from tapete.terminal import pools

    try:
        table, bets = pools.load_tickets(tickets)
        for key, value in (("jackpot", pools.euros_to_cents(jackpot, "--jackpot")),
                           ("reserve", pools.euros_to_cents(reserve, "--reserve")),
                           ("prize-percentage", pools.percent_number(percentage))):
            if value is not None:
                table[key] = value
        doc = pools.pool_document(table, bets, pools.load_result(result))
        state, settlement = pools.run_pool(doc)
        race_day = date.fromisoformat(day) if day else None
    except TapeteError as exc:
        _fail(exc, as_json)
    except ValueError as exc:
        _fail(TapeteError("bad-document", f"--date: {exc}"), as_json)
    report = pools.pool_report(state, settlement, race_day)
    if as_json:
        print(json.dumps(pools.pool_json(report, doc), ensure_ascii=False))
        return
    pools.render_pool(console, report, pools.notes(state))


@app.command()
def strategy(game: str, jurisdiction: JurisdictionOpt = "ES", as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """The strategy the engine derives for GAME: blackjack's chart (hard totals, soft totals, pairs), póquer sin
    descarte's optimal call/fold chart."""
    from tapete.terminal.blackjack import print_chart
    from tapete.terminal.sin_descarte_strategy import print_strategy

    g = _game(game, as_json)
    try:
        g.rules_for(jurisdiction)
        if g.id == "poker-sin-descarte":
            print_strategy(jurisdiction, console, as_json=as_json)
            return
        if g.id != "blackjack":
            raise TapeteError("unknown-game", f"{g.id} has no strategy chart (blackjack and poker-sin-descarte have)")
        print_chart(jurisdiction, console, as_json=as_json)
    except TapeteError as exc:
        _fail(exc, as_json)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
