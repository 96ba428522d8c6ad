"""The end of a round: every decided bet booked, the seed revealed, the round record written, and whether the
next round starts from a fresh state."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text, update

from tapete.engine.events import Limits
from tapete.server.storage import fastjson
from tapete.server.storage.db import rounds
from tapete.server.tables import banker, circle
from tapete.server.tables.fairness import commitment
from tapete.server.tables.shoes import dealt_cards, open_state, shoe_over
from tapete.server.tables.table_ctx import (
    ENGINE_KINDS,
    Ctx,
    book,
    guarded,
    round_record,
    settlement_doc,
    sync_stakes,
)
from tapete.server.tables.visibility import state_view


def conclude(ctx: Ctx) -> dict[str, Any]:
    """End the round: collect and book every decided bet (void ones handed back), reveal the seed, write
    the round record, and decide whether the next round starts from a fresh state."""
    doc = settlement_doc(ctx) if ctx.state is not None else None
    results: dict[str, Any] = {}
    pending: list[str] = []
    if doc is not None:
        sync_stakes(ctx, doc)
        results = book(ctx, doc, include_void=True)
        pending = [b for b, e in doc["bets"].items() if e["status"] == "pending"]
    carries = bool(pending) or ctx.adapter.announced(ctx.state) is not None or banker.partida_goes_on(ctx)
    effective = getattr(ctx.state, "table", None)
    if isinstance(effective, dict):
        effective = {k: v for k, v in circle.table_config(ctx.game, effective).items()
                     if k != "cut-card" or "cut-card" in ctx.row["config"]}
    if isinstance(effective, dict) and effective != ctx.row["config"] and ctx.adapter.announced(ctx.state) is None:
        ctx.set(config=dict(effective))
        ctx.emit("limits-in-force", {"table": dict(effective)})
    if carries and not pending and not banker.partida_goes_on(ctx) and not takes_bets(ctx):
        reopen_announced(ctx)
    booked = dict(ctx.row["booked"] or {})
    booked["rollover"] = not carries
    ctx.set(booked=booked)
    record = round_record(ctx)
    shoe_note = end_of_coup_shoe(ctx, record) if ctx.game.uses_shoe and ctx.spec.source == "rng" else None
    lines = getattr(ctx.state, "log", None)
    record.update({
        "round": ctx.row["round_no"], "round_id": ctx.row["round_id"], "table_id": ctx.table_id, "game": ctx.game.id,
        "jurisdiction": ctx.jurisdiction, "commitment": commitment(ctx.row["seed"]) if ctx.row["seed"] else record.get("commitment"),
        "seed": ctx.row["seed"], "settlement": doc, "pending": pending,
        "log": lines[record.get("log_start", 0):] if isinstance(lines, list) else [],
    })
    if shoe_note is not None:
        record["shoe"] = shoe_note
    if ctx.game.uses_shoe and ctx.state is not None:
        record["view"] = state_view(ctx.state, over=True)     # the coup as the table showed it at its end
        if ctx.coup is not None:
            record["coup"] = ctx.coup          # read back through visibility.doc_view, per viewer
    ctx.round_dirty = True
    ctx.conn.execute(update(rounds).where(rounds.c.id == ctx.row["round_id"]).values(
        status="settled", settled_at=ctx.now, seed=ctx.row["seed"]))
    deadline = ctx.now + ctx.spec.timing.pause if ctx.spec.auto else None
    ctx.set(phase="settled", deadline=deadline, pre_outcome=None)
    ctx.emit("settlement", {"bets": results, "house": doc["house"] if doc else None, "pending": pending,
                            "seed": ctx.row["seed"], "log": record["log"][-40:]})
    record["events"] = round_events(round_records_raw(ctx, record) + [(k, d) for k, _, d in ctx.records])
    return {"round": ctx.row["round_no"], "phase": "settled", "bets": results, "pending": pending}


def takes_bets(ctx: Ctx) -> bool:
    """Whether the engine's state would take a new bet (a state carried to the next round must)."""
    return ctx.state is not None and any(a.verb == "bet" and a.kind is not None for a in ctx.game.legal_actions(ctx.state))


