"""A table's jornada as operations on the table: each runs under the table's lock in one transaction (the table
service's `run`), its money in the table's ledger lane and its record in the table's hash-chained log, signed by
the member of staff who did it (the record's actor) and named in the staff log.

  open     the chief counts the anticipo in: the float brought to it from the bank (000:176; 001:151; 003:366-375)
  drop     cash changed into chips at the table: the chips from the float to the player, the cash into the table's
           box, its counterpart the cage's (the chips' counterpart, as a deposit at the cage) (000:728; 000:1389)
  tip      a player's chips into the table's tips box, booked apart, never in the win (000:1193; 000:1389)
  limits   a limit change where the jurisdiction allows it, the anticipo completed when a raised minimum calls for
           more (000:176-180; 003:364-375) and the cage's guarantee recomputed
  close    the chief counts the float out and the boxes (drop, tips, cagnotte); a count that is not the ledger's is
           refused; the float and the boxes go to the bank, the tips to the staff's tronc, the books are frozen
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from tapete.core.errors import TapeteError
from tapete.server.audit import staff_log
from tapete.server.jornada import books as bookkeeping
from tapete.server.jornada import rules
from tapete.server.money import ledger
from tapete.server.storage.db import bets, jornadas, ledger_tx, users
from tapete.server.tables.round_ops import op_limits
from tapete.server.tables.service import TableService
from tapete.server.tables.table_ctx import Ctx

STATUS = {"jornada-already-open": 409, "no-jornada": 409, "round-in-progress": 409, "cloth-in-use": 409,
          "cloth-change-refused": 422, "count-mismatch": 422}
AT_RISK = ("closed", "acting", "confirming")
TRONC = "tronc"     # the staff's tips, counted out of the tables' boxes


def drop_box(table: str) -> str:
    return f"drop:{table}"


def tips_box(table: str) -> str:
    return f"tips:{table}"


def current(conn: Connection, table_id: str) -> dict[str, Any] | None:
    """The table's open jornada, or None."""
    row = conn.execute(select(jornadas).where(jornadas.c.table_id == table_id, jornadas.c.status == "open")
                       .order_by(jornadas.c.id.desc()).limit(1)).mappings().first()
    return dict(row) if row else None


def guarantee(conn: Connection) -> int:
    """What the cage must hold as the guarantee of the bets: the anticipo due of every table in play (our reading of
    art. 37 / art. 49, which the texts cite but do not hold: docs/rulings.md#anticipo-and-guarantee)."""
    return int(conn.execute(select(func.coalesce(func.sum(jornadas.c.anticipo_due), 0))
                            .where(jornadas.c.status == "open")).scalar_one())


def _between_rounds(ctx: Ctx, what: str) -> None:
    """No bet at risk: bets closed and not yet settled, or any open bet (a table the clock drives is opened or
    closed while it takes bets, before anyone has bet)."""
    open_bet = ctx.conn.execute(select(bets.c.bet_id).where(bets.c.table_id == ctx.table_id, bets.c.status == "open")
                                .limit(1)).first()
    if ctx.row["phase"] in AT_RISK or open_bet is not None:
        raise TapeteError("round-in-progress", f"table {ctx.table_id}: a round is in play with bets on it; "
                          f"{what} between rounds")


def _open_jornada(ctx: Ctx) -> dict[str, Any]:
    row = current(ctx.conn, ctx.table_id)
    if row is None:
        raise TapeteError("no-jornada", f"table {ctx.table_id} is not open in a jornada: the chief opens it with its anticipo")
    return row


def _last_mark(conn: Connection) -> int:
    return int(conn.execute(select(func.coalesce(func.max(ledger_tx.c.id), 0))).scalar_one())


def _minimum(ctx: Ctx) -> int | None:
    value = (ctx.row["config"] or {}).get("minimum")
    return int(value) if isinstance(value, int) else None


def open_table(service: TableService, table_id: str, actor: str, anticipo: int,
               idem: tuple[str, str] | None = None) -> dict[str, Any]:
    day = rules.jornada_day(_now(), service.config.casino.timezone)
    return service.run(table_id, actor, lambda ctx: _open(ctx, service, anticipo, day), idem)


def _now() -> float:
    import time

    return time.time()


