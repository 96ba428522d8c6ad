"""The open bets of a table, read once per transaction (below the rest of the tables' room: the banker, the circle
and the transaction helpers all ask for them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, select

from tapete.server.storage.db import bets

if TYPE_CHECKING:
    from tapete.server.tables.table_ctx import Ctx

_OPEN_BETS = select(bets).where(bets.c.table_id == bindparam("t"), bets.c.status == "open")
_BET_ID = [c.name for c in bets.c].index("bet_id")


def load_open_bets(ctx: Ctx) -> dict[str, dict[str, Any]]:
    if ctx.open_bets is None:
        found = ctx.conn.execute(_OPEN_BETS, {"t": ctx.table_id})
        names = list(found.keys())      # plain rows zipped with the names: a round's bets at settlement
        # all() fetches the rows in one driver call (iterating the result fetched them one by one: Python per row)
        ctx.open_bets = {r[_BET_ID]: dict(zip(names, r, strict=True)) for r in found.all()}
        ctx.open_bets.update(ctx.new_bets)
    return ctx.open_bets
