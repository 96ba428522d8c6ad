"""`tapete shift`: the jornada report from the database — per table, game, cloth and for the casino, the books
(float, fills, credits, drop, cagnotte, tips, win, handle, hold, the theoretical win and how far the result lies from
it), the period's top wins, voids, corrections and disputes, and the staff on each table. `tapete report` keeps its
meaning (a game's analysis); this reads the server's books."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from typing import Annotated, Any
from zoneinfo import ZoneInfo

import typer

from tapete.core.money import euros

FIGURES = (("opening_float", "opening float"), ("fills", "fills"), ("credits", "credits"), ("drop", "drop"),
           ("closing_float", "closing float"), ("win", "win"), ("cagnotte", "cagnotte"), ("result", "result (win + cagnotte)"),
           ("tips", "tips (apart)"), ("handle", "handle"), ("theoretical_win", "theoretical win"))
CSV_COLUMNS = ("level", "name", "jornadas", "opening_float", "fills", "credits", "drop", "closing_float", "win",
               "cagnotte", "result", "tips", "handle", "hold_pct", "theoretical_win", "theoretical_sd", "deviations",
               "reconciled")


def shift(start: Annotated[str | None, typer.Option("--from", help="the period's start: 2026-11-29, 2026-11-29T20:00 "
                                                    "(the casino's time) or epoch seconds (default: the last jornada)")] = None,
          end: Annotated[str | None, typer.Option("--to", help="the period's end (tables opened before it)")] = None,
          table: Annotated[str | None, typer.Option("--table", help="one table only")] = None,
          as_json: Annotated[bool, typer.Option("--json", help="the report as JSON (cents)")] = False,
          as_csv: Annotated[bool, typer.Option("--csv", help="the books as CSV (cents), one line per table, game, "
                                               "cloth and the casino")] = False,
          timezone: Annotated[str, typer.Option("--timezone", help="the casino's time zone, for dates without one")] = "Europe/Madrid",
          database: Annotated[str | None, typer.Option("--database", help="database URL (default: $TAPETE_DATABASE_URL "
                                                       "or sqlite:///tapete.db)")] = None) -> None:
    """The jornada report: each table's books for the period, per game, per cloth and for the casino."""
    from tapete import cli_args
    from tapete.core.errors import TapeteError
    from tapete.server.jornada.report import period
    from tapete.server.jornada.window import check_order, parse_time
    from tapete.server.storage.opening import open_database

    try:
        if as_json and as_csv:
            raise TapeteError("bad-option", "--json and --csv: choose one")
        try:
            ZoneInfo(timezone)
        except (ValueError, KeyError):
            raise TapeteError("bad-option", f"--timezone: no time zone {timezone!r} (Europe/Madrid, Atlantic/Canary)") from None
        a, b = parse_time(start, "--from", timezone), parse_time(end, "--to", timezone)
        check_order(a, b)
        db = open_database(database, must_exist=True)
        db.ensure_schema()
        with db.snapshot() as conn:
            found = period(conn, a, b, table)
        db.dispose()
    except TapeteError as exc:
        if as_json:       # as the other commands: --json answers the error document
            typer.echo(json.dumps(exc.document(), ensure_ascii=False))
        else:
            cli_args.refuse(exc.code, exc.message)
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(json.dumps(found, indent=1, default=str))
    elif as_csv:
        typer.echo(to_csv(found), nl=False)
    else:
        typer.echo(human(found, timezone))


def to_csv(found: dict[str, Any]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for level in ("tables", "games", "cloths"):
        for name, b in found[level].items():
            w.writerow([level[:-1], name, *(b.get(k) for k in CSV_COLUMNS[2:])])
    w.writerow(["casino", "casino", *(found["casino"].get(k) for k in CSV_COLUMNS[2:])])
    return out.getvalue()


def _when(ts: float | None, zone: str) -> str:
    return datetime.fromtimestamp(ts, ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M") if ts else "open"


def _books(b: dict[str, Any]) -> list[str]:
    lines = [f"  {label:<24}{euros(int(b[key])):>16}" for key, label in FIGURES]
    hold = f"{b['hold_pct']:.2f} %" if b.get("hold_pct") is not None else "no bets"
    lines.append(f"  {'hold (result / handle)':<24}{hold:>16}")
    sd = b.get("theoretical_sd")
    if sd:
        lines.append(f"  {'standard deviation':<24}{euros(round(sd)):>16}   the result lies {b['deviations']:+.2f} of them "
                     "from the theoretical win")
    lines.append(f"  {'reconciled':<24}{'yes' if b['reconciled'] else 'NO: the float does not match its play':>16}")
    return lines


def human(found: dict[str, Any], zone: str) -> str:
    days = ", ".join(found["days"]) or "none"
    out = [f"tapete shift: jornada {days}; {len(found['jornadas'])} table jornada(s); the cage's guarantee now "
           f"{euros(found['guarantee'])}"]
    if not found["jornadas"]:
        out.append("No table was opened in a jornada in this period.")
        return "\n".join(out)
    for b in found["jornadas"]:
        cloth = f", cloth of table {b['cloth_of']}" if b.get("cloth_of") else ""
        out += ["", f"Table {b['table']} ({b['game']}, {b['jurisdiction']}{cloth}): opened {_when(b['opened_at'], zone)} by "
                f"{b['opened_by']}, closed {_when(b.get('closed_at'), zone)}" + (f" by {b['closed_by']}" if b.get("closed_by") else "")]
        out += _books(b)
        out.append(f"  bets settled {b['bets']}; strategy assumed: {b['strategy']}")
        staff = found.get("staff", {}).get(b["table"])
        if staff:
            out.append(f"  staff: {', '.join(staff)}")
    for level, title in (("games", "Game"), ("cloths", "Cloth")):
        for name, b in found[level].items():
            if b["jornadas"] < 2:           # one table jornada: its own section says it all
                continue
            out += ["", f"{title} {name} ({b['jornadas']} jornada(s))", *_books(b)]
    out += ["", "The casino", *_books(found["casino"])]
    out += ["", "Top wins:" if found.get("top_wins") else "Top wins: none"]
    for w in found.get("top_wins", [])[:5]:
        out.append(f"  {euros(w['net'])} to {w['player']} at {w['table']} ({w['kind']}, staked {euros(w['staked'])}), "
                   f"{_when(w['at'], zone)}")
    for key, title in (("voids", "Voids"), ("corrections", "Corrections"), ("disputes", "Disputes")):
        items = found.get(key, [])
        out.append(f"{title}: {len(items) if items else 'none'}")
        for v in items:
            if key == "disputes":
                out.append(_dispute(v, zone))
                continue
            why = f": {v['reason']}" if v.get("reason") else ""
            out.append(f"  table {v['table']}, round {v['round']}, by {v['by']}, {_when(v['at'], zone)}{why}")
    return "\n".join(out)


def _dispute(v: dict[str, Any], zone: str) -> str:
    """A dispute in one line: who, about what, for how much, taken by whom, and how it ended."""
    who = f"by {v['player']}" if v.get("player") else "from the floor"
    claim = f", claiming {euros(int(v['claim']))}" if v.get("claim") is not None else ""
    end = v.get("closed")
    status = (f"{end['outcome']} by {end['by']}, {_when(end['at'], zone)}: {end['note']}" if end else "open")
    return (f"  dispute {v['dispute']} {who} at table {v['table']}, round {v['round']}{claim}, recorded by {v['by']}, "
            f"{_when(v['at'], zone)}: {v['reason']} — {status}")