def _open(ctx: Ctx, service: TableService, anticipo: int, day: str) -> dict[str, Any]:
    _between_rounds(ctx, "a table opens")
    if current(ctx.conn, ctx.table_id) is not None:
        raise TapeteError("jornada-already-open", f"table {ctx.table_id} is already open in this jornada")
    cloth = ctx.spec.cloth_of
    changes = 0
    if cloth is not None:
        changes = _check_cloth(ctx, service, cloth, day)
    t = ctx.table_id
    for account in (ledger.float_(t), drop_box(t), tips_box(t), ledger.commission(t), TRONC, "bank", "cage"):
        ledger.ensure_account(ctx.conn, account)
    entry = ledger.Entry("jornada-open", t, actor=ctx.actor, memo=f"anticipo counted in ({day})")
    have = ledger.balance(ctx.conn, ledger.float_(t))
    if anticipo > have:
        entry.move("bank", ledger.float_(t), anticipo - have)
    elif have > anticipo:
        entry.move(ledger.float_(t), "bank", have - anticipo)
    _empty_boxes(ctx, entry)                     # what an earlier, unbooked day left in the boxes
    after = ledger.commit(ctx.conn, entry, lane=ctx.lane)
    mark = after["_tx"] if after else _last_mark(ctx.conn)
    minimum = _minimum(ctx)
    values = {"day": day, "table_id": t, "cloth_of": cloth, "game": ctx.spec.game, "jurisdiction": ctx.jurisdiction,
              "status": "open", "opened_at": ctx.now, "opened_by": ctx.actor, "anticipo": anticipo,
              "anticipo_due": anticipo, "minimum": minimum, "open_mark": mark}
    jid = ctx.conn.execute(insert(jornadas).values(**values)).inserted_primary_key[0]
    held = guarantee(ctx.conn)
    data = {"jornada": int(jid), "day": day, "anticipo": anticipo, "cloth_of": cloth, "game": ctx.spec.game,
            "cloth_changes": changes, "guarantee": held}
    ctx.emit("jornada-open", data)               # signed: the record's actor, in the table's chain
    staff_log.record(ctx.conn, ctx.actor, "jornada-open", t, data)
    return {"table": t, **data, "float": anticipo}


def _check_cloth(ctx: Ctx, service: TableService, cloth: str, day: str) -> int:
    """A reversible table: no other cloth in play, and the game changes its jurisdiction allows (rules.CLOTHS)."""
    siblings = [s.id for s in service.config.tables if s.cloth_of == cloth]
    busy = ctx.conn.execute(select(jornadas.c.table_id).where(jornadas.c.table_id.in_(siblings), jornadas.c.status == "open",
                                                              jornadas.c.table_id != ctx.table_id)).first()
    if busy is not None:
        raise TapeteError("cloth-in-use", f"table {cloth} plays {busy[0]} now: its game is closed before another cloth "
                          "opens (000:314; 002:254)", source="000:314; 002:254")
    games = [g for (g,) in ctx.conn.execute(select(jornadas.c.game).where(jornadas.c.cloth_of == cloth, jornadas.c.day == day)
                                            .order_by(jornadas.c.id))]
    changes = sum(1 for a, b in zip(games, games[1:], strict=False) if a != b)
    if games and games[-1] != ctx.spec.game:
        from tapete.catalog import get_game

        card = all(get_game(g).uses_shoe for g in (games[-1], ctx.spec.game))
        rules.check_cloth_change(ctx.jurisdiction, changes, service.config.casino.cloth_changes, card)
        changes += 1
    return changes


def _empty_boxes(ctx: Ctx, entry: ledger.Entry) -> dict[str, int]:
    t = ctx.table_id
    left = {"drop": ledger.balance(ctx.conn, drop_box(t)), "tips": ledger.balance(ctx.conn, tips_box(t)),
            "cagnotte": ledger.balance(ctx.conn, ledger.commission(t))}
    entry.move(drop_box(t), "bank", left["drop"]).move(tips_box(t), TRONC, left["tips"])
    entry.move(ledger.commission(t), "bank", left["cagnotte"])
    return left


def drop(service: TableService, table_id: str, actor: str, player: str, amount: int,
         idem: tuple[str, str] | None = None) -> dict[str, Any]:
    return service.run(table_id, actor, lambda ctx: _drop(ctx, player, amount), idem)


def _player(conn: Connection, username: str) -> None:
    row = conn.execute(select(users.c.roles).where(users.c.username == username)).first()
    if row is None:
        raise TapeteError("unknown-user", f"no user {username!r}")
    if row[0].split(",") != ["player"]:
        raise TapeteError("bad-request", f"{username} is not a player")


def _drop(ctx: Ctx, player: str, amount: int) -> dict[str, Any]:
    _open_jornada(ctx)
    _player(ctx.conn, player)
    t = ctx.table_id
    entry = (ledger.Entry("drop", t, ctx.row["round_id"], ctx.actor, memo="cash changed at the table")
             .move(ledger.float_(t), ledger.wallet(player), amount)      # the chips, from the table's float
             .move("cage", drop_box(t), amount))                         # the cash, into the table's box
    after = ledger.commit(ctx.conn, entry, lane=ctx.lane)
    assert after is not None
    ctx.emit("drop", {"player": player, "amount": amount})
    staff_log.record(ctx.conn, ctx.actor, "drop", t, {"player": player, "amount": amount})
    return {"table": t, "player": player, "amount": amount, "balance": after[ledger.wallet(player)],
            "drop": after[drop_box(t)]}


