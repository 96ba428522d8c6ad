"""The staff audit log: one hash-chained record per staff action — an account created, roles granted, a password
set by the operator, chips in or out at the cage, a table fill or credit, a limit change, a void, a correction.

Written in the transaction of the action itself (an action and its record commit together or not at all). The
chain is the tables' (audit.py): hash = SHA-256(prev_hash || canonical record); appends are serialised (SQLite's
single writer, a transaction-scoped advisory lock on PostgreSQL), so the chain never forks. Each append also
stores the chain's head (seq and hash of the last record, meta_kv `staff-log-head`, as `casino_tables.log_hash`
does for a table): a rewritten and re-hashed last record, or a cut-off tail, links up perfectly and only the
stored head gives it away.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from sqlalchemy import Connection, insert, select, text, update

from tapete.server.audit.chains import canonical
from tapete.server.storage.db import meta_kv, staff_log

GENESIS = hashlib.sha256(b"tapete:staff").hexdigest()
LOCK_KEY = 7411017
HEAD_KEY = "staff-log-head"


def record_hash(prev_hash: str, seq: int, ts: float, actor: str | None, action: str, subject: str | None, data: Any) -> str:
    body = canonical({"seq": seq, "ts": ts, "actor": actor, "action": action, "subject": subject, "data": data})
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


def record(conn: Connection, actor: str | None, action: str, subject: str | None, data: dict[str, Any] | None = None) -> int:
    """Append one record in the caller's transaction; its sequence number."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": LOCK_KEY})
    last = conn.execute(select(staff_log.c.seq, staff_log.c.hash).order_by(staff_log.c.seq.desc()).limit(1)).first()
    seq, prev = (last[0] + 1, last[1]) if last else (1, GENESIS)
    ts = time.time()
    body = data or {}
    digest = record_hash(prev, seq, ts, actor, action, subject, body)
    conn.execute(insert(staff_log).values(seq=seq, ts=ts, actor=actor, action=action, subject=subject, data=body,
                                          prev_hash=prev, hash=digest))
    store_head(conn, seq, digest)
    return seq


def store_head(conn: Connection, seq: int, digest: str) -> None:
    value = f"{seq}:{digest}"
    if conn.execute(update(meta_kv).where(meta_kv.c.key == HEAD_KEY).values(value=value)).rowcount == 0:
        conn.execute(insert(meta_kv).values(key=HEAD_KEY, value=value, flag=None))


def head(conn: Connection) -> tuple[int, str]:
    """The stored head: (seq, hash) of the last record; (0, GENESIS) for a log never written."""
    value = conn.execute(select(meta_kv.c.value).where(meta_kv.c.key == HEAD_KEY)).scalar()
    if not value:
        return 0, GENESIS
    seq, _, digest = value.partition(":")
    return int(seq), digest


def rows(conn: Connection, after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
    q = select(staff_log).where(staff_log.c.seq > after).order_by(staff_log.c.seq)
    if limit is not None:
        q = q.limit(limit)
    return [dict(r._mapping) for r in conn.execute(q)]


def verify(records: list[dict[str, Any]], expected: tuple[int, str] | None = None) -> dict[str, Any]:
    """Recompute every link from the genesis; the first record that does not follow is reported. With
    `expected` (the stored head), the chain must also end there."""
    prev_seq, prev = 0, GENESIS
    for r in records:
        if r["seq"] != prev_seq + 1 or r["prev_hash"] != prev:
            return {"ok": False, "seq": r["seq"], "reason": "gap or broken link", "records": prev_seq}
        if record_hash(prev, r["seq"], r["ts"], r["actor"], r["action"], r["subject"], r["data"]) != r["hash"]:
            return {"ok": False, "seq": r["seq"], "reason": "hash mismatch", "records": prev_seq}
        prev_seq, prev = r["seq"], r["hash"]
    if expected is not None and (prev_seq, prev) != tuple(expected):
        return {"ok": False, "seq": prev_seq, "records": prev_seq,
                "reason": f"the log ends at record {prev_seq}, not at the stored head (record {expected[0]}, "
                          f"{expected[1][:16]}…): its tail was cut off or rewritten"}
    return {"ok": True, "records": prev_seq, "head": prev}