def reopen_announced(ctx: Ctx) -> None:
    """A round the server ended without the engine ending it (a void that annuls it, a restart voiding it)
    leaves a state that refuses bets: carrying it for an announced limit change stopped the table for good.
    The next round opens a fresh state at the limits in force with the change announced again: its count of
    spins or rounds starts afresh (R: docs/rulings.md#server-limit-change-after-a-void)."""
    announced = ctx.adapter.announced(ctx.state)
    if ctx.game.uses_shoe or announced is None:
        return
    state = open_state(ctx.game, ctx.jurisdiction, ctx.row["config"], ctx.spec.source, seed=None)
    changed = {k: v for k, v in announced.items() if ctx.row["config"].get(k) != v}
    ctx.state = guarded(ctx.game.step, state, Limits(changed)) if changed else state
    ctx.state_changed = True
    if changed:      # not an engine record of this round: the announcement belongs to the next one's fresh state
        ctx.emit("limits-announced", {"limits": changed, "say": "the round was annulled: the limit change is announced again"})


def load_round_records(ctx: Ctx, record: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    start = record.get("start_seq", 0)
    found = ctx.conn.execute(text("SELECT kind, data FROM events WHERE table_id = :t AND seq > :s ORDER BY seq"),
                             {"t": ctx.table_id, "s": start}).all()
    return [(kind, data if isinstance(data, dict) else fastjson.loads(data)) for kind, data in found]


# A round's bets are most of its log: their events are taken as the text the database holds and written into
# the round record as they are (fastjson.RawJSON), not parsed and serialised again: reading a round of 500
# bets back was a third of a settlement's CPU in the server (docs/performance.md, third pass).
_ROUND_RECORDS = {
    "sqlite": "SELECT kind, CASE WHEN kind = 'bet' THEN json_extract(data, '$.event') END, CASE WHEN kind <> 'bet' THEN data END "
              "FROM events WHERE table_id = ? AND seq > ? ORDER BY seq",
    "postgresql": "SELECT kind, CASE WHEN kind = 'bet' THEN CAST(data -> 'event' AS TEXT) END, "
                  "CASE WHEN kind <> 'bet' THEN data END FROM events WHERE table_id = %s AND seq > %s ORDER BY seq",
}


def round_records_raw(ctx: Ctx, record: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """`load_round_records` for the round record: a bet's record is {"event": its event as stored text}."""
    dialect = ctx.conn.dialect.name
    found = ctx.conn.exec_driver_sql(_ROUND_RECORDS["sqlite" if dialect == "sqlite" else "postgresql"],
                                     (ctx.table_id, record.get("start_seq", 0)))
    out: list[tuple[str, dict[str, Any]]] = []
    for kind, event, data in found.all():       # the rows in one driver call, not one by one
        if kind == "bet":
            out.append((kind, {"event": fastjson.RawJSON(event)}))
        else:
            out.append((kind, data if isinstance(data, dict) else fastjson.loads(data)))
    return out


def round_events(records: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """The round as a docs/format.md event list: a corrected result replaces the keyed one, a result annulled
    by a void before confirmation is dropped (the engine state never kept it)."""
    out: list[Any] = []
    last_outcome: int | None = None
    for kind, data in records:
        if kind not in ENGINE_KINDS:
            continue
        if kind == "correct" and last_outcome is not None:
            out[last_outcome] = data["event"]
            continue
        if kind == "void" and data.get("annulled") and last_outcome is not None:
            out.pop(last_outcome)
            last_outcome = None
        if kind == "outcome":
            last_outcome = len(out)
        out.append(data["event"])
    return out


def end_of_coup_shoe(ctx: Ctx, record: dict[str, Any]) -> dict[str, Any] | None:
    """Advance the electronic shoe by the cards this state dealt; at the cut card, end the shoe: log the
    card counts and reveal its seed."""
    info = dict(ctx.row["shoe"] or {})
    dealt = dealt_cards(ctx.game, ctx.state)
    if not info or dealt is None:
        return None
    start = info.get("start", info["position"])
    info["position"] = start + len(dealt)
    note = {"commitment": info["commitment"], "start": start, "dealt": dealt, "number": info["number"]}
    if shoe_over(ctx.game, ctx.state) or ctx.game.fresh_deck_each_round or info["total"] - info["position"] < 10:
        info["ended"] = True
        note["seed"] = info["seed"]
        ctx.emit("shoe", {"event": "end", "number": info["number"], "dealt": info["position"],
                          "remaining": info["total"] - info["position"], "seed": info["seed"], "commitment": info["commitment"]})
    ctx.set(shoe=info)
    return note
