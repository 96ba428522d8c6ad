"""The jornada report (`GET /api/jornada`, `tapete shift`): the books of every table jornada in a period, summed
per table, per game, per cloth and for the casino; with the period's top wins, voids, corrections and disputes
and the staff who worked each table."""

from __future__ import annotations

import math
import time
from typing import Any

from sqlalchemy import Connection, func, select

from tapete.server.jornada.books import books
from tapete.server.jornada.ops import guarantee
from tapete.server.storage.db import bets, events, jornadas, staff_log, users
from tapete.server.tables import disputes

SUMMED = ("opening_float", "fills", "credits", "drop", "cagnotte", "tips", "closing_float", "win", "result", "handle",
          "theoretical_win", "bets")


def _rows(conn: Connection, start: float | None, end: float | None, table: str | None,
          allowed: tuple[str, ...] | list[str] | None) -> list[dict[str, Any]]:
    q = select(jornadas).order_by(jornadas.c.id)
    if start is None and end is None:     # the last jornada the casino held
        day = conn.execute(select(func.max(jornadas.c.day))).scalar()
        q = q.where(jornadas.c.day == day)
    if start is not None:
        q = q.where(jornadas.c.opened_at >= start)
    if end is not None:
        q = q.where(jornadas.c.opened_at < end)
    if table is not None:
        q = q.where(jornadas.c.table_id == table)
    if allowed is not None:
        q = q.where(jornadas.c.table_id.in_(list(allowed)))
    return [dict(r) for r in conn.execute(q).mappings()]


def _total(items: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {k: sum(int(b[k]) for b in items) for k in SUMMED}
    sd = math.sqrt(sum(float(b["theoretical_sd"] or 0) ** 2 for b in items))
    out["theoretical_sd"] = round(sd, 2)
    out["hold_pct"] = round(100 * out["result"] / out["handle"], 4) if out["handle"] else None
    out["deviations"] = round((out["result"] - out["theoretical_win"]) / sd, 4) if sd else None
    out["reconciled"] = all(b["reconciled"] for b in items)
    out["jornadas"] = len(items)
    return out


def _group(found: list[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for b in found:
        groups.setdefault(b[key] or b["table"], []).append(b)
    return {k: _total(v) for k, v in sorted(groups.items())}


def period(conn: Connection, start: float | None, end: float | None, table: str | None = None,
           allowed: tuple[str, ...] | list[str] | None = None, detail: bool = True) -> dict[str, Any]:
    rows = _rows(conn, start, end, table, allowed)
    found = [books(conn, r) for r in rows]
    out: dict[str, Any] = {
        "from": start, "to": end, "days": sorted({r["day"] for r in rows}), "guarantee": guarantee(conn),
        "jornadas": found, "tables": _group(found, "table"), "games": _group(found, "game"),
        "cloths": _group(found, "cloth_of"), "casino": _total(found),
    }
    if detail:
        out.update(_details(conn, rows))
    return out


def _details(conn: Connection, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Top wins, voids, corrections, disputes and staff, over each table's jornadas in the period."""
    now = time.time()
    spans: dict[str, list[tuple[float, float]]] = {}
    for r in rows:
        spans.setdefault(r["table_id"], []).append((float(r["opened_at"]), float(r["closed_at"] or now)))

    def inside(t: str | None, ts: float) -> bool:
        return t is not None and any(a <= ts <= b for a, b in spans.get(t, []))

    wins = []
    if spans:
        q = (select(bets.c.table_id, bets.c.bet_id, bets.c.player, bets.c.kind, bets.c.collected, bets.c.returned,
                    bets.c.settled_at)
             .where(bets.c.table_id.in_(list(spans)), bets.c.status == "won"))
        for t, bet, player, kind, collected, returned, at in conn.execute(q):
            if at is not None and inside(t, float(at)):
                wins.append({"table": t, "bet": bet, "player": player, "kind": kind, "staked": int(collected),
                             "net": int(returned) - int(collected), "at": float(at)})
    wins.sort(key=lambda w: (-w["net"], w["at"]))
    acts: dict[str, list[dict[str, Any]]] = {"voids": [], "corrections": [], "disputes": []}
    names = {"void": "voids", "correct": "corrections", "dispute": "disputes"}
    q = select(staff_log.c.seq, staff_log.c.ts, staff_log.c.actor, staff_log.c.action, staff_log.c.subject,
               staff_log.c.data).where(staff_log.c.action.in_(list(names)))
    closed = disputes.closings(conn, list(spans)) if spans else {}
    for seq, ts, actor, action, subject, data in conn.execute(q.order_by(staff_log.c.seq)):
        if inside(subject, float(ts)):
            data = data if isinstance(data, dict) else {}
            item = {"table": subject, "at": float(ts), "by": actor, "round": data.get("round"),
                    "reason": data.get("reason"), "value": data.get("value"), "was": data.get("was")}
            if action == disputes.OPEN:     # who disputes, what he claims, and how it ended (closed at any time)
                end = closed.get(int(seq))
                item = {"table": subject, "dispute": int(seq), "at": float(ts), "by": actor, "round": data.get("round"),
                        "player": data.get("player"), "reason": data.get("reason"), "claim": data.get("claim"),
                        "status": end["outcome"] if end else "open", "closed": end}
            acts[names[action]].append(item)
    staff: dict[str, list[str]] = {}
    members = {u for u, roles in conn.execute(select(users.c.username, users.c.roles)) if set(roles.split(",")) - {"player"}}
    for t, periods in spans.items():
        who: set[str] = set()
        for r in rows:
            if r["table_id"] == t:
                who.update(x for x in (r["opened_by"], r["closed_by"]) if x)
        for ts, actor in conn.execute(select(events.c.ts, events.c.actor).where(
                events.c.table_id == t, events.c.actor.is_not(None))):
            if actor in members and any(a <= float(ts) <= b for a, b in periods):
                who.add(actor)
        staff[t] = sorted(who)
    return {"top_wins": wins[:10], **acts, "staff": staff}
