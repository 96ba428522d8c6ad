"""`tapete pool lototrot`: a day's tickets and the official result in, the prize table out.

The tickets file is a JSON list of tickets (`{"id", "player", "on": [7 horses], "amount"}`, `kind` optional), JSON
Lines of the same, `{"table": {...}, "tickets": [...]}`, or a round document whose bets are read. The result file
is the `result` body of docs/vocabulary.md §12 (`{"races": [...], "pool"?: {...}}`) or `{"result": {...}}`. The engine
settles the same round document `tapete settle` would; this module only reads files and draws the tables.
"""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal, DecimalException
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from tapete import i18n
from tapete.conformance.document import parse
from tapete.core.errors import TapeteError
from tapete.engine.serialize import to_json
from tapete.games.lototrot import CATEGORIES, LototrotState
from tapete.games.pools import last_presentation_day, payable_from, payment_means, payment_place
from tapete.i18n import Money


def _read_json(path: str, what: str) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise TapeteError("bad-document", f"cannot read the {what} file {path}: {exc.strerror}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        try:
            return [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as exc:
            raise TapeteError("bad-document", f"the {what} file is neither JSON nor JSON Lines: {exc.msg} "
                              f"(line {exc.lineno})") from exc


def load_tickets(path: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(table keys found in the file, ticket bets)."""
    data = _read_json(path, "tickets")
    table: dict[str, Any] = {}
    if isinstance(data, dict) and "events" in data:
        table = dict(data.get("table", {}))
        data = [e["bet"] for e in data["events"] if isinstance(e, dict) and "bet" in e]
    elif isinstance(data, dict) and "tickets" in data:
        table = dict(data.get("table", {}))
        data = data["tickets"]
    if not isinstance(data, list) or not all(isinstance(t, dict) for t in data):
        raise TapeteError("bad-document", "the tickets file holds a list of tickets {id, player, on, amount}")
    tickets = []
    for n, t in enumerate(data, 1):
        bet = {"kind": "pick-7", "player": t.get("player", t.get("id", f"t{n}")), **t}
        bet.setdefault("id", f"t{n}")
        tickets.append(bet)
    return table, tickets


def load_result(path: str) -> dict[str, Any]:
    data = _read_json(path, "result")
    if isinstance(data, dict) and set(data) == {"result"}:
        data = data["result"]
    if not isinstance(data, dict):
        raise TapeteError("bad-document", "the result file holds {\"races\": [...], \"pool\"?: {...}}")
    return data


def euros_to_cents(text: str | None, what: str) -> int | None:
    if text is None:
        return None
    try:
        value = Decimal(text) * 100
    except DecimalException as exc:
        raise TapeteError("bad-document", f"{what} is an amount in euros, e.g. 40000 or 40000.50") from exc
    if not value.is_finite() or value >= 10**15:       # issue 16: never Infinity, nor an overflow further on
        raise TapeteError("bad-document", f"{what} is an amount in euros under 10,000,000,000,000")
    if value != value.to_integral_value() or value < 0:
        raise TapeteError("bad-document", f"{what} is an amount in euros with at most two decimals")
    return int(value)


def percent_number(text: str | None) -> int | float | None:
    """--percentage as the JSON number a round document carries (read back exactly as a decimal)."""
    if text is None:
        return None
    try:
        value = Decimal(text)
    except DecimalException as exc:
        raise TapeteError("bad-table", "--percentage is a number, e.g. 60 or 62.5") from exc
    if not value.is_finite() or abs(value) > 1000:
        raise TapeteError("bad-table", "--percentage is a number, e.g. 60 or 62.5")
    return int(value) if value == value.to_integral_value() else float(value)


def pool_document(table: dict[str, Any], tickets: list[dict[str, Any]], result: dict[str, Any]) -> dict[str, Any]:
    table = {"minimum": 50, **table}
    return {"game": "lototrot", "jurisdiction": "ES-IB", "table": table,
            "events": [{"bet": t} for t in tickets] + [{"result": result}]}


def run_pool(doc: dict[str, Any]) -> tuple[LototrotState, dict[str, Any]]:
    """The engine's state after the result, and the settlement document."""
    parsed = parse(doc)
    game = parsed.game
    state = game.open(parsed.jurisdiction, parsed.table)
    for event in parsed.events:
        game.apply(state, event)
    state = game.finish(state)
    return state, game.settle(state).document()


def pool_report(state: LototrotState, settlement: dict[str, Any], race_day: date | None) -> dict[str, Any]:
    """The prize table as data: categories, tickets with payment point and means, the day's money."""
    day = state.day
    assert day is not None
    categories = [{"category": f"{k}/7", "winners": day.winners[k], "per_winner": day.per_winner[k],
                   "total": day.per_winner[k] * day.winners[k]} for k in CATEGORIES]
    tickets = []
    for t in state.tickets.values():
        entry: dict[str, Any] = {"id": t.id, "player": t.player, "on": t.picks, "amount": t.amount, "right": t.correct,
                                 "category": f"{t.category}/7" if t.category else None, "prize": t.prize}
        if t.prize:
            entry["paid_at"] = payment_place(t.prize)
            entry["paid_by"] = payment_means(t.prize)
        tickets.append(entry)
    money = {"staked": day.staked, "prize_percentage": str(Decimal(day.percentage.numerator) / day.percentage.denominator),
             "fund": day.fund, "organiser": day.house, "jackpot_in": day.jackpot_in, "reserve_in": day.reserve_in,
             "paid": day.paid, "jackpot_out": day.jackpot_out, "reserve_out": day.reserve_out, "remainder": day.remainder}
    report: dict[str, Any] = {"categories": categories, "tickets": tickets, "money": money, "settlement": settlement}
    if race_day is not None:
        report["payment"] = {"from": payable_from(race_day).isoformat(),
                             "last_day": last_presentation_day(race_day).isoformat()}
    return report


def notes(state: LototrotState) -> list[str]:
    """The result's races and the day's roll-downs, inversions and reserve movements."""
    races = [line for line in state.log if line.startswith("race ")]
    return races + (state.day.notes if state.day else [])


def local_notes(state: LototrotState, lang: str) -> list[str]:
    """`notes` in the session's language: the races from the result, the day's movements from their facts."""
    lines = []
    for i, race in enumerate(state.races or [], 1):
        horses = ", ".join(map(str, race.winners))
        words = [i18n.render(lang, "pool.race", n=i)]
        if race.scratched:
            words.append(i18n.render(lang, "pool.race.scratched", horses=", ".join(map(str, race.scratched))))
        if race.drawn:
            words.append(i18n.render(lang, "pool.race.drawn"))
        words.append(i18n.render(lang, "pool.race.dead-heat" if len(race.winners) > 1 else "pool.race.winner",
                                 horses=horses))
        if race.certificate:
            words.append(i18n.render(lang, "pool.race.certificate", certificate=race.certificate))
        lines.append(" ".join(words))
    for key, values in state.day.facts if state.day else []:
        lines.append(i18n.render(lang, key, **{k: Money(v) if k == "amount" else v for k, v in values.items()}))
    return lines


PLACES = {"any outlet": "pool.place.any", "outlet or Central Prize Office": "pool.place.outlet-or-central",
          "Central Prize Office only": "pool.place.central", "cash": "pool.means.cash",
          "nominative cheque": "pool.means.cheque"}
MONEY_ROWS = ("staked", "fund", "organiser", "jackpot_in", "reserve_in", "paid", "jackpot_out", "reserve_out")


def render_pool(console: Console, report: dict[str, Any], notes: list[str], lang: str = "en") -> None:
    """The day's prize table, tickets and money in one language (`i18n/<lang>/play.json`, `pool.*`)."""
    def t(key: str, **params: Any) -> str:
        return i18n.render(lang, key, **params)

    def cash(cents: int) -> str:
        return i18n.money(lang, cents)

    m = report["money"]
    group = i18n.area(lang, "play")["money.group"]
    cats = Table(title=t("pool.title"), show_lines=False)
    for col, justify in (("category", "left"), ("winners", "right"), ("per-winner", "right"), ("total", "right")):
        cats.add_column(t(f"pool.col.{col}"), justify=justify)   # type: ignore[arg-type]
    for c in report["categories"]:
        cats.add_row(c["category"], f"{c['winners']:,}".replace(",", group), cash(c["per_winner"]) if c["winners"] else "—",
                     cash(c["total"]) if c["winners"] else "—")
    console.print(cats)
    tickets = Table(title=t("pool.tickets"), show_lines=False)
    for col in ("ticket", "player", "picks", "right", "category", "prize", "where"):
        tickets.add_column(t(f"pool.col.{col}"), no_wrap=col in ("picks", "prize"))
    for k in report["tickets"]:
        where = f"{t(PLACES[k['paid_at']])}; {t(PLACES[k['paid_by']])}" if k["prize"] else ""
        tickets.add_row(k["id"], k["player"], " ".join(map(str, k["on"])), str(k["right"]), k["category"] or "—",
                        cash(k["prize"]) if k["prize"] else "—", where)
    console.print(tickets)
    money = Table.grid(padding=(0, 2))
    money.add_column()
    money.add_column(justify="right")
    for key in MONEY_ROWS + (("remainder",) if m["remainder"] else ()):
        money.add_row(t(f"pool.money.{key}"), cash(m[key]))
    console.print(money)
    for note in notes:
        console.print(f"[dim]{escape(note)}[/dim]")
    if "payment" in report:
        console.print(t("pool.payment", start=report["payment"]["from"], last=report["payment"]["last_day"]))


def pool_json(report: dict[str, Any], doc: dict[str, Any]) -> dict[str, Any]:
    return to_json({"document": doc, **report})