def tip(service: TableService, table_id: str, player: str, amount: int,
        idem: tuple[str, str] | None = None) -> dict[str, Any]:
    return service.run(table_id, player, lambda ctx: _tip(ctx, player, amount), idem)


def _tip(ctx: Ctx, player: str, amount: int) -> dict[str, Any]:
    _open_jornada(ctx)
    t = ctx.table_id
    entry = ledger.Entry("tip", t, ctx.row["round_id"], player, memo="tip").move(ledger.wallet(player), tips_box(t), amount)
    after = ledger.commit(ctx.conn, entry, lane=ctx.lane)
    assert after is not None
    ctx.emit("tip", {"player": player, "amount": amount})
    return {"table": t, "amount": amount, "balance": after[ledger.wallet(player)]}


def limits(service: TableService, table_id: str, actor: str, values: dict[str, Any],
           idem: tuple[str, str] | None = None) -> dict[str, Any]:
    """The chief's limit change (the engine decides whether and when: ES refuses it, 001:147), and in a jornada the
    anticipo completed and the guarantee recomputed, in the same transaction."""
    return service.run(table_id, actor, lambda ctx: _limits(ctx, values), idem)


def _limits(ctx: Ctx, values: dict[str, Any]) -> dict[str, Any]:
    answer = op_limits(ctx, values)
    row = current(ctx.conn, ctx.table_id)
    if row is None:
        return answer
    minimum = values.get("minimum")
    due = rules.anticipo_due(int(row["anticipo"]), row["minimum"], int(minimum) if isinstance(minimum, int) else None)
    due = max(due, int(row["anticipo_due"]))
    completed = due - int(row["anticipo_due"])
    source = rules.LIMIT_SOURCES.get(ctx.jurisdiction, "")
    if completed:
        t = ctx.table_id
        ledger.commit(ctx.conn, ledger.Entry("fill", t, actor=ctx.actor, memo=f"anticipo completed ({source})")
                      .move("bank", ledger.float_(t), completed), lane=ctx.lane)
        ctx.conn.execute(update(jornadas).where(jornadas.c.id == row["id"]).values(anticipo_due=due))
    held = guarantee(ctx.conn)
    data = {"jornada": int(row["id"]), "values": dict(values), "anticipo_due": due, "completed": completed,
            "guarantee": held, "source": source}
    ctx.emit("jornada-limits", data)
    return {**answer, "anticipo_due": due, "completed": completed, "guarantee": held}


def close_table(service: TableService, table_id: str, actor: str, counted: dict[str, int],
                idem: tuple[str, str] | None = None) -> dict[str, Any]:
    return service.run(table_id, actor, lambda ctx: _close(ctx, counted), idem)


def _close(ctx: Ctx, counted: dict[str, int]) -> dict[str, Any]:
    _between_rounds(ctx, "a table closes")
    row = _open_jornada(ctx)
    t = ctx.table_id
    held = {"float": ledger.balance(ctx.conn, ledger.float_(t)), "drop": ledger.balance(ctx.conn, drop_box(t)),
            "tips": ledger.balance(ctx.conn, tips_box(t)), "cagnotte": ledger.balance(ctx.conn, ledger.commission(t))}
    for what, have in held.items():
        got = int(counted.get(what, 0))
        if got != have:
            raise TapeteError("count-mismatch", f"table {t}: the {what} counted, {_euros(got)}, is not the "
                              f"{_euros(have)} the ledger holds: count again")
    entry = (ledger.Entry("jornada-close", t, actor=ctx.actor, memo=f"counted out ({row['day']})")
             .move(ledger.float_(t), "bank", held["float"]))
    _empty_boxes(ctx, entry)
    after = ledger.commit(ctx.conn, entry, lane=ctx.lane)
    mark = after["_tx"] if after else _last_mark(ctx.conn) + 1
    closed = {**row, "status": "closed", "closed_at": ctx.now, "closed_by": ctx.actor, "close_mark": mark,
              "counted": held}
    books = bookkeeping.books(ctx.conn, closed)
    ctx.conn.execute(update(jornadas).where(jornadas.c.id == row["id"]).values(
        status="closed", closed_at=ctx.now, closed_by=ctx.actor, close_mark=mark, counted=held, books=books))
    data = {"jornada": int(row["id"]), "day": row["day"], "counted": held, "win": books["win"],
            "theoretical_win": books["theoretical_win"], "guarantee": guarantee(ctx.conn)}
    ctx.emit("jornada-close", data)
    staff_log.record(ctx.conn, ctx.actor, "jornada-close", t, data)
    return {"table": t, **data, "books": books}


def _euros(cents: int) -> str:
    from tapete.core.money import euros

    return euros(cents)
