"""Parse a round document (docs/format.md), run it through its game's reducer, answer with a settlement.

Everything the document may contain is checked here or by the game; anything else is `bad-document`.
Bad input never produces a settlement.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tapete.catalog import get_game
from tapete.core.errors import TapeteError
from tapete.engine.events import Act, Bet, Close, Deal, Event, Limits, Outcome, Void
from tapete.engine.game import Game
from tapete.engine.settlement import Settlement

TOP_KEYS = {"game", "jurisdiction", "table", "events", "shoe"}
OUTCOMES = ("spin", "roll", "draw", "result")
BET_KEYS = {"id", "player", "kind", "amount", "on"}
ACT_KEYS = {"bet", "by", "do"}


@dataclass
class RoundDocument:
    game: Game
    jurisdiction: str
    table: dict[str, Any]
    events: list[Event]
    shoe: list[Any] | None


def parse(doc: object) -> RoundDocument:
    if not isinstance(doc, dict):
        raise TapeteError("bad-document", "a round document is a JSON object")
    unknown = set(doc) - TOP_KEYS
    if unknown:
        raise TapeteError("bad-document", f"unknown top-level keys {sorted(unknown)}")
    game = get_game(doc.get("game"))
    jurisdiction = doc.get("jurisdiction")
    if not isinstance(jurisdiction, str):
        raise TapeteError("unknown-jurisdiction", "jurisdiction is required (ES, ES-IB, ES-GA, ES-AN)")
    game.rules_for(jurisdiction)
    table = doc.get("table")
    if not isinstance(table, dict):
        raise TapeteError("bad-document", "table is required: an object with at least 'minimum'")
    shoe = doc.get("shoe")
    if shoe is not None:
        if not game.uses_shoe:
            raise TapeteError("bad-document", f"{game.id} is not a card game: a shoe is not accepted")
        if not isinstance(shoe, list):
            raise TapeteError("bad-document", "shoe is a list of cards")
    raw = doc.get("events")
    if not isinstance(raw, list):
        raise TapeteError("bad-document", "events is required: a list")
    events = [parse_event(game, e, i) for i, e in enumerate(raw)]
    return RoundDocument(game, jurisdiction, table, events, shoe)


def parse_event(game: Game, raw: object, index: int) -> Event:
    where = f"event {index}"
    if not isinstance(raw, dict) or not raw:
        raise TapeteError("bad-document", f"{where}: an event is an object with one key")
    names = [k for k in raw if k != "last"]
    if len(names) != 1:
        raise TapeteError("bad-document", f"{where}: an event has exactly one of bet, {', '.join(OUTCOMES)}, act, deal, close, limits, void")
    name = names[0]
    body = raw[name]
    if "last" in raw and name not in (*OUTCOMES, "deal"):
        raise TapeteError("bad-document", f"{where}: 'last' marks an outcome (spin, roll, draw, result) or a deal")
    if name == "bet":
        return _bet(game, body, where)
    if name in OUTCOMES:
        last = raw.get("last", False)
        if not isinstance(last, bool):
            raise TapeteError("bad-document", f"{where}: 'last' is true or false")
        if name not in game.outcome_names:
            raise TapeteError("bad-document", f"{where}: {game.id} has no {name!r} event")
        return Outcome(name, body, last)
    if name == "act":
        return _act(game, body, where)
    if name in ("deal", "close"):
        if body not in ({}, None):
            raise TapeteError("bad-document", f"{where}: {name} takes an empty object")
        if not isinstance(raw.get("last", False), bool):
            raise TapeteError("bad-document", f"{where}: 'last' is true or false")
        return Deal(last=raw.get("last", False)) if name == "deal" else Close()
    if name == "limits":
        if not isinstance(body, dict):
            raise TapeteError("bad-document", f"{where}: limits takes an object of table keys")
        return Limits(dict(body))
    if name == "void":
        if not isinstance(body, str):
            raise TapeteError("bad-document", f"{where}: void takes a reason string")
        return Void(body)
    raise TapeteError("bad-document", f"{where}: unknown event {name!r}")


def _bet(game: Game, body: object, where: str) -> Bet:
    if not isinstance(body, dict):
        raise TapeteError("bad-document", f"{where}: a bet is an object")
    unknown = set(body) - BET_KEYS - game.extra_bet_fields
    bet_id = body.get("id")
    if unknown:
        raise TapeteError("bad-document", f"{where}: unknown bet keys {sorted(unknown)}", bet=bet_id if isinstance(bet_id, str) else None)
    for key in ("id", "player", "kind"):
        if not isinstance(body.get(key), str) or not body[key]:
            raise TapeteError("bad-document", f"{where}: a bet needs '{key}' (a string)")
    amount = body.get("amount")
    floor = 0 if body["kind"] in getattr(game, "zero_amount_kinds", ()) else 1   # circle blinds: 0 (VOCABULARY §8)
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < floor:
        raise TapeteError("bad-document", f"{where}: bet {bet_id}: amount is a positive integer in cents", bet=bet_id)
    on = body.get("on")
    if on is not None and not isinstance(on, list):
        on = [on]
    extra = {k: v for k, v in body.items() if k in game.extra_bet_fields}
    return Bet(bet_id, body["player"], body["kind"], amount, tuple(on) if on is not None else None, extra)


def _act(game: Game, body: object, where: str) -> Act:
    if not isinstance(body, dict):
        raise TapeteError("bad-document", f"{where}: an act is an object")
    unknown = set(body) - ACT_KEYS - game.extra_act_fields
    if unknown:
        raise TapeteError("bad-document", f"{where}: unknown act keys {sorted(unknown)}")
    if ("bet" in body) == ("by" in body):
        raise TapeteError("bad-document", f"{where}: an act names exactly one of 'bet' and 'by'")
    if not isinstance(body.get("do"), str):
        raise TapeteError("bad-document", f"{where}: an act needs 'do' (a verb)")
    fields = {k: v for k, v in body.items() if k not in ACT_KEYS}
    return Act(body["do"], bet=body.get("bet"), by=body.get("by"), fields=fields)


def run(doc: RoundDocument) -> Settlement:
    """Open the table, apply every event, apply the defaults due, settle."""
    game = doc.game
    state = game.open(doc.jurisdiction, doc.table, doc.shoe)
    state = game.run_events(state, doc.events)       # linear: no copy of the whole state per event
    state = game.finish(state)
    return game.settle(state)


def settle_document(doc: object) -> dict[str, Any]:
    """A round document in, a settlement document (or an error document) out. Never raises TapeteError."""
    try:
        parsed = parse(doc)
        rounding = parsed.table.get("rounding", "player")
        return run(parsed).document(rounding=rounding if rounding in ("player", "house") else "player")
    except TapeteError as exc:
        return exc.document()


# No amount, count or number in a round document needs more digits than this (10^15 cents is ten trillion euros);
# beyond, a number is refused as the document is read, not left to overflow a settlement (issue 16).
MAX_DIGITS = 15


def _number(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise TapeteError("bad-document", f"a number of {digits:,} digits: the numbers of a round document have at "
                          f"most {MAX_DIGITS} digits (amounts are cents)")
    return int(text)


def settle_text(text: str) -> dict[str, Any]:
    try:
        doc = json.loads(text, parse_int=_number)
    except json.JSONDecodeError as exc:
        return TapeteError("bad-document", f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}").document()
    except TapeteError as exc:
        return exc.document()
    return settle_document(doc)
