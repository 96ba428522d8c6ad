"""A period's bounds as the API and `tapete shift` take them: an ISO 8601 time (a date alone: its midnight, the
casino's time) or seconds since the epoch."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from tapete.core.errors import TapeteError


def parse_time(text: str | None, option: str, timezone: str = "UTC") -> float | None:
    if text is None or text == "":
        return None
    try:
        return float(text)
    except ValueError:
        pass
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise TapeteError("bad-request", f"{option}: a time (2026-11-29, 2026-11-29T20:00, or seconds since 1970), "
                          f"not {text!r}") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=ZoneInfo(timezone))
    return when.timestamp()


def check_order(start: float | None, end: float | None) -> None:
    if start is not None and end is not None and end < start:
        raise TapeteError("bad-request", "the period ends before it starts (--to before --from)")


def transactions(conn: object, start: float | None, end: float | None, limit: int) -> dict[str, object]:
    """The ledger's transactions in [start, end): how many, the sums per kind, and the first `limit` of them with
    their postings (oldest first)."""
    from sqlalchemy import func, select

    from tapete.server.storage.db import ledger_tx, postings

    where = []
    if start is not None:
        where.append(ledger_tx.c.ts >= start)
    if end is not None:
        where.append(ledger_tx.c.ts < end)
    kinds = {k: {"transactions": int(n)} for k, n in conn.execute(   # type: ignore[attr-defined]
        select(ledger_tx.c.kind, func.count()).where(*where).group_by(ledger_tx.c.kind))}
    found = conn.execute(select(ledger_tx.c.id, ledger_tx.c.ts, ledger_tx.c.kind, ledger_tx.c.table_id,   # type: ignore[attr-defined]
                                ledger_tx.c.round_id, ledger_tx.c.actor, ledger_tx.c.memo)
                         .where(*where).order_by(ledger_tx.c.id).limit(limit)).mappings().all()
    ids = [int(r["id"]) for r in found]
    lines: dict[int, list[dict[str, object]]] = {i: [] for i in ids}
    if ids:
        for tx, account, amount, bet in conn.execute(select(postings.c.tx_id, postings.c.account_id, postings.c.amount,   # type: ignore[attr-defined]
                                                            postings.c.bet_id).where(postings.c.tx_id.in_(ids))
                                                     .order_by(postings.c.id)):
            lines[int(tx)].append({"account": account, "amount": int(amount), "bet": bet})
    total = sum(int(v["transactions"]) for v in kinds.values())
    return {"from": start, "to": end, "count": total, "kinds": kinds,
            "transactions": [{**dict(r), "postings": lines[int(r["id"])]} for r in found], "truncated": total > len(found)}
