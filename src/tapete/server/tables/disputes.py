"""Disputes (issue 30, items 5-7): a player's complaint about a round, recorded by the table's chief or the
inspector, and later closed (upheld or dismissed) with a note, once.

A dispute moves no money (what is owed after an upheld dispute is paid at the cage, where the cashier's deposit
is its own record): it is a record in the table's hash-chained log (`dispute`, signed by the member of staff
who took it, so `tapete audit verify` covers it) and a line of the staff log with the same facts. The staff
log's sequence number of that line is the dispute's number; its closing is another pair of records
(`dispute-close`) that names it. Both run under the table's lock (the table service's `run`), so a dispute is
closed once even when two chiefs press at the same moment.

  round    the table's round the player disputes: one the table has played or is playing (`unknown-round`)
  player   who disputes (a player's login), or none: a dispute may come from the floor
  reason   why, in the chief's words (required, as a void's)
  claim    what the player says he is owed, in cents (optional)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, select

from tapete.core.errors import TapeteError
from tapete.server.audit import staff_log
from tapete.server.storage.db import rounds, users
from tapete.server.storage.db import staff_log as staff_log_table
from tapete.server.tables.service import TableService
from tapete.server.tables.table_ctx import Ctx

OPEN, CLOSE = "dispute", "dispute-close"
OUTCOMES = ("upheld", "dismissed")
STATUS = {"unknown-dispute": 404, "dispute-closed": 409}


def record(service: TableService, table_id: str, actor: str, round_no: int, player: str | None, reason: str,
           claim: int | None, idem: tuple[str, str] | None = None) -> dict[str, Any]:
    """Record a dispute on a round of the table; its document (`dispute`: its number)."""
    return service.run(table_id, actor, lambda ctx: _record(ctx, round_no, player, reason, claim), idem)


def close(service: TableService, table_id: str, actor: str, dispute: int, outcome: str, note: str,
          idem: tuple[str, str] | None = None) -> dict[str, Any]:
    """Close an open dispute of the table, upheld or dismissed, with a note."""
    return service.run(table_id, actor, lambda ctx: _close(ctx, dispute, outcome, note), idem)


def _record(ctx: Ctx, round_no: int, player: str | None, reason: str, claim: int | None) -> dict[str, Any]:
    t = ctx.table_id
    played = ctx.conn.execute(select(rounds.c.id).where(rounds.c.table_id == t, rounds.c.number == round_no)).first()
    if played is None:
        raise TapeteError("unknown-round", f"table {t} has played no round {round_no}")
    if player is not None:
        _check_player(ctx.conn, player)
    data: dict[str, Any] = {"round": round_no, "reason": reason}
    if player is not None:
        data["player"] = player
    if claim is not None:
        data["claim"] = claim
    number = staff_log.record(ctx.conn, ctx.actor, OPEN, t, data)
    doc = {"dispute": number, **data}
    ctx.emit(OPEN, doc)                     # the table's chain: signed by the record's actor
    return {"table": t, **doc, "status": "open"}


def _close(ctx: Ctx, dispute: int, outcome: str, note: str) -> dict[str, Any]:
    t = ctx.table_id
    if outcome not in OUTCOMES:
        raise TapeteError("bad-request", f"a dispute is closed upheld or dismissed, not {outcome!r}")
    found = ctx.conn.execute(select(staff_log_table.c.data).where(
        staff_log_table.c.seq == dispute, staff_log_table.c.action == OPEN, staff_log_table.c.subject == t)).first()
    if found is None:
        raise TapeteError("unknown-dispute", f"no dispute {dispute} at table {t}")
    done = closings(ctx.conn, [t]).get(dispute)
    if done is not None:
        raise TapeteError("dispute-closed", f"dispute {dispute} at table {t} was already closed ({done['outcome']} "
                          f"by {done['by']}): a dispute is closed once")
    opened = found[0] if isinstance(found[0], dict) else {}
    data = {"dispute": dispute, "round": opened.get("round"), "outcome": outcome, "note": note,
            **{k: opened[k] for k in ("player", "claim") if k in opened}}
    staff_log.record(ctx.conn, ctx.actor, CLOSE, t, data)
    ctx.emit(CLOSE, data)
    return {"table": t, **data, "status": outcome}


def _check_player(conn: Connection, username: str) -> None:
    row = conn.execute(select(users.c.roles).where(users.c.username == username)).first()
    if row is None:
        raise TapeteError("unknown-user", f"no player {username!r}")
    if "player" not in str(row[0]).split(","):
        raise TapeteError("bad-request", f"{username} is not a player: a dispute is a player's (or the floor's, with no player)")


# -- reading ------------------------------------------------------------------------------------------------------
def closings(conn: Connection, tables: Iterable[str] | None = None) -> dict[int, dict[str, Any]]:
    """The closed disputes (of these tables; None: all): dispute number -> outcome, note, by, at."""
    q = select(staff_log_table.c.seq, staff_log_table.c.ts, staff_log_table.c.actor, staff_log_table.c.data).where(
        staff_log_table.c.action == CLOSE)
    if tables is not None:
        q = q.where(staff_log_table.c.subject.in_(sorted(tables)))
    out: dict[int, dict[str, Any]] = {}
    for seq, ts, actor, data in conn.execute(q.order_by(staff_log_table.c.seq)):
        data = data if isinstance(data, dict) else {}
        number = data.get("dispute")
        if isinstance(number, int) and number not in out:
            out[number] = {"outcome": data.get("outcome"), "note": data.get("note"), "by": actor, "at": float(ts),
                           "seq": int(seq)}
    return out


def annotate(conn: Connection, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Staff-log items with each dispute's standing: `status` open/upheld/dismissed and `closed` (outcome, note,
    by, at) or None. Other items as they are."""
    if not any(i.get("action") == OPEN for i in items):
        return items
    done = closings(conn, {i["subject"] for i in items if i.get("action") == OPEN and i.get("subject")})
    out = []
    for i in items:
        if i.get("action") == OPEN:
            closed = done.get(int(i["seq"]))
            i = {**i, "status": closed["outcome"] if closed else "open", "closed": closed}
        out.append(i)
    return out


def of_player(conn: Connection, username: str, limit: int = 20, scan: int = 2000) -> list[dict[str, Any]]:
    """The player's own disputes, newest first (the last `scan` disputes of the casino looked at): table, round,
    claim, when recorded, and how each stands (open, upheld, dismissed, when). Never the staff's reason or note."""
    q = (select(staff_log_table.c.seq, staff_log_table.c.ts, staff_log_table.c.subject, staff_log_table.c.data)
         .where(staff_log_table.c.action == OPEN).order_by(staff_log_table.c.seq.desc()).limit(scan))
    mine = []
    for seq, ts, subject, data in conn.execute(q):
        data = data if isinstance(data, dict) else {}
        if data.get("player") == username:
            mine.append({"dispute": int(seq), "table": subject, "round": data.get("round"), "claim": data.get("claim"),
                         "at": float(ts)})
            if len(mine) >= limit:
                break
    done = closings(conn, {m["table"] for m in mine}) if mine else {}
    for m in mine:
        end = done.get(m["dispute"])
        m["status"] = end["outcome"] if end else "open"
        m["closed_at"] = end["at"] if end else None
    return mine
