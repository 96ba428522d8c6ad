"""The player's own record for the account page: every movement of his wallet (deposits, withdrawals, stakes,
returns) and the rounds he played, with table names and times in the casino's zone — never account ids."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import func, select

from tapete.server.config import CasinoConfig
from tapete.server.money import ledger
from tapete.server.storage.db import bets, ledger_tx, postings, rounds

WORDS = {"deposit": "deposit", "withdraw": "withdrawal", "bet": "stake", "settle": "return", "buy-in": "buy-in",
         "rebuy": "buy-in", "cash-out": "cash-out"}


def table_names(config: CasinoConfig) -> dict[str, str]:
    """Each table's name as the lobby shows it (the game's name where the file gives none)."""
    from tapete.catalog import get_game

    out = {}
    for t in config.tables:
        out[t.id] = t.name or get_game(t.game).name_es
    return out


def when(ts: float | None, zone: ZoneInfo) -> str | None:
    return None if ts is None else datetime.fromtimestamp(ts, zone).strftime("%Y-%m-%d %H:%M:%S")


def statement(conn: Any, config: CasinoConfig, username: str, limit: int) -> dict[str, Any]:
    """The wallet's last `limit` movements, newest first, each with the balance after it."""
    zone, names = ZoneInfo(config.casino.timezone), table_names(config)
    account = ledger.wallet(username)
    balance = ledger.balance(conn, account)
    found = conn.execute(select(postings.c.amount, ledger_tx.c.kind, ledger_tx.c.table_id, ledger_tx.c.ts,
                                rounds.c.number)
                         .select_from(postings.join(ledger_tx, ledger_tx.c.id == postings.c.tx_id)
                                      .outerjoin(rounds, rounds.c.id == ledger_tx.c.round_id))
                         .where(postings.c.account_id == account)
                         .order_by(postings.c.id.desc()).limit(limit)).all()
    lines = []
    after = balance
    for amount, kind, table_id, ts, number in found:
        lines.append({"when": when(ts, zone), "what": WORDS.get(kind, kind), "amount": int(amount), "balance": after,
                      "table": names.get(table_id) if table_id else None, "round": number})
        after -= int(amount)
    return {"balance": balance, "timezone": config.casino.timezone, "movements": lines}


def played_rounds(conn: Any, config: CasinoConfig, username: str, limit: int) -> dict[str, Any]:
    """The rounds the player had a bet in, newest first: table, number, time, his stakes and returns, and the
    commitment published when the round opened (the page checks the revealed seed against it)."""
    zone, names = ZoneInfo(config.casino.timezone), table_names(config)
    mine = (select(bets.c.round_id, func.sum(bets.c.collected).label("staked"), func.sum(bets.c.returned).label("returned"),
                   func.count().label("bets"))
            .where(bets.c.player == username).group_by(bets.c.round_id).subquery())
    found = conn.execute(select(rounds.c.id, rounds.c.table_id, rounds.c.number, rounds.c.status, rounds.c.opened_at,
                                rounds.c.settled_at, rounds.c.commitment, mine.c.staked, mine.c.returned, mine.c.bets)
                         .select_from(rounds.join(mine, mine.c.round_id == rounds.c.id))
                         .order_by(rounds.c.id.desc()).limit(limit)).mappings().all()
    return {"timezone": config.casino.timezone, "rounds": [
        {"id": r["id"], "table": names.get(r["table_id"], r["table_id"]), "number": r["number"], "status": r["status"],
         "opened": when(r["opened_at"], zone), "settled": when(r["settled_at"], zone), "commitment": r["commitment"],
         "staked": int(r["staked"] or 0), "returned": int(r["returned"] or 0), "net": int(r["returned"] or 0) - int(r["staked"] or 0),
         "bets": int(r["bets"])} for r in found]}
